// The stage-timeline VCD as a timeline sink (waveforms::VcdWriter fed by run_cosim/run_single).
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "moesim/isa/spec.hpp"
#include "moesim/sim/timeline.hpp"
#include "moesim/waveforms/vcd.hpp"

namespace moesim::sim {

/// Writes `path` with one scope per engine name in `scopes` (engine index = scope index) and
/// the stage translate filter beside it (waveforms::stage_filter_path). Throws
/// std::runtime_error naming the path if a file cannot be written.
class VcdSink final : public TimelineSink {
 public:
  VcdSink(const isa::Spec& spec, const std::filesystem::path& path,
          const std::vector<std::string>& scopes);
  void instruction(size_t engine, const isa::RetireRecord& r, const WorkItem& work) override;
  void unit_busy(size_t engine, const UnitSpan& span) override;
  void mismatch(uint64_t cycle) override;
  void finish(uint64_t end_cycle) override;

 private:
  const isa::Spec& spec_;
  waveforms::VcdWriter vcd_;
};

}  // namespace moesim::sim
