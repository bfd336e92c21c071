// The one engine interface (docs/architecture.md): the golden model (moesim::golden::GoldenModel)
// and the RTL wrapper (moesim::rtl, one implementation per Verilated preset) each implement it
// directly, and the co-simulation harness and comparator see them through it only. Modelled on
// lowRISC Ibex's abstract `Cosim` (dv/cosim/cosim.h), which its Spike wrapper implements: the
// harness steps an engine one retired instruction at a time and inspects architectural state
// through these calls. No SystemC or Verilator type appears here; it lives in isa_spec because
// it is, with the retire record of trace.hpp, what both models share.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "moesim/isa/checkpoint.hpp"
#include "moesim/isa/program.hpp"
#include "moesim/isa/spec.hpp"
#include "moesim/isa/trace.hpp"

namespace moesim::isa {

class Engine {
 public:
  virtual ~Engine() = default;

  /// Short stable name used in reports, VCD scopes and --flip-bit ("golden", "rtl").
  virtual std::string name() const = 0;

  /// Loads `program` (words with their stage codes) and the initial memories; resets registers
  /// (all 0, STRIDE = 1), cycle and retire counters. Bytes of a space not covered by `image`
  /// are 0. Throws std::invalid_argument if the program or an image segment does not fit.
  virtual void load(const Program& program, const MemoryImage& image) = 0;

  /// INSTRUCTION_BUDGET (machine.yaml `runtime`; isa.yaml trap instruction_budget_exceeded) of
  /// the runs after the next load(); until called, the preset's value. Throws
  /// std::invalid_argument if `budget` is 0 or wider than the RTL's port.
  virtual void set_instruction_budget(uint64_t budget) = 0;

  /// DMA_QUEUE (machine.yaml `runtime`, docs/overlap.md) of the runs after the next load() or
  /// restore(); until called, the preset's value (a conformance case's `dma_queue:`). Throws
  /// std::invalid_argument if `depth` is wider than the RTL's port (Spec::checked_dma_queue).
  /// moesim's --dma-queue gives engines and program builder a preset copy instead.
  virtual void set_dma_queue(uint64_t depth) = 0;

  /// HBM_JITTER_SEED (machine.yaml `runtime`, isa.yaml `hbm_jitter`) of the runs after the next
  /// load(); until called, the preset's value (a conformance case's `hbm_jitter:`). 0 is no
  /// jitter. Under jitter save() throws std::logic_error and restore() std::invalid_argument: a
  /// checkpoint holds no transfer number. Throws std::invalid_argument if `seed` is wider than
  /// the RTL's port (Spec::checked_hbm_jitter_seed).
  virtual void set_hbm_jitter(uint64_t seed) = 0;

  /// Advances until the next instruction retires or traps, or (DMA_QUEUE > 0) a transfer
  /// completes, and fills `out` (normalised per normalize; MemWrite::digest left 0, the
  /// comparator computes digests; records in the order of docs/overlap.md section 6). Returns
  /// false, leaving `out` untouched, once the program has halted (pc past the last instruction)
  /// or trapped and no transfer is pending; it then keeps returning false.
  virtual bool step(RetireRecord& out) = 0;

  /// True once step() has returned false for good (halt or trap).
  virtual bool halted() const = 0;

  /// End cycle of the last retired instruction or completion cycle of the last transfer,
  /// whichever is later (0 before the first); in 1 ns machine cycles.
  virtual uint64_t cycles() const = 0;

  /// Instructions retired so far; a trapping instruction is not counted (its record is still
  /// returned by step()).
  virtual uint64_t retired() const = 0;

  /// HBM bytes read / written since load() or restore(), each engine counting its own traffic
  /// (golden: the HBM memory target's bus transactions; RTL: bytes through the HBM DPI-C backing
  /// store). The co-simulation bills each record's own bytes (RetireRecord::hbm_read,
  /// hbm_written) to its stage; these totals are their sums.
  virtual uint64_t hbm_bytes_read() const = 0;
  virtual uint64_t hbm_bytes_written() const = 0;

  /// Current architectural registers.
  virtual ArchRegs regs() const = 0;

  /// Bytes of units [begin, begin + count) of `space`, in the byte image layout of
  /// Space (e.g. one VRAM unit = one row = 2*VLEN bytes). Throws std::out_of_range if the
  /// range leaves the space.
  virtual std::vector<uint8_t> read(Space space, uint64_t begin, uint64_t count) const = 0;

  /// Size of `space` in its unit.
  virtual uint64_t size(Space space) const = 0;

  /// Unit busy intervals of the instructions retired (and, DMA_QUEUE > 0, the transfers
  /// completed) since the previous call, sorted by (begin, unit). A span never crosses an
  /// instruction boundary: each lies within [start_cycle, end_cycle) of one record (a unit busy
  /// for consecutive instructions gives one span per instruction). Golden: the unit that executes
  /// the instruction, for its latency. RTL: the cycles in which the unit's own busy output is
  /// high. With a DMA queue a DMA instruction's issue cycle gives none; its transfer gives the DMA
  /// unit busy over the transfer [s, f) (docs/overlap.md section 10).
  virtual std::vector<UnitSpan> take_unit_spans() = 0;

  /// The architectural state at the current instruction boundary (docs/checkpoints.md): after
  /// load(), restore() or a step() that retired an instruction. Throws std::logic_error after a
  /// trap (a trapped machine has no state to continue from) or before any load().
  virtual ArchState save() const = 0;

  /// Loads `program` (words and stage codes, as load() does) and puts the machine in `state`:
  /// memories, registers, control registers, loop stack, accumulators, pc, retire count, cycle
  /// and instruction budget; the HBM byte counters and the unit busy spans start again from 0.
  /// step() then continues as the run that saved `state` did. Throws std::invalid_argument if
  /// `state` does not fit the machine (isa::check_state_shape) or the program does not fit.
  virtual void restore(const Program& program, const ArchState& state) = 0;
};

}  // namespace moesim::isa
