// The stage-timeline VCD as a timeline sink (vcd_sink.hpp).
#include "moesim/sim/vcd_sink.hpp"

namespace moesim::sim {

VcdSink::VcdSink(const isa::Spec& spec, const std::filesystem::path& path,
                 const std::vector<std::string>& scopes)
    : spec_(spec), vcd_(path, scopes, spec.stages()) {
  waveforms::write_stage_filter(waveforms::stage_filter_path(path), spec.stages());
}

void VcdSink::instruction(size_t engine, const isa::RetireRecord& r, const WorkItem&) {
  const isa::StageSpec* st = spec_.stage_by_code(r.stage);
  vcd_.instruction(engine, r.start_cycle, r.stage,
                   st ? st->name : "stage" + std::to_string(r.stage), r.pc);
}

void VcdSink::unit_busy(size_t, const UnitSpan&) {}

void VcdSink::mismatch(uint64_t cycle) { vcd_.mismatch(cycle); }

void VcdSink::finish(uint64_t end_cycle) { vcd_.finish(end_cycle); }

}  // namespace moesim::sim
