// Reports of co-simulation and single-engine runs: machine-readable JSON (and the same tree as
// YAML) and console text (docs/architecture.md, Engines and co-simulation). The CLI adds the run's
// context (program, presets, seed, wall time). All cycle figures are machine cycles (1 ns each,
// architecture.md); utilisation is busy cycles / total cycles of that engine (0 when the engine ran
// 0 cycles).
#pragma once

#include <array>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

#include "moesim/cosim/cosim.hpp"
#include "moesim/isa/spec.hpp"
#include "moesim/isa/trace.hpp"

namespace moesim::report {

/// {"kind","index","pc","word","disassembly","stage","ready_cycle","stall_cycles","stall_cause",
///  "start_cycle","end_cycle","regs":[{"reg","value"}],
///  "mems":[{"space","begin","end","digest"}],"trap":null|{"cause","name","pc","word"}}.
nlohmann::json record_json(const isa::Spec& spec, const isa::RetireRecord& r);

/// Busy share of a unit: busy / total, 0 when total is 0.
double utilisation(uint64_t busy_cycles, uint64_t total_cycles);

/// The units of `d`'s space that byte range `bytes` [first, end) touches, as [first, end).
std::pair<uint64_t, uint64_t> unit_range(const cosim::SpaceDiff& d,
                                         const std::pair<uint64_t, uint64_t>& bytes);

/// "EQUAL", "MISMATCH" (outputs or cycles differ) or "STOPPED" (CosimResult::limit_reached).
std::string cosim_verdict(const cosim::CosimResult& r);

/// outputs_bit_exact, cycles_match, profiles_match, completed, instructions, total_cycles
/// {a, b}, retired {a, b}, stages {name: {code, instructions, <a>_cycles, <b>_cycles,
/// <a>_hbm_bytes_read, <b>_hbm_bytes_read, <a>_hbm_bytes_written, <b>_hbm_bytes_written, match}},
/// units {name: {<a>_busy_cycles, <b>_busy_cycles, <a>_spans, <b>_spans, <a>_utilisation,
/// <b>_utilisation, match}} (every isa.yaml unit), first_divergence
/// (null or {decoded {<a>|<b>: null (stopped) or {operands_at_issue: [{operand, reg (null for
/// an immediate), value, decoded}], addresses: [{space, access, what, formula, value (null:
/// not evaluable, see `missing`), text}] (effective_addresses; `machine` may be null), work
/// {token, slot, expert}, cycles [start, end]}},
/// memory_differences: [{space, units [begin, end), differing_bytes, differing_elements,
/// elements: [{unit, byte, element, <a>, <b>}], previous_writer {<a>, <b>: null (initial image)
/// or {index, pc, word, disassembly}}}], index, pc, word, disassembly, stage, fields, details,
/// <a>, <b>, history {a, b}}; the CLI adds `rerun`), trap, final_state_equal,
/// final_state {registers_equal, register_differences: [{reg, <a>, <b>}], outputs (what counts
/// as an output: kOutputsDefinition), memories: {space: {equal, size_bytes, unit_bytes,
/// differing_bytes, size_differs, outputs_equal, unwritten_differing_bytes, first_difference:
/// null|{byte, unit, values, last_writer {<a>, <b>}}, ranges: [{bytes: [first, end), units:
/// [first, end)}], ranges_complete}}}. `ranges` are the first SpaceDiff::kMaxDiffRanges maximal
/// runs of differing bytes; `units` rounds each run out to whole units of the space;
/// ranges_complete is false when more differing bytes lie beyond the listed runs. Engine names are
/// the keys.
nlohmann::json cosim_json(const isa::Spec& spec, const cosim::CosimResult& r,
                          const isa::MachinePreset* machine = nullptr);

/// engine, instructions, total_cycles, stages {name: {code, instructions, cycles,
/// hbm_bytes_read, hbm_bytes_written}},
/// units {name: {busy_cycles, spans, utilisation}}, trap.
nlohmann::json run_json(const isa::Spec& spec, const cosim::RunResult& r);

/// The report tree `j` (cosim_json / run_json plus context) as a YAML document: objects become
/// block maps, arrays block sequences (empty ones `{}` / `[]`), numbers and booleans plain
/// scalars, null `~`, and every string double-quoted so that "0x0000ABCD" or "yes" stays a
/// string for any YAML reader. Throws std::invalid_argument for a binary JSON value or an
/// emitter error.
std::string report_yaml(const nlohmann::json& j);

/// One line: "#index pc N 0xWORD  DISASSEMBLY  [stage] cycles s..e  regs  mems [trap]".
std::string record_line(const isa::Spec& spec, const isa::RetireRecord& r);

/// Stage table with one cycle column per engine in `engines` (1 or 2) and, for 2, a match column.
void print_stage_table(std::ostream& os, const std::vector<cosim::StageRow>& rows,
                       const std::vector<std::string>& engines);

/// Unit table: one row per UnitRow with busy cycles, spans and utilisation (busy / total
/// cycles, in %) per engine in `engines` (1 or 2; total_cycles has one entry per engine) and, for
/// 2, a match column.
void print_unit_table(std::ostream& os, const std::vector<cosim::UnitRow>& rows,
                      const std::vector<std::string>& engines,
                      const std::vector<uint64_t>& total_cycles);

/// What a co-simulation calls its outputs (CosimResult::outputs_bit_exact), as reports state it.
inline constexpr const char* kOutputsDefinition =
    "outputs = the final registers and every memory unit a retire record of either engine wrote; "
    "a difference in a unit no record wrote (an input the program left alone, or a write an "
    "engine did not report) is listed apart and still fails the run";

/// "#12 pc 9 S_ADDI_INT gp1, gp0, 3", or "the initial image (never written)".
std::string writer_text(const isa::Spec& spec, const std::optional<cosim::Writer>& w);
/// "token 0 slot 1 expert 5" ("-" for none).
std::string work_text(const cosim::WorkItem& w);
/// "rd=gp3=4 (0x4), rs1=gp2=0 (0x0), imm=12, STRIDE=1 (0x1)"; "none".
std::string operands_text(const std::vector<cosim::OperandValue>& ops);
/// The first address of one memory range an instruction reads or writes (isa.yaml `accesses`),
/// evaluated on its operands at issue.
struct EffectiveAddress {
  std::string space;             ///< vram, mram, fp_sram, int_sram, hbm
  std::string access;            ///< read, write, read_write
  std::string what;              ///< "first row", "codes of row 0"
  std::string formula;           ///< isa.yaml's formula, e.g. "an + SCALE + rs1 / MX_BLOCK"
  std::optional<int64_t> value;  ///< in the space's address unit; empty: a name had no value
  std::string missing;           ///< the first name without a value (when value is empty)
};
/// The accesses of `word`'s instruction evaluated with `ops` (OperandValue: the register and
/// imm operands and control registers at issue) and the machine parameters of `machine` (may
/// be null: formulas that name a parameter are then left unevaluated). Empty for an undefined
/// opcode or an instruction without memory accesses.
std::vector<EffectiveAddress> effective_addresses(const isa::Spec& spec,
                                                  const isa::MachinePreset* machine, uint32_t word,
                                                  const std::vector<cosim::OperandValue>& ops);
/// "hbm read codes of row 0: 4160 (0x1040) = an + rs1", "vram write first row: 3584 (row 7) =
/// rd" (the row of vram and mram needs `machine`), "vram read token row: ? = rs1 + t * VLEN (no
/// value for t)".
std::string address_text(const EffectiveAddress& a, const isa::MachinePreset* machine);

/// The readable lines of one MemDiff: range and counts, each listed element decoded for both
/// engines, the previous writer of the first differing unit.
std::vector<std::string> mem_diff_lines(const isa::Spec& spec,
                                        const std::array<std::string, 2>& engines,
                                        const cosim::MemDiff& m);

/// The command that re-runs just the failing part of the run `argv` (the full command line,
/// argv[0] first): the same command without its output flags, with --max-instructions just past
/// the divergence, the stage VCD and the RTL FST (`stem`.vcd, `stem`.fst) and --trace-window on
/// the cycles from the oldest history record to the end of the divergent one.
std::string rerun_command(const std::vector<std::string>& argv, const cosim::Divergence& d,
                          const std::string& stem = "divergence");

/// Retires [from, to) of a run: the failing window of a windowed or focused run; no `to`: from
/// `from` to the program's end (with a DMA queue, when no later boundary has an empty queue).
struct RetireRange {
  uint64_t from = 0;
  std::optional<uint64_t> to;
};
/// The one place that builds a re-run command, for every kind of run (the overload above is
/// this with no range). With `range` (windowed or focused runs, docs/checkpoints.md): `argv`
/// without its outputs and window flags, then `--from-retire from --to-retire to` and the stage
/// VCD and RTL FST of just that range; `d` may then be null (an end state that differs).
/// Without `range`: the form above, or "" when `d` is null.
std::string rerun_command(const std::vector<std::string>& argv, const cosim::Divergence* d,
                          const std::optional<RetireRange>& range,
                          const std::string& stem = "divergence");

/// First divergence (both records decoded: cycles, work tags, operand registers with their
/// values at issue; differing written elements decoded with their previous writers; details;
/// `rerun` when non-empty; recent history) and the final-state comparison: differing
/// registers, and per memory space the differing byte count (and how many lie outside the
/// outputs), the first difference with its last writer on each side and the differing byte
/// ranges (in bytes and in the space's units).
/// `machine` (may be null) evaluates the effective addresses (effective_addresses).
void print_cosim_details(std::ostream& os, const isa::Spec& spec, const cosim::CosimResult& r,
                         const std::string& rerun = "",
                         const isa::MachinePreset* machine = nullptr);

}  // namespace moesim::report
