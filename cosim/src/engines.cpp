// Engine adapters for the golden model and the RTL (see engine.hpp). Each adapter forwards to
// its model; neither model's header is visible outside this file.
#include <utility>

#include "moesim/golden/model.hpp"
#include "moesim/rtl/model.hpp"
#include "moesim/sim/engine.hpp"

namespace moesim::sim {
namespace {

template <class Model>
class ModelEngine final : public Engine {
 public:
  template <class... Args>
  ModelEngine(std::string name, const isa::Spec& spec, Args&&... args)
      : name_(std::move(name)), model_(spec, std::forward<Args>(args)...) {}

  std::string name() const override { return name_; }
  void load(const isa::Program& program, const isa::MemoryImage& image) override {
    model_.load(program, image);
  }
  void set_instruction_budget(uint64_t budget) override { model_.set_instruction_budget(budget); }
  bool step(isa::RetireRecord& out) override { return model_.step(out); }
  bool halted() const override { return model_.halted(); }
  uint64_t cycles() const override { return model_.cycles(); }
  uint64_t retired() const override { return model_.retired(); }
  uint64_t hbm_bytes_read() const override { return model_.hbm_bytes_read(); }
  uint64_t hbm_bytes_written() const override { return model_.hbm_bytes_written(); }
  isa::ArchRegs regs() const override { return model_.regs(); }
  std::vector<uint8_t> read(isa::Space space, uint64_t begin, uint64_t count) const override {
    return model_.read(space, begin, count);
  }
  uint64_t size(isa::Space space) const override { return model_.size(space); }
  std::vector<UnitSpan> take_unit_spans() override { return model_.take_unit_spans(); }

 private:
  std::string name_;
  Model model_;
};

}  // namespace

std::unique_ptr<Engine> make_golden_engine(const isa::Spec& spec,
                                           const isa::MachinePreset& preset) {
  return std::make_unique<ModelEngine<golden::GoldenModel>>("golden", spec, preset);
}

std::unique_ptr<Engine> make_rtl_engine(const isa::Spec& spec, const isa::MachinePreset& preset,
                                        const std::string& fst_path) {
  rtl::RtlOptions opts;
  opts.fst_path = fst_path;
  return std::make_unique<ModelEngine<rtl::RtlModel>>("rtl", spec, preset, opts);
}

std::vector<std::string> rtl_built_presets() { return rtl::RtlModel::built_presets(); }

}  // namespace moesim::sim
