// SystemC TLM-2.0 golden model of the moesim accelerator (docs/architecture.md, Engines and
// co-simulation).
//
// One GoldenModel per process: SystemC allows a single elaboration per process, so a second
// construction throws std::logic_error (also after the first was destroyed). No SystemC type
// appears in this header.
//
// Linking: libsystemc.so defines main() and calls sc_main(). This library does not define
// sc_main, so an executable that links moesim_golden defines `int sc_main(int, char**)` in a
// translation unit that includes <systemc> (which declares it extern "C"; otherwise the link
// fails with "libsystemc.so: undefined reference to `sc_main'") and constructs the GoldenModel
// from there (the moesim CLI does; Boost.Test executables define BOOST_TEST_NO_MAIN and an
// sc_main that calls boost::unit_test::unit_test_main).
//
// Structure (golden/src): a core module (fetch, isa::decode, trap checks at issue, dispatch
// through one sc_port per unit, control instructions and loop stack, register files, retire),
// one module per unit (scalar, vector, top-k, matrix, DMA), and the memories VRAM, MRAM, FP SRAM,
// INT SRAM and HBM as TLM-2.0 targets (b_transport) reached through the units' initiator
// sockets. Timing: 1 cycle = 1 ns; each instruction waits its isa.yaml latency (Spec::latency);
// the core calls sc_pause() after each retire or trap. The library sets
// SYSTEMC_DISABLE_COPYRIGHT_MESSAGE=1 in a static initialiser (unless already set: libsystemc
// prints the banner before sc_main), and the constructor silences SystemC info reports.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "moesim/isa/engine.hpp"
#include "moesim/isa/program.hpp"
#include "moesim/isa/spec.hpp"
#include "moesim/isa/trace.hpp"

namespace moesim::golden {

class GoldenModel final : public isa::Engine {
 public:
  /// Elaborates the design for `preset`; `spec` must outlive the model. Throws std::logic_error
  /// on a second instance or when an isa.yaml instruction has no golden implementation, and
  /// std::invalid_argument for a preset the model cannot implement (VLEN != MLEN, MX_BLOCK not
  /// dividing MLEN).
  GoldenModel(const isa::Spec& spec, const isa::MachinePreset& preset);
  ~GoldenModel() override;
  GoldenModel(const GoldenModel&) = delete;
  GoldenModel& operator=(const GoldenModel&) = delete;

  std::string name() const override { return "golden"; }

  /// Loads the program and initial memories; clears every memory first, resets registers
  /// (STRIDE = 1), the matrix accumulator, the loop stack and the cycle count. May be called
  /// again to run another program. Throws std::invalid_argument (naming the space and byte
  /// offset) if an image segment does not fit its space, if the program is longer than
  /// IMEM_WORDS, or if its stage table is non-empty and of a different length than its words.
  void load(const isa::Program& program, const isa::MemoryImage& image) override;

  /// INSTRUCTION_BUDGET (machine.yaml `runtime`) of the runs after the next load(); until called,
  /// the preset's value. Throws std::invalid_argument if `budget` is 0 or does not fit the RTL's
  /// port (Spec::runtime_max), so both models accept the same budgets.
  void set_instruction_budget(uint64_t budget) override;
  void set_dma_queue(uint64_t depth) override;
  void set_hbm_jitter(uint64_t seed) override;

  /// Runs until the next instruction retires or traps and fills `out` (normalised).
  /// Returns false, leaving `out` untouched, once the program has halted or trapped and (DMA_QUEUE
  /// > 0) every pending transfer has completed; transfer records come in docs/overlap.md's order.
  bool step(isa::RetireRecord& out) override;

  bool halted() const override;  ///< true once step() has returned its last record
  /// The end cycle of the last retired instruction or the completion of the last transfer.
  uint64_t cycles() const override;
  uint64_t retired() const override;  ///< instructions retired so far (a trap is not counted)
  isa::ArchRegs regs() const override;
  /// Bytes of [begin, begin+count) in the space's unit (trace.hpp Space). Throws out_of_range.
  std::vector<uint8_t> read(isa::Space space, uint64_t begin, uint64_t count) const override;
  uint64_t size(isa::Space space) const override;  ///< space size in its unit
  /// HBM bytes read / written by the DMA unit's bus transactions since load(), counted by the
  /// HBM memory target itself.
  uint64_t hbm_bytes_read() const override;
  uint64_t hbm_bytes_written() const override;
  /// Unit busy spans of the instructions retired since the previous call (or load()), sorted by
  /// (begin, unit), in 1 ns cycles: one span per retired instruction, its isa.yaml unit (index
  /// into Spec::units()) busy for [start_cycle, end_cycle) of its record. The core records it
  /// when it dispatches the instruction (control instructions execute in the core itself); a
  /// trapping instruction occupies no cycle and gives none. Call after step() returned the
  /// record (isa::Engine::take_unit_spans).
  std::vector<isa::UnitSpan> take_unit_spans() override;

  /// Checkpoint of the core (pc, counters, registers, loop stack), the matrix unit's
  /// accumulators and the five memories' storage (docs/checkpoints.md). Throws std::logic_error
  /// after a trap or before the first load().
  isa::ArchState save() const override;
  /// Checks the program and `state` against the preset, then restores the memories (their
  /// traffic counters zeroed), the accumulators and the core (Core::restore).
  void restore(const isa::Program& program, const isa::ArchState& state) override;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace moesim::golden
