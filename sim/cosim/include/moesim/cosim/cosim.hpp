// Lockstep co-simulation harness and comparator (docs/architecture.md, Engines and co-simulation).
//
// run_cosim() steps two loaded engines (a = reference, normally the golden model; b = the
// design, normally the RTL) one retired instruction at a time. After each retire it computes
// the FNV-1a digest of every memory range a record names from that engine's own memory
// (isa::MemWrite::digest) and compares the two records field by field: kind, index, pc, word,
// stage, ready_cycle, stall_cycles, stall_cause, start_cycle, end_cycle, register writes,
// memory write ranges + digests, trap. The HBM bytes each engine attributes to a record
// (hbm_read, hbm_written) are compared too, but a difference there does not stop the run: the
// first one is kept (HbmDifference) and the stage profiles do not match. The first
// difference stops the run and is reported with both records, the differing fields (with the
// first differing byte of a memory range) and the last N retired records of each engine. At the
// end (or at the stop) it compares all architectural registers and every memory space byte for
// byte, and builds the per-stage cycle table (docs/overlap.md section 7: a cycle is billed to the
// stage of the instruction occupying the core, else to that of the transfer in progress; with
// DMA_QUEUE 0 the sum over records of end_cycle - start_cycle), with each stage's hidden and stall
// cycles.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "moesim/cosim/timeline.hpp"
#include "moesim/isa/engine.hpp"
#include "moesim/isa/program.hpp"
#include "moesim/isa/spec.hpp"
#include "moesim/isa/trace.hpp"

namespace moesim::cosim {

/// One row of the per-stage table. Index [0] is engine a (golden), [1] engine b (rtl). The cycles
/// are billed as docs/overlap.md section 7 says, from each engine's own records: a cycle to the
/// instruction occupying the core, else to the transfer in progress; with DMA_QUEUE 0 the sum of
/// the stage's instructions' latencies.
struct StageRow {
  uint8_t code = 0;
  std::string name;
  std::array<uint64_t, 2> instructions{};
  std::array<uint64_t, 2> cycles{};
  /// Cycles of the stage's transfers in which the core was occupied by another instruction.
  std::array<uint64_t, 2> hidden_cycles{};
  /// Stall cycles of the stage's instructions, and split by cause (isa.yaml `stall_causes`, code c
  /// at [c - 1]: queue_full, raw, waw, war).
  std::array<uint64_t, 2> stall_cycles{};
  std::array<std::array<uint64_t, 2>, isa::kNumStallCauses> stall_by_cause{};
  /// HBM bytes each engine attributed to this stage's records (isa::RetireRecord::hbm_read,
  /// hbm_written: a DMA instruction's, or with a DMA queue its transfer's).
  std::array<uint64_t, 2> hbm_read{};
  std::array<uint64_t, 2> hbm_written{};
  bool match() const {
    return instructions[0] == instructions[1] && cycles[0] == cycles[1] &&
           hidden_cycles[0] == hidden_cycles[1] && stall_cycles[0] == stall_cycles[1] &&
           std::all_of(stall_by_cause.begin(), stall_by_cause.end(),
                       [](const std::array<uint64_t, 2>& c) { return c[0] == c[1]; });
  }
  /// Any hidden or stall cycle on either engine (a run with a DMA queue).
  bool overlapped() const {
    return hidden_cycles[0] + hidden_cycles[1] + stall_cycles[0] + stall_cycles[1] != 0;
  }
  bool hbm_match() const { return hbm_read[0] == hbm_read[1] && hbm_written[0] == hbm_written[1]; }
};

/// Busy cycles of one functional unit (isa.yaml `units`), [0] engine a, [1] engine b.
struct UnitRow {
  std::string name;
  std::array<uint64_t, 2> busy_cycles{};
  std::array<uint64_t, 2> spans{};  ///< busy spans (isa::Engine::take_unit_spans)
  bool match() const { return busy_cycles[0] == busy_cycles[1] && spans[0] == spans[1]; }
};

/// The retired instruction that last wrote a memory location (from the retire records' `mems`).
struct Writer {
  uint64_t index = 0;  ///< retire index
  uint32_t pc = 0;
  uint32_t word = 0;
};

/// One operand of an instruction with the value its register held when the instruction issued
/// (each engine's own register writes replayed from reset; values of the implicit control
/// registers the isa.yaml semantics name, e.g. STRIDE, SCALE, are listed too).
struct OperandValue {
  std::string operand;  ///< isa.yaml operand name ("rd", "rs1", "an"), or the control register
  std::string reg;      ///< register name ("gp3", "a1", "STRIDE"); empty for an immediate
  uint64_t value = 0;   ///< register value at issue, or the immediate
};

/// One differing element of a memory range the divergent instruction wrote, decoded in its
/// space's type (isa::element_value): [0] engine a, [1] engine b.
struct ElementDiff {
  uint64_t unit = 0;    ///< unit (row, word, byte) of the space
  uint64_t byte = 0;    ///< first byte of the element within its unit
  std::string element;  ///< isa::element_name ("element 5", "code 3", "scale 1"; "" for one)
  std::array<std::string, 2> values;
};

/// A memory range written by the divergent instruction whose bytes differ between the engines.
struct MemDiff {
  isa::Space space = isa::Space::Vram;
  uint64_t begin = 0, end = 0;  ///< units [begin, end) compared
  uint64_t differing_bytes = 0;
  uint64_t differing_elements = 0;
  std::vector<ElementDiff> elements;  ///< the first kMaxElements differing elements, in order
  /// The instruction that wrote the first differing unit before the divergent one, per engine;
  /// empty: the initial image (never written before).
  std::array<std::optional<Writer>, 2> previous_writer;
  static constexpr size_t kMaxElements = 8;
};

struct Divergence {
  /// Retire index of the first differing record (a transfer record's: its DMA instruction's).
  uint64_t index = 0;
  /// Retire records before it: a run stopped after reach + 1 retires includes it. Equal to index
  /// for a retire record; with a DMA queue a transfer record comes after later retires.
  uint64_t reach = 0;
  std::vector<std::string> fields;   ///< e.g. {"mems"}; "retired" if one engine stopped early
  std::vector<std::string> details;  ///< one readable line per difference
  std::array<std::optional<isa::RetireRecord>, 2> records;  ///< absent: that engine had stopped
  std::array<std::vector<isa::RetireRecord>, 2> history;    ///< last N before it, oldest first
  /// Register operands of each engine's divergent instruction with their values at issue, then
  /// its immediates, then the control registers its semantics read (empty: no record).
  std::array<std::vector<OperandValue>, 2> operands;
  std::array<WorkItem, 2> work;    ///< token / slot / expert of each record (CosimOptions::work)
  std::vector<MemDiff> mem_diffs;  ///< written ranges whose bytes differ, decoded
};

/// Byte-for-byte comparison of one memory space at the end.
struct SpaceDiff {
  isa::Space space = isa::Space::Vram;
  uint64_t unit_bytes = 1;
  uint64_t size_bytes = 0;    ///< compared bytes (min of the two sizes)
  bool size_differs = false;  ///< the engines report different sizes
  uint64_t differing_bytes = 0;
  std::optional<uint64_t> first_byte;  ///< byte offset of the first difference
  std::array<uint8_t, 2> first_values{};
  /// The first kMaxDiffRanges maximal runs of differing bytes, as byte ranges [first, second).
  std::vector<std::pair<uint64_t, uint64_t>> ranges;
  static constexpr size_t kMaxDiffRanges = 16;
  /// Of differing_bytes, those in units that no retire record of either engine wrote: initial
  /// contents the program left alone (e.g. a --flip-bit into data it never reads) or writes an
  /// engine did not report. They are not outputs (CosimResult::outputs_bit_exact).
  uint64_t unwritten_differing_bytes = 0;
  /// Writer of the first differing byte in each engine; empty: never written (initial image).
  std::array<std::optional<Writer>, 2> first_writer;
  bool equal() const { return !size_differs && differing_bytes == 0; }
  /// No difference in a unit the program wrote (and equal sizes).
  bool outputs_equal() const {
    return !size_differs && differing_bytes == unwritten_differing_bytes;
  }
};

struct RegDiff {
  std::string name;  ///< e.g. "gp4", "f2", "a1", "STRIDE"
  std::array<uint64_t, 2> values{};
};

/// The first record whose HBM bytes (isa::RetireRecord::hbm_read, hbm_written) differ between the
/// engines while every other field is equal: [0] engine a, [1] engine b.
struct HbmDifference {
  isa::RetireRecord record;  ///< engine a's record
  std::array<uint64_t, 2> read{};
  std::array<uint64_t, 2> written{};
};

struct CosimResult {
  std::array<std::string, 2> engines;
  bool completed = false;      ///< both engines stopped (halt or trap) with no divergence
  bool limit_reached = false;  ///< stopped at CosimOptions::max_instructions
  uint64_t compared = 0;       ///< instructions (retire records) compared equal
  std::optional<Divergence> divergence;
  std::optional<isa::Trap> trap;  ///< the trap both engines agreed on, if the program trapped
  std::optional<HbmDifference> hbm_difference;  ///< the first, if any (not a divergence)
  std::vector<StageRow> stages;  ///< stages with at least one instruction, in stages.yaml order
  std::vector<UnitRow> units;    ///< every unit of isa.yaml, in its order
  std::array<uint64_t, 2> total_cycles{};
  std::array<uint64_t, 2> retired{};
  std::vector<RegDiff> reg_diffs;
  std::vector<SpaceDiff> spaces;  ///< one per isa::kAllSpaces

  /// The outputs are bit-exact: every record's data fields matched to the end, the final
  /// registers are equal and so is every memory unit a retire record of either engine wrote.
  /// The outputs are what the program writes (registers and the written memory); a final
  /// difference only in units no record wrote is not an output difference (see
  /// final_state_equal and SpaceDiff::unwritten_differing_bytes).
  bool outputs_bit_exact() const;
  /// Every final register and memory byte is equal, written or not.
  bool final_state_equal() const;
  /// The run completed with equal cycle fields in every record, equal totals, stage rows and
  /// unit busy cycles.
  bool cycles_match() const;
  /// The run completed and both engines' stage profiles (profile.hpp) are equal: per stage
  /// instructions, cycles and HBM bytes read and written; and no record's HBM bytes differ.
  bool profiles_match() const;
  bool equal() const {
    return outputs_bit_exact() && final_state_equal() && cycles_match() && profiles_match();
  }
};

struct CosimOptions {
  size_t history = 8;  ///< retired records kept per engine for the report
  /// Receive the timeline (engine index 0 = a, 1 = b; run_single uses 0). Not owned.
  std::vector<TimelineSink*> sinks;
  /// Work tags per pc (isa::Program::work) for the sinks; empty = none.
  std::vector<isa::WorkTag> work;
  /// Called every `progress_every` retired instructions with (retired, cycles of engine a).
  std::function<void(uint64_t, uint64_t)> progress;
  uint64_t progress_every = 4096;
  /// Stop (limit_reached) once this many instructions retired without the program ending;
  /// 0 = no limit. Guards against programs that loop for hours in the RTL.
  uint64_t max_instructions = 0;
  /// MLEN of the machine, to name and decode MRAM bytes (E4M3 codes, then E8M0 scales); 0: every
  /// MRAM byte is taken as a code.
  uint64_t mlen = 0;
};

/// Runs two loaded engines in lockstep (see the file comment). Engine exceptions propagate.
/// A loop over Lockstep::next(), then Lockstep::finish().
CosimResult run_cosim(const isa::Spec& spec, isa::Engine& a, isa::Engine& b,
                      const CosimOptions& options);

/// run_cosim one pair of records at a time, for a caller that looks at each pair as it comes
/// (the Python module's lockstep iterator). `a`, `b` and `options` must outlive it.
class Lockstep {
 public:
  Lockstep(const isa::Spec& spec, isa::Engine& a, isa::Engine& b, const CosimOptions& options);
  ~Lockstep();
  Lockstep(const Lockstep&) = delete;
  Lockstep& operator=(const Lockstep&) = delete;

  /// Steps both engines once and compares their records as run_cosim does. Returns false,
  /// with no records, once both engines have stopped, and from then on; after a divergence or
  /// at CosimOptions::max_instructions the pair that ends the run is returned (true), and the
  /// next call returns false.
  bool next();
  /// The records of the last next() that returned true, [0] engine a, [1] engine b (nullptr:
  /// that engine had stopped); valid until the next call.
  const std::array<const isa::RetireRecord*, 2>& records() const;
  /// The fields in which they differ (differing_fields; {"retired"} when one had stopped);
  /// empty when equal.
  const std::vector<std::string>& fields() const;
  /// The run has ended (next() returns false from now on).
  bool done() const;
  /// Compares the final state of the engines where they are (an unfinished run: as far as it
  /// went) and returns the result. Call once.
  CosimResult finish();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

/// Result of running one engine alone (moesim run).
struct RunResult {
  std::string engine;
  std::vector<StageRow> stages;  ///< index [0] only
  std::vector<UnitRow> units;    ///< index [0] only
  uint64_t total_cycles = 0;
  uint64_t retired = 0;
  std::optional<isa::Trap> trap;
  bool limit_reached = false;  ///< stopped at CosimOptions::max_instructions
};

/// Runs one loaded engine to its end, feeding the sinks as engine 0.
RunResult run_single(const isa::Spec& spec, isa::Engine& engine, const CosimOptions& options);

/// Register name for reports: gpN, fN, aN, SCALE, STRIDE, V_MASK, TOPK_POLICY.
std::string reg_name(isa::RegFile file, uint8_t index);

/// Every architectural register of `r` by reg_name() (gp0..gp15, f0..f7, a0..a7, SCALE,
/// STRIDE, V_MASK, TOPK_POLICY), then TOPK_VALID, in that order.
std::vector<std::pair<std::string, uint64_t>> named_registers(const isa::ArchRegs& r);

/// Fills every MemWrite::digest of `r` from `engine`'s memory (FNV-1a 64 of the range's bytes).
void fill_digests(const isa::Engine& engine, isa::RetireRecord& r);

/// Names of the fields in which `a` and `b` differ (digests must be filled).
std::vector<std::string> differing_fields(const isa::RetireRecord& a, const isa::RetireRecord& b);

}  // namespace moesim::cosim
