#include "dma_engine.hpp"

#include <utility>

namespace moesim::golden {

DmaEngine::DmaEngine(sc_core::sc_module_name name, const CycleClock& clock, RecordQueue& records,
                     uint8_t unit_index)
    : sc_module(name), clock_(clock), records_(records), unit_index_(unit_index) {
  SC_THREAD(run);
}

void DmaEngine::push(Transfer t) {
  fifo_.push_back(std::move(t));
  pushed_.notify(sc_core::SC_ZERO_TIME);
}

void DmaEngine::clear() {
  fifo_.clear();
  spans_.clear();
  last_completion_ = 0;
  ++generation_;
  cancel_.notify(sc_core::SC_ZERO_TIME);
}

void DmaEngine::run() {
  for (;;) {
    while (fifo_.empty()) wait(pushed_);
    // The head starts now: in its issue cycle c if the engine was idle (woken by the push), else
    // in the completion cycle of the previous transfer: s = max(c, f_prev).
    const uint64_t generation = generation_;
    const uint64_t start = clock_.now();
    wait(static_cast<double>(fifo_.front().latency) * clock_period(), cancel_);
    if (generation != generation_) continue;  // load() or restore() dropped the queue
    Transfer& t = fifo_.front();
    const Issue is{t.d, static_cast<isa::Opcode>(t.d.opcode), t.regs};
    Effects fx;
    unit->execute(is, fx);  // the TLM-2.0 transactions, in the completion cycle
    isa::RetireRecord rec = std::move(t.rec);
    rec.kind = isa::RecordKind::Transfer;
    rec.ready_cycle = rec.start_cycle = start;  // docs/overlap.md section 6: no stall fields
    rec.stall_cycles = 0;
    rec.stall_cause = isa::StallCause::None;
    rec.end_cycle = clock_.now();
    rec.mems = std::move(fx.mems);
    rec.hbm_read = fx.hbm_read;
    rec.hbm_written = fx.hbm_written;
    isa::normalize(rec);
    last_completion_ = rec.end_cycle;
    fifo_.pop_front();
    spans_.push_back(isa::UnitSpan{unit_index_, rec.start_cycle, rec.end_cycle});
    records_.publish(std::move(rec));
    completed_.notify(sc_core::SC_ZERO_TIME);
  }
}

}  // namespace moesim::golden
