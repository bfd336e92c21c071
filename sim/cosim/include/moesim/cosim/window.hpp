// Windowed co-simulation (docs/checkpoints.md): a run cut at instruction boundaries into windows
// that co-simulate from golden checkpoints, each in its own process, and the merge of their
// results into the result of one run.
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "moesim/cosim/cosim.hpp"
#include "moesim/isa/engine.hpp"
#include "moesim/isa/spec.hpp"

namespace moesim::cosim {

/// An engine that ends (step() returns false, halted() true) once `stop_at` instructions have
/// retired: the end of a window. Everything else is the wrapped engine's.
///
/// It also keeps the registers as the retire records left them, starting from the wrapped
/// engine's registers when it is made (a window's restored start, not reset), and the values
/// the last retired instruction's operands held at issue. run_cosim replays registers from
/// reset (Divergence::operands); operands_at_issue() corrects that for a window that starts
/// later.
class StopAt final : public isa::Engine {
 public:
  StopAt(isa::Engine& inner, uint64_t stop_at);
  std::string name() const override { return inner_.name(); }
  void load(const isa::Program& p, const isa::MemoryImage& i) override { inner_.load(p, i); }
  void set_instruction_budget(uint64_t b) override { inner_.set_instruction_budget(b); }
  void set_dma_queue(uint64_t q) override { inner_.set_dma_queue(q); }
  void set_hbm_jitter(uint64_t s) override { inner_.set_hbm_jitter(s); }
  bool step(isa::RetireRecord& out) override;
  bool halted() const override { return inner_.retired() >= stop_at_ || inner_.halted(); }
  uint64_t cycles() const override { return inner_.cycles(); }
  uint64_t retired() const override { return inner_.retired(); }
  uint64_t hbm_bytes_read() const override { return inner_.hbm_bytes_read(); }
  uint64_t hbm_bytes_written() const override { return inner_.hbm_bytes_written(); }
  isa::ArchRegs regs() const override { return inner_.regs(); }
  std::vector<uint8_t> read(isa::Space s, uint64_t b, uint64_t n) const override {
    return inner_.read(s, b, n);
  }
  uint64_t size(isa::Space s) const override { return inner_.size(s); }
  std::vector<isa::UnitSpan> take_unit_spans() override { return inner_.take_unit_spans(); }
  isa::ArchState save() const override { return inner_.save(); }
  void restore(const isa::Program& p, const isa::ArchState& s) override;

  /// Register `reg` (reg_name()) as it was when the last retired instruction issued.
  uint64_t at_issue(const std::string& reg) const;

 private:
  void seed();
  isa::Engine& inner_;
  uint64_t stop_at_;
  std::map<std::string, uint64_t> regs_;  ///< by reg_name(), as the records left them
  std::map<std::string, uint64_t> last_;  ///< before the last record: registers it wrote
};

/// Sets the values of the register operands of `d` (Divergence::operands) to what they held at
/// issue in each engine, from the window engines that ran it (`e[0]` engine a, `e[1]` b).
void operands_at_issue(Divergence& d, const std::array<const StopAt*, 2>& e);

/// Window boundaries of a run of `total` retires cut into `windows` (>= 1) windows of even
/// size: b_0 = 0 < b_1 < ... < b_n = total, b_k = floor(k * total / windows), equal
/// boundaries dropped (fewer windows than asked when total < windows; one window [0, 0] when
/// total is 0).
std::vector<uint64_t> window_bounds(uint64_t total, unsigned windows);

/// Window boundaries of a run with a DMA queue (docs/overlap.md section 8): those of
/// window_bounds(total, windows), each inner boundary moved to the first boundary at or after it
/// where `queue_empty[b]` holds (no transfer pending when the record of retire b is returned),
/// the last one (`total`, saved once the queue has drained) kept; equal boundaries dropped.
/// `queue_empty` has total + 1 entries (QueueWatch over the golden model's records).
std::vector<uint64_t> window_bounds(uint64_t total, unsigned windows,
                                    const std::vector<bool>& queue_empty);

/// The DMA transfers pending in an engine's record stream (docs/overlap.md sections 6 and 8): a
/// retire record of a DMA instruction (isa.yaml unit `dma`) that did not trap, on a machine with
/// a DMA queue, issues one; a transfer record completes one. A checkpoint is taken only where
/// pending() is 0.
class QueueWatch {
 public:
  QueueWatch(const isa::Spec& spec, const isa::MachinePreset& preset);
  void add(const isa::RetireRecord& r);
  uint64_t pending() const { return pending_; }
  /// The machine has a DMA queue (DMA_QUEUE > 0).
  bool queued() const { return queued_; }

 private:
  const isa::Spec& spec_;
  bool queued_;
  uint64_t pending_ = 0;
};

/// What one window process reports: its co-simulation result (retire indices in records are
/// global, Divergence::index is counted from the window's start) and the differences between
/// each engine's end state and the next checkpoint ("golden: ...", "rtl: ..."; empty = equal).
struct WindowResult {
  uint64_t from = 0, to = 0;  ///< retires [from, to)
  CosimResult result;
  std::vector<std::string> end_state;
  double wall_time_s = 0;
  bool equal() const { return result.equal() && end_state.empty(); }
};

/// JSON text of a window result and back (the files window processes write). Throws
/// std::runtime_error naming `name` for a malformed document.
std::string window_result_json(const WindowResult& w);
WindowResult parse_window_result(const std::string& text, const std::string& name);

/// The result of one run from the results of its windows, in order: stage rows and unit busy
/// totals summed, instructions compared summed, the first window that diverged, stopped early or
/// did not complete ends the merge (its divergence index made global by adding its start), and
/// the final totals, registers and memories are those of the last merged window. `last` gets
/// the index of that window.
CosimResult merge_windows(const isa::Spec& spec, const std::vector<WindowResult>& windows,
                          size_t& last);

}  // namespace moesim::cosim
