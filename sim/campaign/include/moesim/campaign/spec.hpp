// A campaign spec (docs/campaigns.md): YAML whose `runs` entries are cross products of run
// parameters, expanded into the list of co-simulation runs, each a `moesim cosim` command line
// (or, from a `random` entry, a `moesim random --cosim` batch of random programs).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "moesim/isa/spec.hpp"

namespace moesim::campaign {

/// One co-simulation of a campaign. Unset optionals leave the flag off (the single-run default).
struct Run {
  std::string id;     ///< unique within the campaign; the name of its folder and testcase
  std::string where;  ///< FILE:LINE of the `runs` entry it came from
  std::string model;  ///< preset name, or the config.json path (absolute)
  std::string machine = "default";
  std::string lowering = "pair";
  bool shared = false;
  uint64_t seed = 1;
  uint64_t tokens = 4;
  std::optional<uint64_t> hidden, intermediate;
  uint64_t windows = 1;  ///< > 1 passes --windows (only when `moesim cosim` has it)
  bool reference = false;
  std::string flip_bit;  ///< --flip-bit (a planted fault; empty: none)
  /// A batch of constrained-random programs instead of a MoE layer (a `random` entry): seeds
  /// `seed` .. `seed + random_count - 1` on `machine`, `moesim random --cosim`; 0: a layer.
  uint64_t random_count = 0;
  std::string mix;  ///< the batch's --mix file (absolute; empty: none)

  /// The arguments after the moesim executable: `cosim --machine ... --quiet`, or for a random
  /// batch `random --cosim --machine ... --quiet`.
  std::vector<std::string> cosim_args() const;
};

struct SpecOptions {
  bool windows_supported = false;  ///< `moesim cosim` has --windows
};

/// Reads and expands `path`. Bad input (unreadable file, YAML error, unknown key, a value of the
/// wrong type, an empty cross product, an unknown model or machine preset, two entries giving the
/// same run) throws UsageError "FILE:LINE:COL: ...".
std::vector<Run> load_spec(const std::string& path, const isa::Spec& spec,
                           const SpecOptions& options = {});

/// Shell-quotes one word (single quotes) when it needs it.
std::string shell_quote(const std::string& word);

}  // namespace moesim::campaign
