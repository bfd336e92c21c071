// SystemC TLM-2.0 golden model of the moesim accelerator (DESIGN.md §6, docs/architecture.md).
//
// One GoldenModel per process: SystemC allows a single elaboration per process, so a second
// construction throws std::logic_error. No SystemC type appears in this header.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "moesim/isa/program.hpp"
#include "moesim/isa/spec.hpp"
#include "moesim/isa/trace.hpp"

namespace moesim::golden {

class GoldenModel {
 public:
  /// Elaborates the design for `preset`. Throws std::logic_error on a second instance.
  GoldenModel(const isa::Spec& spec, const isa::MachinePreset& preset);
  ~GoldenModel();
  GoldenModel(const GoldenModel&) = delete;
  GoldenModel& operator=(const GoldenModel&) = delete;

  /// Loads the program and initial memories; resets registers (STRIDE = 1) and cycle count.
  /// Throws std::invalid_argument if an image segment does not fit its space.
  void load(const isa::Program& program, const isa::MemoryImage& image);

  /// Runs until the next instruction retires or traps and fills `out` (normalised).
  /// Returns false, leaving `out` untouched, once the program has halted or trapped.
  bool step(isa::RetireRecord& out);

  bool halted() const;
  uint64_t cycles() const;              ///< end cycle of the last retired instruction
  uint64_t retired() const;             ///< instructions retired so far
  isa::ArchRegs regs() const;
  /// Bytes of [begin, begin+count) in the space's unit (trace.hpp Space). Throws out_of_range.
  std::vector<uint8_t> read(isa::Space space, uint64_t begin, uint64_t count) const;
  uint64_t size(isa::Space space) const;  ///< space size in its unit

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace moesim::golden
