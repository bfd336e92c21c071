// Private interface between moesim::rtl::RtlModel and the Verilated models it drives. One
// Verilated model is built per machine preset listed in MOESIM_RTL_PRESETS (a preset's sizes
// are Verilator parameters); each is wrapped by rtl_model.cpp compiled for it (namespace
// moesim::rtl::variant_<preset>), and variants() lists them. RtlModel picks the one whose preset
// it is given and forwards every call (model.hpp documents them).
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "moesim/isa/program.hpp"
#include "moesim/isa/spec.hpp"
#include "moesim/isa/trace.hpp"
#include "moesim/rtl/model.hpp"

namespace moesim::rtl {

class Backend {
 public:
  virtual ~Backend() = default;
  virtual void load(const isa::Program& program, const isa::MemoryImage& image) = 0;
  virtual void set_instruction_budget(uint64_t budget) = 0;
  virtual bool step(isa::RetireRecord& out) = 0;
  virtual bool halted() const = 0;
  virtual uint64_t cycles() const = 0;
  virtual uint64_t retired() const = 0;
  virtual uint64_t hbm_bytes_read() const = 0;
  virtual uint64_t hbm_bytes_written() const = 0;
  virtual isa::ArchRegs regs() const = 0;
  virtual std::vector<uint8_t> read(isa::Space space, uint64_t begin, uint64_t count) const = 0;
  virtual uint64_t size(isa::Space space) const = 0;
  virtual std::vector<isa::UnitSpan> take_unit_spans() = 0;
};

/// One Verilated model: the machine preset it was built for and its constructor, which throws
/// std::invalid_argument if a preset's parameters differ from the built ones.
struct Variant {
  const char* preset;
  std::unique_ptr<Backend> (*make)(const isa::Spec& spec, const isa::MachinePreset& preset,
                                   const RtlOptions& opts);
};

/// Every Verilated model of this build, in MOESIM_RTL_PRESETS order (generated variants.cpp).
const std::vector<Variant>& variants();

/// HBM backing store of the model being clocked, and the record its writes go to. The DPI-C
/// imports moe_hbm_read / moe_hbm_write (model.cpp) reach it through active_hbm(), which a
/// backend points at its own store around every clock of its model.
struct HbmStore {
  std::vector<uint8_t> bytes;
  std::vector<isa::MemWrite>* writes = nullptr;
  uint64_t bytes_read = 0, bytes_written = 0;  ///< DPI accesses since load()
};
HbmStore*& active_hbm();

}  // namespace moesim::rtl
