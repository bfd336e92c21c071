// Reading a user's input file, bounded by construction: every moesim reader of a file it did not
// write itself goes through read_input_file (or check_input_file, for a reader that streams), so
// a device, a FIFO or a socket (which may never end, or block) is refused before it is read, a
// file larger than the reader's stated limit is refused before memory is reserved for it, and a
// read that fails (/proc/self/mem) is an error, never an empty input. The limits are listed in
// docs/fuzzing.md (Limits).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace moesim::isa {

/// Text inputs: assembly, .hex and .stages files.
constexpr uint64_t kMaxTextInputBytes = uint64_t{64} << 20;
/// YAML inputs (isa.yaml, machine.yaml, stages.yaml, conformance cases and waivers, images,
/// campaign specs, deployments files, mix files).
constexpr uint64_t kMaxYamlInputBytes = uint64_t{16} << 20;
/// JSON inputs other than route traces (config.json).
constexpr uint64_t kMaxJsonInputBytes = uint64_t{16} << 20;

/// Throws UsageError "PATH: ..." unless `path` names a regular file of at most `max_bytes` bytes
/// that can be opened for reading: "no such file", "is a directory", "not a regular file (a
/// device, FIFO or socket ...)", "N bytes, more than the limit of M bytes", "cannot open
/// (REASON)". Returns the file's size. Never blocks (a FIFO is opened without waiting).
uint64_t check_input_file(const std::string& path, uint64_t max_bytes);

/// Reads all of `path` after the checks of check_input_file. A read error throws UsageError
/// "PATH: read error (REASON)"; a file that grows past `max_bytes` while it is read is refused
/// as one that was too large.
std::string read_input_file(const std::string& path, uint64_t max_bytes);
/// The same as bytes.
std::vector<uint8_t> read_input_bytes(const std::string& path, uint64_t max_bytes);

}  // namespace moesim::isa
