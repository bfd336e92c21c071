// Where a run came from: the command line, moesim's version and git hash (taken at configure
// time), the seed, the machine preset and SHA-256 digests of the spec files, the program and
// the images. Every report, the HTML header and the trace log header carry it
// (docs/reproducibility.md).
#pragma once

#include <filesystem>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "moesim/isa/spec.hpp"

namespace moesim::report {

/// moesim's version (CMake project version) and the git commit the build was configured from
/// ("<40 hex>" with "-dirty" when the work tree had changes, "unknown" outside git).
const char* moesim_version();
const char* moesim_git_hash();

/// SHA-256 as 64 lowercase hex digits (the digest `sha256sum` prints).
std::string sha256_hex(const void* data, size_t n);
/// Throws std::runtime_error naming the path if it cannot be read.
std::string sha256_file(const std::filesystem::path& path);

struct Provenance {
  std::vector<std::string> command_line;  ///< argv as given
  std::optional<uint64_t> seed;           ///< --seed of a generated layer, --random-image
  std::string machine;                    ///< machine preset
  /// Inputs to hash by file: (what, path), e.g. ("program", "prog.asm"), ("image", "m.yaml").
  std::vector<std::pair<std::string, std::filesystem::path>> files;
  /// Inputs with a digest already known: (what, sha256), e.g. the generated program's words.
  std::vector<std::pair<std::string, std::string>> digests;
};

/// {"command_line": [...], "moesim_version", "git_hash", "seed", "machine",
///  "sha256": {"isa.yaml": ..., "machine.yaml": ..., "stages.yaml": ..., "<what>": ...}}.
/// The spec files are those `spec` was loaded from (spec.dir).
nlohmann::json provenance_json(const isa::Spec& spec, const Provenance& p);

/// The same as text lines ("command: moesim cosim ...", "moesim 0.1 (git ...)", ...), for the
/// header of a text output such as the trace log.
std::vector<std::string> provenance_lines(const nlohmann::json& provenance);

/// The command line as one shell-quoted string.
std::string quoted_command_line(const std::vector<std::string>& argv);

}  // namespace moesim::report
