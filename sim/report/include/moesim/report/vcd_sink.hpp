// The stage-timeline VCD as a timeline sink (waveforms::VcdWriter fed by run_cosim/run_single).
#pragma once

#include <array>
#include <filesystem>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "moesim/cosim/timeline.hpp"
#include "moesim/isa/spec.hpp"
#include "moesim/waveforms/vcd.hpp"

namespace moesim::report {

/// Writes `path` with one scope per engine name in `scopes` (engine index = scope index) and,
/// beside it, the stage translate filter (waveforms::stage_filter_path) and a GTKWave save file
/// (waveforms::gtkw_path) laying out every signal. Records map to signals as: stage and
/// stage_code from r.stage (stages.yaml), pc, mnemonic from the spec by the word's opcode
/// (`undefined` for an unknown opcode), token/slot/expert from the WorkItem, `<unit>_busy` per
/// isa.yaml unit from unit_busy spans, trap/trap_cause (isa.yaml trap name, or `trap<code>`)
/// at the start cycle of a record with r.trap set. Times are cycles (1 ns in the VCD).
/// With `dma_queue` (the run's DMA_QUEUE > 0) every scope also has the DMA-queue track
/// (waveforms::VcdWriter; docs/waveforms.md): stall/stall_cause from each record's stall,
/// dma_queue from dma_issue() and transfer(), dma_pc/dma_mnemonic of the transfer in progress;
/// dma_queue is as wide as machine.yaml's DMA_QUEUE port.
/// Throws std::runtime_error naming the path if a file cannot be written.
class VcdSink final : public cosim::TimelineSink {
 public:
  VcdSink(const isa::Spec& spec, const std::filesystem::path& path,
          const std::vector<std::string>& scopes, bool dma_queue = false);
  void instruction(size_t engine, const isa::RetireRecord& r, const cosim::WorkItem& work) override;
  /// Throws std::runtime_error if span.unit is not a unit of isa.yaml.
  void unit_busy(size_t engine, const isa::UnitSpan& span) override;
  void dma_issue(size_t engine, const isa::RetireRecord& r) override;
  void transfer(size_t engine, const isa::RetireRecord& t) override;
  void mismatch(uint64_t cycle) override;
  /// Ends the VCD and rewrites the save file to open on view(end_cycle).
  void finish(uint64_t end_cycle) override;
  /// What the save file opens on: without a divergence the whole run [0, end_cycle); with one,
  /// the cycles from the oldest of engine 0's last kRecent instructions before it to the end of
  /// the divergent instruction, with a margin, and the primary marker and marker A ("first
  /// divergence") on it. Then one named marker per stage at engine 0's first instruction of
  /// that stage ("stage <name>", in order of entry, before the divergence), up to 26 markers.
  waveforms::GtkwView view(uint64_t end_cycle) const;
  static constexpr size_t kRecent = 8;

 private:
  const isa::Spec& spec_;
  isa::Field opcode_;
  std::array<std::string, 256> mnemonics_;  // by opcode value (field width <= 8 bits)
  bool dma_queue_;
  waveforms::VcdWriter vcd_;
  std::filesystem::path path_;
  std::optional<uint64_t> mismatch_;
  std::array<uint64_t, kRecent> recent_{};  // start cycles of engine 0's latest instructions
  size_t recent_next_ = 0;
  uint64_t last_end_ = 0;
  std::set<uint8_t> stage_seen_;
  std::vector<waveforms::GtkwMarker> stage_entries_;
};

}  // namespace moesim::report
