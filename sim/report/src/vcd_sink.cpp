// The stage-timeline VCD as a timeline sink (vcd_sink.hpp).
#include "moesim/report/vcd_sink.hpp"

#include <algorithm>
#include <stdexcept>

namespace moesim::report {

namespace {

/// Bits of the DMA-queue track's dma_queue: those of the largest DMA_QUEUE (the RTL's port).
unsigned queue_bits(const isa::Spec& spec) {
  unsigned bits = 1;
  while ((static_cast<uint64_t>(spec.runtime_max("DMA_QUEUE")) >> bits) != 0) ++bits;
  return bits;
}

}  // namespace

VcdSink::VcdSink(const isa::Spec& spec, const std::filesystem::path& path,
                 const std::vector<std::string>& scopes, bool dma_queue)
    : spec_(spec),
      opcode_(spec.field("opcode")),
      dma_queue_(dma_queue),
      vcd_(path, scopes, spec.stages(), spec.units(), dma_queue ? queue_bits(spec) : 0) {
  if (opcode_.width() > 8) throw std::runtime_error("VcdSink: opcode field wider than 8 bits");
  mnemonics_.fill("undefined");
  for (const auto& ins : spec.instructions()) mnemonics_[ins.opcode] = ins.mnemonic;
  const auto filter = waveforms::stage_filter_path(path);
  waveforms::write_stage_filter(filter, spec.stages());
  waveforms::write_gtkw(waveforms::gtkw_path(path), path, filter, vcd_.signals());
  path_ = path;
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
  v.stall_cycles = r.stall_cycles;
  v.stall_cause = isa::stall_cause_name(r.stall_cause);
  vcd_.instruction(engine, r.start_cycle, v);
  if (engine == 0) {
    if (!mismatch_) {
      recent_[recent_next_++ % recent_.size()] = r.start_cycle;
      if (stage_seen_.insert(r.stage).second)
        stage_entries_.push_back({r.start_cycle, "stage " + std::string(stage)});
    }
    last_end_ = std::max(last_end_, r.end_cycle);
  }
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

void VcdSink::dma_issue(size_t engine, const isa::RetireRecord& r) {
  if (dma_queue_) vcd_.dma_issue(engine, r.start_cycle);
}

void VcdSink::transfer(size_t engine, const isa::RetireRecord& t) {
  if (!dma_queue_) return;
  const uint32_t opcode = (t.word >> opcode_.lo) & ((1u << opcode_.width()) - 1);
  vcd_.dma_transfer(engine, t.start_cycle, t.end_cycle, t.pc, mnemonics_[opcode]);
}

void VcdSink::mismatch(uint64_t cycle) {
  vcd_.mismatch(cycle);
  mismatch_ = cycle;
}

waveforms::GtkwView VcdSink::view(uint64_t end_cycle) const {
  waveforms::GtkwView v;
  if (mismatch_) {
    // From the oldest of the last instructions before the divergence to as far past it.
    uint64_t begin = *mismatch_;
    const size_t n = std::min(recent_next_, recent_.size());
    for (size_t i = 0; i < n; ++i) begin = std::min(begin, recent_[i]);
    const uint64_t after = std::max<uint64_t>(last_end_, *mismatch_ + 1);
    const uint64_t margin = std::max<uint64_t>((after - begin) / 4, 4);
    v.begin = begin > margin ? begin - margin : 0;
    // Not past the end of the file: GTKWave would move the window back to time 0.
    v.end = std::max(std::min(after + margin, std::max(end_cycle, after)), v.begin + 1);
    v.marker = *mismatch_;
    v.markers.push_back({*mismatch_, "first divergence"});
  } else {
    v.begin = 0;
    v.end = std::max<uint64_t>(end_cycle + end_cycle / 16, 1);  // the whole run, a little spare
  }
  // Stage markers whose names GTKWave would draw over a kept marker's name (labels are centred
  // on their line, about 7 pixels a character, kGtkwWavePixels across [begin, end)) are left
  // out: on a whole run the short stages of the start would otherwise be an unreadable smear.
  const double cycles_per_pixel = static_cast<double>(v.end - v.begin) / waveforms::kGtkwWavePixels;
  auto overlaps = [&](const waveforms::GtkwMarker& m) {
    for (const waveforms::GtkwMarker& k : v.markers) {
      const double gap = static_cast<double>(m.time > k.time ? m.time - k.time : k.time - m.time);
      if (gap / cycles_per_pixel < 7.0 * static_cast<double>(m.name.size() + k.name.size()) / 2 + 8)
        return true;
    }
    return false;
  };
  for (const waveforms::GtkwMarker& m : stage_entries_)
    if (v.markers.size() < 26 && !overlaps(m)) v.markers.push_back(m);
  return v;
}

void VcdSink::finish(uint64_t end_cycle) {
  vcd_.finish(end_cycle);
  // The save file again, now that the run's extent, its stage entries and the divergence are
  // known: it opens on the whole run or on the divergence, with markers.
  waveforms::write_gtkw(waveforms::gtkw_path(path_), path_, waveforms::stage_filter_path(path_),
                        vcd_.signals(), view(end_cycle));
}

}  // namespace moesim::report
