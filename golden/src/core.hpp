// Core of the golden model: instruction fetch from the loaded program, decode (isa::decode), trap
// checks at issue, dispatch to the units through one sc_port<UnitIf> per unit, the control
// instructions (control registers, loop stack), the register files, and retire. One SC_THREAD
// runs the program; an instruction occupies [start, start + latency) with latency from
// Spec::latency (1 cycle = 1 ns). After each retire or trap the thread publishes a RetireRecord
// and calls sc_core::sc_pause(), so GoldenModel::step() returns one record per sc_start().
#pragma once

#include <array>
#include <optional>
#include <vector>

#include "moesim/isa/checkpoint.hpp"
#include "moesim/isa/program.hpp"
#include "unit.hpp"

namespace moesim::golden {

class Core : public sc_core::sc_module {
 public:
  SC_HAS_PROCESS(Core);
  Core(sc_core::sc_module_name name, const isa::Spec& spec, const isa::MachinePreset& preset,
       const Geometry& g);

  sc_core::sc_port<UnitIf> scalar{"scalar"};
  sc_core::sc_port<UnitIf> vector{"vector"};
  sc_core::sc_port<UnitIf> topk{"topk"};
  sc_core::sc_port<UnitIf> matrix{"matrix"};
  sc_core::sc_port<UnitIf> dma{"dma"};

  /// Resets registers, loop stack, pc, counters and the cycle origin, and installs the program
  /// (the caller has checked its size against IMEM_WORDS). Called between sc_start()s. The
  /// instruction at issue traps with instruction_budget_exceeded once `instruction_budget`
  /// instructions have retired.
  void load(const isa::Program& program, uint64_t instruction_budget);
  /// load(), then puts the core in the checkpoint state `s`: registers, loop stack, pc, retire
  /// count, cycle (the cycle origin moves so that now() continues from s.cycle) and budget.
  void restore(const isa::Program& program, const isa::ArchState& s);
  /// The core's part of a checkpoint: pc, retired, cycle, budget, registers and loop stack.
  /// Throws std::logic_error after a trap.
  void save(isa::ArchState& s) const;
  /// True once the program halted (pc past the end) or trapped.
  bool done() const { return done_; }
  /// The record of the last retired or trapped instruction, once.
  std::optional<isa::RetireRecord> take_record();
  /// Busy spans of the instructions retired since the previous call, in retire order: for each
  /// retired instruction, the unit it was dispatched to (the core itself for control
  /// instructions) for its latency, [start_cycle, end_cycle) in cycles. Traps give none.
  std::vector<isa::UnitSpan> take_unit_spans();
  uint64_t cycles() const { return cycles_; }
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
  /// Decode-level legality: defined opcode, register indices inside their file, and the reserved
  /// field values of isa.yaml (H_* prec != 0 or rstride > 1, V_TOPK rmask not in {0, 1, 15}).
  bool legal(const isa::Decoded& d) const;
  TrapSet check_control(const Issue& is) const;
  /// Executes a control instruction; returns the next pc.
  uint32_t execute_control(const Issue& is, Effects& fx);
  void apply(const isa::RegWrite& w);
  uint64_t now() const;
  void publish(isa::RetireRecord&& r);

  const isa::Spec& spec_;
  const isa::MachinePreset& preset_;
  const Geometry& g_;
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
  sc_core::sc_time origin_;
  uint64_t cycle_base_ = 0;  ///< now() at origin_ (the restored cycle; 0 after load())
  bool trapped_ = false;
  bool done_ = true;
  bool idle_ = true;  ///< the thread waits on start_ (load() must notify it)
  sc_core::sc_event start_;
  std::optional<isa::RetireRecord> record_;
  std::vector<isa::UnitSpan> spans_;
};

}  // namespace moesim::golden
