// Stage profile of one engine's run (docs/architecture.md, Stages; the shape follows PLENA's
// stage profile, docs/sources.md, Timing and the stage profile): per stage of isa_spec/stages.yaml
// the retired instructions, the cycles billed to it (a cycle goes to the stage of the instruction
// occupying the machine), its fraction of the run's cycles and of its instructions, and the HBM
// bytes the engine itself reported reading and writing while the stage's instructions executed
// (Engine::hbm_bytes_read/written). Each stage's `group` key in stages.yaml (routed, shared or
// plumbing) puts every stage in exactly one group of the shared / routed / plumbing split.
//
// `moesim cosim --profile F` writes both engines' profiles; they must be equal (a difference is a
// co-simulation failure, CosimResult::profiles_match). `moesim run --profile F` writes one.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <ostream>
#include <string>
#include <vector>

#include "moesim/cosim/cosim.hpp"
#include "moesim/isa/spec.hpp"

namespace moesim::report {

/// The caveat every profile carries: how the routed path is lowered weighs as much as the
/// hardware in a shared-vs-routed ratio.
extern const char* const kSharedVsRoutedNote;

struct ProfileRow {
  std::string name;   ///< stage name, or "stageN" for a code stages.yaml does not define
  std::string group;  ///< stages.yaml group; "unclassified" for an undefined code
  uint8_t code = 0;
  uint64_t instructions = 0, cycles = 0, hbm_read = 0, hbm_written = 0;
  double time_fraction = 0;         ///< cycles / total cycles (0 for an empty run)
  double instruction_fraction = 0;  ///< instructions / total instructions
};

struct StageProfile {
  std::string engine;
  /// Every stage of stages.yaml in its order (zero rows included), then any code the engine
  /// reported that stages.yaml does not define (a broken engine; group "unclassified").
  std::vector<ProfileRow> stages;
  /// One row per group, in first-appearance order of stages.yaml (name = group name): the sums
  /// of its stages.
  std::vector<ProfileRow> groups;
  ProfileRow total;  ///< sums over every stage (name "total")
  /// shared cycles / routed cycles; 0 when either is 0.
  double shared_vs_routed_cycles = 0;
};

/// Profile of engine `side` (0 = a, 1 = b) of a stage table (CosimResult::stages or
/// RunResult::stages).
StageProfile make_profile(const isa::Spec& spec, const std::vector<cosim::StageRow>& rows,
                          size_t side, const std::string& engine);

/// The differences between two profiles, one readable line each ("expert_projection: cycles
/// golden 100, rtl 104"); empty when equal (engine names are not compared).
std::vector<std::string> profile_differences(const StageProfile& a, const StageProfile& b);

/// {"engine", "total": {...}, "stages": {name: {code, group, instructions, cycles,
/// time_fraction, instruction_fraction, hbm_bytes_read, hbm_bytes_written}}, "groups": {name:
/// {...}}, "shared_vs_routed_cycles", "note"}.
nlohmann::json profile_json(const StageProfile& p);

/// Console table: one line per stage that ran, then the group split and the note.
void print_profile(std::ostream& os, const StageProfile& p);

}  // namespace moesim::report
