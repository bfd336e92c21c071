// Reports of co-simulation and single-engine runs: machine-readable JSON and console text
// (DESIGN.md §6). The CLI adds the run's context (program, presets, seed, wall time).
#pragma once

#include <nlohmann/json.hpp>
#include <ostream>
#include <string>
#include <vector>

#include "moesim/isa/spec.hpp"
#include "moesim/isa/trace.hpp"
#include "moesim/sim/cosim.hpp"

namespace moesim::sim {

/// {"index","pc","word","disassembly","stage","start_cycle","end_cycle","regs":[{"reg","value"}],
///  "mems":[{"space","begin","end","digest"}],"trap":null|{"cause","name","pc","word"}}.
nlohmann::json record_json(const isa::Spec& spec, const isa::RetireRecord& r);

/// outputs_bit_exact, cycles_match, completed, instructions, total_cycles {a, b},
/// retired {a, b}, stages {name: {instructions, <a>_cycles, <b>_cycles}}, first_divergence
/// (null or {index, pc, word, disassembly, stage, fields, details, <a>, <b>, history {a, b}}),
/// trap, final_state {registers: [...], memories: {space: {...}}}. Engine names are the keys.
nlohmann::json cosim_json(const isa::Spec& spec, const CosimResult& r);

/// instructions, total_cycles, stages {name: {instructions, cycles}}, trap.
nlohmann::json run_json(const isa::Spec& spec, const RunResult& r);

/// One line: "#index pc N 0xWORD  DISASSEMBLY  [stage] cycles s..e  regs  mems [trap]".
std::string record_line(const isa::Spec& spec, const isa::RetireRecord& r);

/// Stage table with one cycle column per engine in `engines` (1 or 2) and, for 2, a match column.
void print_stage_table(std::ostream& os, const std::vector<StageRow>& rows,
                       const std::vector<std::string>& engines);

/// First divergence (both records, details, recent history) and the final-state comparison.
void print_cosim_details(std::ostream& os, const isa::Spec& spec, const CosimResult& r);

}  // namespace moesim::sim
