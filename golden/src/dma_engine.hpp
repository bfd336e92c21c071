// The DMA engine of a machine with a DMA queue (machine.yaml DMA_QUEUE > 0, docs/overlap.md): its
// own SC_THREAD that runs the queued transfers of H_PREFETCH_M / H_PREFETCH_V / H_STORE_V one at a
// time in issue order (FIFO). A transfer issued in cycle c starts in s = max(c, completion of the
// previous one), is in progress for the instruction's isa.yaml latency L and completes in f = s +
// L; at f the engine moves its data through the DMA unit's TLM-2.0 sockets (the unit's execute()
// with the operands taken at issue), reports the DMA unit busy over [s, f) (take_spans()),
// publishes its transfer record and notifies completed(). The
// core blocks on completed() while its next instruction has a hazard (the scoreboard: the regions
// of the pending transfers) or the queue is full.
#pragma once

#include <deque>
#include <utility>
#include <vector>

#include "unit.hpp"

namespace moesim::golden {

/// One queued transfer: the DMA instruction and its operands at issue, its latency, its record
/// (kind transfer: index, pc, word and stage of the instruction; cycles and memory filled in at
/// completion) and its region: the rows it writes (prefetch) or reads (H_STORE_V).
struct Transfer {
  isa::Decoded d;
  isa::ArchRegs regs;
  uint64_t latency = 0;
  isa::RetireRecord rec;
  RowRange region;
};

/// The DMA queue as the core sees it.
class DmaQueueIf : public virtual sc_core::sc_interface {
 public:
  /// Transfers issued and not yet completed (the one in progress included).
  virtual size_t pending() const = 0;
  /// The region of the i-th oldest pending transfer (i < pending()).
  virtual const RowRange& region(size_t i) const = 0;
  /// Queues a transfer in the current cycle (its issue cycle).
  virtual void push(Transfer t) = 0;
  /// Notified (delta) in each cycle a transfer completed, after its record is published.
  virtual const sc_core::sc_event& completed() const = 0;
  /// Completion cycle of the last completed transfer (0 if none since the last clear()).
  virtual uint64_t last_completion() const = 0;
  /// Drops every pending transfer (load, restore): one in progress never completes.
  virtual void clear() = 0;
};

class DmaEngine : public sc_core::sc_module, public DmaQueueIf {
 public:
  SC_HAS_PROCESS(DmaEngine);
  /// `unit_index`: the DMA unit's index in isa.yaml `units` (its busy spans).
  DmaEngine(sc_core::sc_module_name name, const CycleClock& clock, RecordQueue& records,
            uint8_t unit_index);

  /// The DMA unit that executes a transfer's data movement.
  sc_core::sc_port<UnitIf> unit{"unit"};

  size_t pending() const override { return fifo_.size(); }
  const RowRange& region(size_t i) const override { return fifo_[i].region; }
  void push(Transfer t) override;
  const sc_core::sc_event& completed() const override { return completed_; }
  uint64_t last_completion() const override { return last_completion_; }
  void clear() override;
  /// The DMA unit's busy spans of the transfers completed since the previous call: [s, f) each.
  std::vector<isa::UnitSpan> take_spans() { return std::exchange(spans_, {}); }

 private:
  void run();

  const CycleClock& clock_;
  RecordQueue& records_;
  uint8_t unit_index_;
  std::deque<Transfer> fifo_;
  std::vector<isa::UnitSpan> spans_;
  uint64_t last_completion_ = 0;
  uint64_t generation_ = 0;  ///< counts clear()s: a transfer of an older one is dropped
  sc_core::sc_event pushed_, completed_, cancel_;
};

}  // namespace moesim::golden
