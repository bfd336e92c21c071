// Verilated SystemVerilog RTL of the moesim accelerator behind the engine interface
// (moesim/isa/engine.hpp, docs/architecture.md). No Verilator type appears in this header.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "moesim/isa/engine.hpp"
#include "moesim/isa/spec.hpp"

namespace moesim::rtl {

struct RtlOptions {
  std::string fst_path;  ///< if non-empty and the model was built with tracing, write an FST
  /// The FST's window: cycles [trace_begin, trace_end), or with trace_retires the cycles of the
  /// instructions whose retire index lies in [trace_begin, trace_end). Default: the whole run.
  uint64_t trace_begin = 0;
  uint64_t trace_end = UINT64_MAX;
  bool trace_retires = false;
};

/// The Verilated moe_top built for `preset` (one per machine preset of the CMake list
/// MOESIM_RTL_PRESETS; a preset's sizes are Verilator parameters, except its run-time
/// parameters, machine.yaml `runtime`, which are ports) behind the engine interface: the model
/// Verilated for `preset.name` if there is one, else one Verilated with `preset`'s parameters
/// (so `bench`, which differs from `default` only in run-time sizes, runs on `default`'s).
/// Throws std::invalid_argument if there is none (runnable_presets()), if the model named
/// `preset.name` was Verilated with other parameters, or if `opts.fst_path` is set and the model
/// was built without tracing. Its unit spans are the cycles in which moe_top's unit_busy_o bit is
/// high, sampled each clock and closed at each retire.
std::unique_ptr<isa::Engine> make_rtl_model(const isa::Spec& spec, const isa::MachinePreset& preset,
                                            const RtlOptions& opts = {});

/// Machine presets with a Verilated model in this build.
std::vector<std::string> built_presets();

/// The presets of `spec` (machine.yaml) that a model of this build runs: those with the Verilator
/// parameters of one of built_presets() (run-time parameters may differ).
std::vector<std::string> runnable_presets(const isa::Spec& spec);

/// Presets whose model this build Verilated with coverage (CMake option MOESIM_RTL_COVERAGE,
/// docs/coverage.md); empty in a normal build.
std::vector<std::string> coverage_presets();

/// Writes the RTL coverage this process has collected: for each instrumented preset one of whose
/// models it created, the counts of all of them (destroyed and alive, summed) as one Verilator
/// coverage file `dir`/<preset>-<pid>-<nanoseconds>-<n>.dat, a name no other process
/// writes. Creates `dir` if missing. Returns the files written: none when no instrumented model
/// ran. Throws std::runtime_error when `dir` cannot be created or a file cannot be written.
std::vector<std::string> write_coverage(const std::string& dir);

}  // namespace moesim::rtl
