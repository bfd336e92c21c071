// The two engines behind the engine interface (moesim/isa/engine.hpp). Only
// sim/cosim/src/engines.cpp sees both models' headers; everything above the cosim layer creates
// engines here.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "moesim/isa/engine.hpp"
#include "moesim/isa/spec.hpp"

namespace moesim::cosim {

/// The SystemC TLM-2.0 golden model (name "golden"). One per process (SystemC allows one
/// elaboration); a second call throws std::logic_error.
std::unique_ptr<isa::Engine> make_golden_engine(const isa::Spec& spec,
                                                const isa::MachinePreset& preset);

/// Which part of a run the RTL's FST holds: cycles [begin, end), or with `retires` the cycles
/// of the instructions whose retire index lies in [begin, end). Default: all.
struct TraceWindow {
  uint64_t begin = 0;
  uint64_t end = UINT64_MAX;
  bool retires = false;
};

/// The Verilated RTL (name "rtl"). Throws std::invalid_argument if no RTL model was built for
/// `preset` (see rtl_built_presets()) or its parameters differ from the built ones. `fst_path`, if
/// non-empty and the RTL was built with tracing, receives a signal-level FST of `window` (1 ns =
/// 1 cycle, the state of cycle c from c ns, as the stage VCD).
std::unique_ptr<isa::Engine> make_rtl_engine(const isa::Spec& spec,
                                             const isa::MachinePreset& preset,
                                             const std::string& fst_path = "",
                                             const TraceWindow& window = {});

/// Machine presets with a Verilated RTL model in this build (CMake MOESIM_RTL_PRESETS).
std::vector<std::string> rtl_built_presets();

/// Machine presets of `spec` the RTL of this build runs: the built ones and those that differ
/// from one only in run-time parameters (machine.yaml `runtime`).
std::vector<std::string> rtl_runnable_presets(const isa::Spec& spec);

/// Machine presets whose RTL model this build Verilated with coverage (CMake option
/// MOESIM_RTL_COVERAGE, docs/coverage.md); empty in a normal build.
std::vector<std::string> rtl_coverage_presets();

/// Writes the RTL coverage the models of this process collected into `dir`, one Verilator
/// coverage file per instrumented preset that ran, under a name no other process uses; returns
/// the files written (none when no instrumented model ran). Throws std::runtime_error when `dir`
/// cannot be created or written.
std::vector<std::string> write_rtl_coverage(const std::string& dir);

}  // namespace moesim::cosim
