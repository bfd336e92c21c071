// Core of the golden model: instruction fetch from the loaded program, decode (isa::decode), trap
// checks at issue, dispatch to the units through one sc_port<UnitIf> per unit, the control
// instructions (control registers, loop stack), the register files, and retire. One SC_THREAD
// runs the program; an instruction occupies [start, start + latency) with latency from
// Spec::latency (1 cycle = 1 ns). After each retire or trap the thread publishes a RetireRecord
// into the RecordQueue, which pauses the simulation (sc_core::sc_pause()), so GoldenModel::step()
// returns one record per sc_start().
//
// With a DMA queue (DMA_QUEUE = Q > 0, docs/overlap.md) a DMA instruction occupies the core for
// one cycle and hands its transfer to the DMA engine (the `transfers` port); before issuing, the
// core waits on the engine's completed() event while the queue is full (a DMA instruction) or a
// pending transfer's region meets the instruction's footprint (any other): the scoreboard. Once
// the program stops issuing (halt or trap), the core waits for the queue to drain.
#pragma once

#include <algorithm>
#include <array>
#include <optional>
#include <vector>

#include "dma_engine.hpp"
#include "moesim/isa/checkpoint.hpp"
#include "moesim/isa/program.hpp"
#include "unit.hpp"

namespace moesim::golden {

class Core : public sc_core::sc_module {
 public:
  SC_HAS_PROCESS(Core);
  Core(sc_core::sc_module_name name, const isa::Spec& spec, const isa::MachinePreset& preset,
       const Geometry& g, CycleClock& clock, RecordQueue& records);

  sc_core::sc_port<UnitIf> scalar{"scalar"};
  sc_core::sc_port<UnitIf> vector{"vector"};
  sc_core::sc_port<UnitIf> topk{"topk"};
  sc_core::sc_port<UnitIf> matrix{"matrix"};
  sc_core::sc_port<UnitIf> dma{"dma"};
  sc_core::sc_port<DmaQueueIf> transfers{"transfers"};

  /// Resets registers, loop stack, pc, counters and the cycle origin, and installs the program
  /// (the caller has checked its size against IMEM_WORDS). Called between sc_start()s. The
  /// instruction at issue traps with instruction_budget_exceeded once `instruction_budget`
  /// instructions have retired.
  void load(const isa::Program& program, uint64_t instruction_budget);
  /// DMA_QUEUE of the runs that the next load() or restore() starts (the preset's until set).
  void set_queue_depth(uint64_t depth) { queue_depth_ = depth; }
  /// HBM_JITTER_SEED of the runs that the next load() starts (the preset's until set; 0: none).
  void set_hbm_jitter(uint32_t seed) { jitter_seed_ = seed; }
  /// load(), then puts the core in the checkpoint state `s`: registers, loop stack, pc, retire
  /// count, cycle (the cycle origin moves so that now() continues from s.cycle) and budget.
  void restore(const isa::Program& program, const isa::ArchState& s);
  /// The core's part of a checkpoint: pc, retired, cycle, budget, registers and loop stack.
  /// Throws std::logic_error after a trap, while a transfer is pending or under HBM jitter (a
  /// checkpoint holds no transfer number, isa.yaml `hbm_jitter`).
  void save(isa::ArchState& s) const;
  /// True once the program halted (pc past the end) or trapped and no transfer is pending.
  bool done() const { return done_; }
  /// Busy spans of the instructions retired since the previous call, in retire order: for each
  /// retired instruction, the unit it was dispatched to (the core itself for control
  /// instructions) for its latency, [start_cycle, end_cycle) in cycles. Traps give none, nor does
  /// a DMA instruction with a DMA queue (its transfer's span is the DMA engine's).
  std::vector<isa::UnitSpan> take_unit_spans();
  /// The last cycle anything was busy: the end of the last retired instruction or the
  /// completion of the last transfer, whichever is later.
  uint64_t cycles() const { return std::max(cycles_, transfers->last_completion()); }
  uint64_t retired() const { return retired_; }
  const isa::ArchRegs& regs() const { return regs_; }

 private:
  /// Per opcode: spec entry, executing unit (nullptr for control) and its index in isa.yaml
  /// `units`, and trap codes in isa.yaml's listed order (the first one found is raised).
  struct OpEntry {
    const isa::InstrSpec* spec = nullptr;
    sc_core::sc_port<UnitIf>* unit = nullptr;
    uint8_t unit_index = 0;
    std::vector<uint8_t> trap_order;
    std::optional<int64_t> static_latency;  ///< when the formula uses no latency_vars
  };

  void end_of_elaboration() override;
  void run();
  void issue();
  /// Q > 0: waits until the instruction `is` with footprint `found` (TrapSet::cover) has no
  /// hazard (docs/overlap.md section 3) and fills the record's stall fields. False if a load()
  /// cancelled the wait.
  bool wait_for_issue(const TrapSet& found, bool dma_instruction, isa::RetireRecord& rec);
  /// Q > 0: waits `cycles` cycles, then one delta cycle (so that the transfers completing in the
  /// end cycle publish first). False if a load() cancelled the wait.
  bool occupy(uint64_t cycles);
  /// Decode-level legality: defined opcode, register indices inside their file, and the reserved
  /// field values of isa.yaml (H_* prec != 0 or rstride > 1, V_TOPK rmask not in {0, 1, 15}).
  bool legal(const isa::Decoded& d) const;
  TrapSet check_control(const Issue& is) const;
  /// Executes a control instruction; returns the next pc.
  uint32_t execute_control(const Issue& is, Effects& fx);
  void apply(const isa::RegWrite& w);
  uint64_t now() const { return clock_.now(); }

  const isa::Spec& spec_;
  const isa::MachinePreset& preset_;
  const Geometry& g_;
  CycleClock& clock_;
  RecordQueue& records_;
  uint64_t queue_depth_;          ///< DMA_QUEUE
  uint32_t jitter_seed_ = 0;      ///< HBM_JITTER_SEED (0: no jitter)
  uint32_t jitter_max_;           ///< HBM_JITTER_MAX
  uint32_t transfer_number_ = 0;  ///< DMA instructions issued since load(), modulo 2^32
  std::array<OpEntry, 64> ops_;

  std::vector<isa::Decoded> program_;
  std::vector<uint8_t> stages_;
  isa::ArchRegs regs_;
  /// An active loop: body start pc, and whether C_BREAK marked it (its C_LOOP_END exits).
  struct Loop {
    uint32_t body;
    bool broken;
  };
  std::vector<Loop> loops_;  ///< active loops, innermost last
  uint32_t pc_ = 0;
  uint64_t retired_ = 0;
  uint64_t budget_ = 0;  ///< INSTRUCTION_BUDGET of this run
  uint64_t cycles_ = 0;
  bool trapped_ = false;
  bool stopped_ = true;  ///< no more issue: halted or trapped (transfers may be pending)
  bool done_ = true;
  bool idle_ = true;         ///< the thread waits on start_ (load() must notify it)
  uint64_t generation_ = 0;  ///< counts load()s: a wait of an older program returns early
  sc_core::sc_event start_, cancel_;
  std::vector<isa::UnitSpan> spans_;
};

}  // namespace moesim::golden
