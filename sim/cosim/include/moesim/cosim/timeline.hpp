// Timeline sinks: consumers of a run as it happens (the stage VCD, the Perfetto/Chrome trace
// JSON). run_cosim() and run_single() feed every sink in CosimOptions::sinks (docs/architecture.md,
// Stages; Engines and co-simulation).
//
// Call order per engine: instruction(e, r_i, w_i), then dma_issue(e, r_i) if r_i queued a DMA
// transfer, then unit_busy() for the spans the engine closed up to r_i
// (Engine::take_unit_spans), then instruction(e, r_{i+1}, ...). A transfer record t (DMA_QUEUE >
// 0, docs/overlap.md section 6) comes as unit_busy() for the spans closed with it (the DMA unit
// busy over the transfer), then transfer(e, t). Times per engine never decrease below the start
// cycle of the latest instruction, or below the issue cycle of the oldest transfer issued and not
// yet passed to transfer(). The two engines are interleaved in lockstep. mismatch() comes at
// most once, finish() exactly once at the end.
#pragma once

#include <cstddef>
#include <cstdint>

#include "moesim/isa/engine.hpp"
#include "moesim/isa/program.hpp"
#include "moesim/isa/trace.hpp"

namespace moesim::cosim {

/// The token / expert pair an instruction works on, resolved at retire (isa::WorkTag with the
/// expert read from the engine's INT SRAM when the tag names a word). -1 = none.
struct WorkItem {
  int32_t token = -1;
  int32_t slot = -1;
  int32_t expert = -1;
};

class TimelineSink {
 public:
  virtual ~TimelineSink() = default;
  /// Engine `engine` (0 = a / golden, 1 = b / rtl) retired or trapped `r` (r.trap set).
  virtual void instruction(size_t engine, const isa::RetireRecord& r, const WorkItem& work) = 0;
  /// Engine `engine`'s unit was busy in [span.begin, span.end).
  virtual void unit_busy(size_t engine, const isa::UnitSpan& span) = 0;
  /// The DMA instruction `r` of engine `engine` (passed to instruction() just before) queued a
  /// transfer: pending from r.start_cycle (its issue cycle) until its transfer(). A sink without
  /// a DMA-queue track ignores it.
  virtual void dma_issue(size_t /*engine*/, const isa::RetireRecord& /*r*/) {}
  /// The transfer record `t` of the oldest transfer issued and not yet passed here (transfers run
  /// in issue order): in progress in [t.start_cycle, t.end_cycle). A sink without a DMA-queue
  /// track ignores it.
  virtual void transfer(size_t /*engine*/, const isa::RetireRecord& /*t*/) {}
  /// First co-simulation divergence, at cycle `cycle`.
  virtual void mismatch(uint64_t cycle) = 0;
  /// End of the run at cycle `end_cycle`. Throws std::runtime_error on a write error.
  virtual void finish(uint64_t end_cycle) = 0;
};

}  // namespace moesim::cosim
