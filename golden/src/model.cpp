// GoldenModel: elaboration, loading, stepping and state read-out (model.hpp).
#include "moesim/golden/model.hpp"

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <string>

#include "moesim/isa/image_file.hpp"
#include "top.hpp"

namespace moesim::golden {

using isa::Space;

namespace {

std::atomic<bool> g_elaborated{false};

// libsystemc.so prints its copyright banner in sc_elab_and_sim(), before sc_main() and so before
// any GoldenModel exists; only the environment variable, set before main(), silences it. This
// static initialiser sets it for every executable that links the golden model, unless the user
// set it already.
const bool g_banner_silenced = setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 0) == 0;

void load_segments(Memory& m, const std::vector<isa::MemorySegment>& segs) {
  for (const isa::MemorySegment& s : segs) m.load(s.base, s.bytes.data(), s.bytes.size());
}

}  // namespace

struct GoldenModel::Impl {
  Impl(const isa::Spec& spec, const isa::MachinePreset& p)
      : spec(spec),
        preset(p),
        geo(p),
        top("golden", spec, preset, geo),
        budget(geo.instruction_budget),
        dma_queue(static_cast<uint64_t>(p.get("DMA_QUEUE"))),
        hbm_jitter(static_cast<uint32_t>(p.get("HBM_JITTER_SEED"))) {}
  const isa::Spec& spec;
  isa::MachinePreset preset;
  Geometry geo;
  Top top;
  uint64_t budget;      ///< INSTRUCTION_BUDGET of the next load()
  uint64_t dma_queue;   ///< DMA_QUEUE of the next load() or restore()
  uint32_t hbm_jitter;  ///< HBM_JITTER_SEED of the next load() (0: no jitter)
  bool loaded = false;
};

GoldenModel::GoldenModel(const isa::Spec& spec, const isa::MachinePreset& preset) {
  const Geometry check(preset);  // reject an unsupported preset before claiming the process
  if (g_elaborated.exchange(true)) {
    throw std::logic_error(
        "golden: a GoldenModel was already constructed in this process; SystemC allows one "
        "elaboration per process");
  }
  // No SystemC info reports (sc_pause/sc_stop notices); the banner is handled above.
  sc_core::sc_report_handler::set_actions(sc_core::SC_INFO, sc_core::SC_DO_NOTHING);
  impl_ = std::make_unique<Impl>(spec, preset);
  // Finish elaboration and park the core thread on its start event.
  sc_core::sc_start(sc_core::SC_ZERO_TIME);
}

GoldenModel::~GoldenModel() = default;

namespace {

void check_program(const Geometry& g, const isa::Program& program) {
  if (program.size() > g.imem_words) {
    throw std::invalid_argument("golden: program " + program.source + " has " +
                                std::to_string(program.size()) + " instructions; IMEM_WORDS is " +
                                std::to_string(g.imem_words));
  }
  if (!program.stages.empty() && program.stages.size() != program.words.size()) {
    throw std::invalid_argument("golden: program " + program.source + " has " +
                                std::to_string(program.words.size()) + " words but " +
                                std::to_string(program.stages.size()) + " stage codes");
  }
}

}  // namespace

void GoldenModel::load(const isa::Program& program, const isa::MemoryImage& image) {
  const Geometry& g = impl_->geo;
  check_program(g, program);
  for (Space s : isa::kAllSpaces) {
    const uint64_t size = g.bytes(s);
    for (const isa::MemorySegment& seg : isa::segments(image, s)) {
      if (seg.base > size || seg.bytes.size() > size - seg.base) {
        throw std::invalid_argument(std::string("golden: memory image segment of space ") +
                                    isa::space_name(s) + " at byte offset " +
                                    std::to_string(seg.base) + " (" +
                                    std::to_string(seg.bytes.size()) + " bytes) ends past the " +
                                    "end of the space (" + std::to_string(size) + " bytes)");
      }
    }
  }
  Top& top = impl_->top;
  for (Space s : isa::kAllSpaces) {
    top.memory(s).clear();
    load_segments(top.memory(s), isa::segments(image, s));
  }
  top.matrix.reset();
  top.core.set_queue_depth(impl_->dma_queue);
  top.core.set_hbm_jitter(impl_->hbm_jitter);
  top.core.load(program, impl_->budget);
  impl_->loaded = true;
}

isa::ArchState GoldenModel::save() const {
  if (!impl_->loaded) throw std::logic_error("golden: save() before load()");
  isa::ArchState s;
  const Top& top = impl_->top;
  top.core.save(s);
  top.matrix.save(s);
  for (Space sp : isa::kAllSpaces) s.mem[static_cast<size_t>(sp)] = top.memory(sp).bytes();
  return s;
}

void GoldenModel::restore(const isa::Program& program, const isa::ArchState& state) {
  check_program(impl_->geo, program);
  isa::check_state_shape(state, impl_->preset);
  if (state.instruction_budget == 0)
    throw std::invalid_argument("golden: checkpoint state with instruction budget 0");
  if (impl_->hbm_jitter != 0)
    throw std::invalid_argument(
        "golden: no restore under HBM jitter (a checkpoint holds no transfer number)");
  Top& top = impl_->top;
  for (Space s : isa::kAllSpaces) top.memory(s).assign(state.mem[static_cast<size_t>(s)]);
  top.matrix.restore(state);
  top.core.set_queue_depth(impl_->dma_queue);
  top.core.restore(program, state);
  impl_->loaded = true;
}

void GoldenModel::set_instruction_budget(uint64_t budget) {
  impl_->budget = impl_->spec.checked_instruction_budget(budget);
}

void GoldenModel::set_dma_queue(uint64_t depth) {
  impl_->dma_queue = impl_->spec.checked_dma_queue(depth);
}

void GoldenModel::set_hbm_jitter(uint64_t seed) {
  impl_->hbm_jitter = static_cast<uint32_t>(impl_->spec.checked_hbm_jitter_seed(seed));
}

bool GoldenModel::step(isa::RetireRecord& out) {
  Top& top = impl_->top;
  // Every publish pauses the simulation; the core may still have to notice that the queue has
  // drained (one more sc_start() that publishes nothing).
  while (top.records.empty()) {
    if (top.core.done()) return false;
    sc_core::sc_start();
    if (top.records.empty() && !top.core.done() && !sc_core::sc_pending_activity())
      throw std::logic_error("golden: the simulation stopped without a record");
  }
  out = std::move(*top.records.take());
  return true;
}

bool GoldenModel::halted() const { return impl_->top.core.done() && impl_->top.records.empty(); }

uint64_t GoldenModel::cycles() const { return impl_->top.core.cycles(); }

uint64_t GoldenModel::retired() const { return impl_->top.core.retired(); }

uint64_t GoldenModel::hbm_bytes_read() const { return impl_->top.hbm_mem.bytes_read(); }

uint64_t GoldenModel::hbm_bytes_written() const { return impl_->top.hbm_mem.bytes_written(); }

isa::ArchRegs GoldenModel::regs() const { return impl_->top.core.regs(); }

std::vector<uint8_t> GoldenModel::read(Space space, uint64_t begin, uint64_t count) const {
  const Geometry& g = impl_->geo;
  const uint64_t units = g.units(space);
  if (begin > units || count > units - begin) {
    throw std::out_of_range(std::string("golden: read of ") + isa::space_name(space) + " [" +
                            std::to_string(begin) + ", +" + std::to_string(count) +
                            ") outside its " + std::to_string(units) + " units");
  }
  const uint8_t* p = impl_->top.memory(space).data() + begin * g.unit_bytes(space);
  return std::vector<uint8_t>(p, p + count * g.unit_bytes(space));
}

uint64_t GoldenModel::size(Space space) const { return impl_->geo.units(space); }

std::vector<isa::UnitSpan> GoldenModel::take_unit_spans() {
  std::vector<isa::UnitSpan> s = impl_->top.core.take_unit_spans();
  const std::vector<isa::UnitSpan> t = impl_->top.dma_engine.take_spans();
  if (t.empty()) return s;
  s.insert(s.end(), t.begin(), t.end());
  std::sort(s.begin(), s.end(), [](const isa::UnitSpan& a, const isa::UnitSpan& b) {
    return a.begin != b.begin ? a.begin < b.begin : a.unit < b.unit;
  });
  return s;
}

}  // namespace moesim::golden
