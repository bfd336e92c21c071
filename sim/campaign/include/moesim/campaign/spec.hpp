// A campaign spec (docs/campaigns.md): YAML whose `runs` entries are cross products of run
// parameters, expanded into the list of co-simulation runs, each a `moesim cosim` command line
// (or, from a `random` entry, a `moesim random --cosim` batch of random programs).
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
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

/// The most runs one campaign expands to (a cross product, or the batches of `random` entries,
/// summed over the entries); a spec that gives more is refused before any run is made.
constexpr uint64_t kMaxCampaignRuns = 100000;
/// The longest run id: a run's folder is named by it (NAME_MAX of Linux file systems).
constexpr size_t kMaxRunIdBytes = 255;

struct SpecOptions {
  bool windows_supported = false;  ///< `moesim cosim` has --windows
  uint64_t max_windows = 100000;   ///< the largest --windows `moesim cosim` takes
  /// Checks a `flip_bit` value as `moesim cosim --flip-bit` would on `machine`: returns why it
  /// is refused, or "" (none set: syntax is left to the child).
  std::function<std::string(const std::string& flip_bit, const std::string& machine)>
      check_flip_bit;
};

/// Reads and expands `path`. Bad input (unreadable file, YAML error, unknown key, a value of the
/// wrong type or one `moesim cosim` would refuse, an empty cross product, an unknown model or
/// machine preset, two entries giving the same run, more than kMaxCampaignRuns runs, a run id
/// longer than kMaxRunIdBytes) throws UsageError "FILE:LINE:COL: ...".
std::vector<Run> load_spec(const std::string& path, const isa::Spec& spec,
                           const SpecOptions& options = {});

/// Shell-quotes one word (single quotes) when it needs it.
std::string shell_quote(const std::string& word);

}  // namespace moesim::campaign
