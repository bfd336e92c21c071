// The stage-timeline VCD as a timeline sink (waveforms::VcdWriter fed by run_cosim/run_single).
#pragma once

#include <array>
#include <filesystem>
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
/// Throws std::runtime_error naming the path if a file cannot be written.
class VcdSink final : public cosim::TimelineSink {
 public:
  VcdSink(const isa::Spec& spec, const std::filesystem::path& path,
          const std::vector<std::string>& scopes);
  void instruction(size_t engine, const isa::RetireRecord& r, const cosim::WorkItem& work) override;
  /// Throws std::runtime_error if span.unit is not a unit of isa.yaml.
  void unit_busy(size_t engine, const isa::UnitSpan& span) override;
  void mismatch(uint64_t cycle) override;
  void finish(uint64_t end_cycle) override;

 private:
  const isa::Spec& spec_;
  isa::Field opcode_;
  std::array<std::string, 256> mnemonics_;  // by opcode value (field width <= 8 bits)
  waveforms::VcdWriter vcd_;
};

}  // namespace moesim::report
