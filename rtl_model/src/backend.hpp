// Private to rtl_model: one Verilated model is built per machine preset listed in
// MOESIM_RTL_PRESETS (a preset's sizes are Verilator parameters); each is wrapped by
// rtl_model.cpp compiled for it (namespace moesim::rtl::variant_<preset>) as an isa::Engine, and
// variants() lists them. make_rtl_model() picks the one built for the preset it is given, or
// else one built with the same Verilator parameters (presets that differ only in run-time
// parameters, machine.yaml `runtime`, share a model).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "moesim/isa/engine.hpp"
#include "moesim/isa/program.hpp"
#include "moesim/isa/spec.hpp"
#include "moesim/isa/trace.hpp"
#include "moesim/rtl/model.hpp"

namespace moesim::rtl {

/// The coverage counters of every model of one preset Verilated with coverage
/// (MOESIM_RTL_COVERAGE, docs/coverage.md), over the whole process: the models destroyed so far
/// and the live ones.
class CoverageSink {
 public:
  virtual ~CoverageSink() = default;
  /// Models of this preset created in this process so far.
  virtual uint64_t models() const = 0;
  /// Writes the summed counts of every model created so far as a Verilator coverage file
  /// (`path` is written whole or not at all).
  virtual void write(const std::string& path) = 0;
};

struct Variant {
  const char* preset;
  std::unique_ptr<isa::Engine> (*make)(const isa::Spec& spec, const isa::MachinePreset& preset,
                                       const RtlOptions& opts);
  /// True when `preset` has the Verilator parameters this model was built with (its run-time
  /// parameters, machine.yaml `runtime`, may differ: they are ports).
  bool (*runs)(const isa::Spec& spec, const isa::MachinePreset& preset);
  /// The process's coverage of this model, or nullptr when it was Verilated without coverage.
  CoverageSink* (*coverage)();
};

/// Every Verilated model of this build, in MOESIM_RTL_PRESETS order (generated variants.cpp).
const std::vector<Variant>& variants();

/// HBM backing store of the model being clocked, and the record its accesses go to (the
/// instruction, or with a DMA queue the transfer, the DMA engine works on: its HBM writes and its
/// hbm_read / hbm_written bytes). The DPI-C imports moe_hbm_read / moe_hbm_write (model.cpp)
/// reach it through active_hbm(), which a backend points at its own store around every clock of
/// its model.
struct HbmStore {
  std::vector<uint8_t> bytes;
  isa::RetireRecord* record = nullptr;
  uint64_t bytes_read = 0, bytes_written = 0;  ///< DPI accesses since load()
};
HbmStore*& active_hbm();

}  // namespace moesim::rtl
