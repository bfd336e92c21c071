// The stage-timeline VCD as a timeline sink (vcd_sink.hpp).
#include "moesim/report/vcd_sink.hpp"

#include <stdexcept>

namespace moesim::report {

VcdSink::VcdSink(const isa::Spec& spec, const std::filesystem::path& path,
                 const std::vector<std::string>& scopes)
    : spec_(spec), opcode_(spec.field("opcode")), vcd_(path, scopes, spec.stages(), spec.units()) {
  if (opcode_.width() > 8) throw std::runtime_error("VcdSink: opcode field wider than 8 bits");
  mnemonics_.fill("undefined");
  for (const auto& ins : spec.instructions()) mnemonics_[ins.opcode] = ins.mnemonic;
  const auto filter = waveforms::stage_filter_path(path);
  waveforms::write_stage_filter(filter, spec.stages());
  waveforms::write_gtkw(waveforms::gtkw_path(path), path, filter, vcd_.signals());
}

void VcdSink::instruction(size_t engine, const isa::RetireRecord& r, const cosim::WorkItem& work) {
  const isa::StageSpec* st = spec_.stage_by_code(r.stage);
  std::string unknown;
  const std::string_view stage = st ? st->name : (unknown = "stage" + std::to_string(r.stage));
  const uint32_t opcode = (r.word >> opcode_.lo) & ((1u << opcode_.width()) - 1);
  waveforms::InstructionValues v;
  v.stage_code = r.stage;
  v.stage = stage;
  v.pc = r.pc;
  v.mnemonic = mnemonics_[opcode];
  v.token = work.token;
  v.slot = work.slot;
  v.expert = work.expert;
  vcd_.instruction(engine, r.start_cycle, v);
  if (r.trap) {
    const isa::TrapSpec* ts = spec_.trap_by_code(r.trap->cause);
    vcd_.trap(engine, r.start_cycle, ts ? ts->name : "trap" + std::to_string(r.trap->cause));
  }
}

void VcdSink::unit_busy(size_t engine, const isa::UnitSpan& span) {
  if (span.unit >= spec_.units().size())
    throw std::runtime_error("VcdSink: busy unit " + std::to_string(span.unit) + ", isa.yaml has " +
                             std::to_string(spec_.units().size()) + " units");
  vcd_.unit_busy(engine, span.unit, span.begin, span.end);
}

void VcdSink::mismatch(uint64_t cycle) { vcd_.mismatch(cycle); }

void VcdSink::finish(uint64_t end_cycle) { vcd_.finish(end_cycle); }

}  // namespace moesim::report
