// The engine factories: the one place that names both models (engines.hpp).
#include "moesim/cosim/engines.hpp"

#include "moesim/golden/model.hpp"
#include "moesim/rtl/model.hpp"

namespace moesim::cosim {

std::unique_ptr<isa::Engine> make_golden_engine(const isa::Spec& spec,
                                                const isa::MachinePreset& preset) {
  return std::make_unique<golden::GoldenModel>(spec, preset);
}

std::unique_ptr<isa::Engine> make_rtl_engine(const isa::Spec& spec,
                                             const isa::MachinePreset& preset,
                                             const std::string& fst_path,
                                             const TraceWindow& window) {
  rtl::RtlOptions opts;
  opts.fst_path = fst_path;
  opts.trace_begin = window.begin;
  opts.trace_end = window.end;
  opts.trace_retires = window.retires;
  return rtl::make_rtl_model(spec, preset, opts);
}

std::vector<std::string> rtl_built_presets() { return rtl::built_presets(); }

std::vector<std::string> rtl_runnable_presets(const isa::Spec& spec) {
  return rtl::runnable_presets(spec);
}

std::vector<std::string> rtl_coverage_presets() { return rtl::coverage_presets(); }

std::vector<std::string> write_rtl_coverage(const std::string& dir) {
  return rtl::write_coverage(dir);
}

}  // namespace moesim::cosim
