// Verilated SystemVerilog RTL of the moesim accelerator behind the engine-shaped API the
// comparator uses (docs/architecture.md). No Verilator type appears in this header.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "moesim/isa/program.hpp"
#include "moesim/isa/spec.hpp"
#include "moesim/isa/trace.hpp"

namespace moesim::rtl {

struct RtlOptions {
  std::string fst_path;  ///< if non-empty and the model was built with tracing, write an FST
};

class Backend;

/// One Verilated moe_top per machine preset of the CMake list MOESIM_RTL_PRESETS (a preset's
/// sizes are Verilator parameters); an RtlModel drives the one built for its preset.
class RtlModel {
 public:
  /// Throws std::invalid_argument if no model was Verilated for `preset.name` (built_presets())
  /// or if `preset`'s parameters differ from the ones it was Verilated with (run-time
  /// parameters, machine.yaml `runtime`, excepted).
  RtlModel(const isa::Spec& spec, const isa::MachinePreset& preset, const RtlOptions& opts = {});
  ~RtlModel();
  RtlModel(const RtlModel&) = delete;
  RtlModel& operator=(const RtlModel&) = delete;

  /// Machine presets with a Verilated model in this build, in MOESIM_RTL_PRESETS order.
  static std::vector<std::string> built_presets();

  /// Preloads instruction memory ({stage, word} per pc), SRAMs and the HBM backing store, then
  /// resets the design. Throws std::invalid_argument if the program or an image does not fit.
  void load(const isa::Program& program, const isa::MemoryImage& image);

  /// INSTRUCTION_BUDGET of the runs after the next load(), driven on moe_top's
  /// instruction_budget_i (machine.yaml `runtime`); until called, the preset's value. Throws
  /// std::invalid_argument if `budget` is 0 or wider than the port.
  void set_instruction_budget(uint64_t budget);

  /// Clocks the design until the next retire or trap and fills `out` (normalised) from the
  /// trace ports. Returns false once halted or trapped.
  bool step(isa::RetireRecord& out);

  bool halted() const;       ///< true once the program halted or trapped
  uint64_t cycles() const;   ///< end cycle of the last retired instruction
  uint64_t retired() const;  ///< instructions retired so far (a trap is not counted)
  /// HBM bytes read / written since load(): one per byte moe_hbm moves through the DPI-C
  /// backing store (moe_hbm_read / moe_hbm_write calls).
  uint64_t hbm_bytes_read() const;
  uint64_t hbm_bytes_written() const;
  isa::ArchRegs regs() const;
  std::vector<uint8_t> read(isa::Space space, uint64_t begin, uint64_t count) const;
  uint64_t size(isa::Space space) const;
  /// Unit busy spans of the instructions retired since the previous call (or load()), sorted by
  /// (begin, unit), in cycles: the cycles in which bit u (index into Spec::units()) of
  /// moe_top's unit_busy_o was high, sampled every cycle and merged into runs. A run is split at
  /// each retire, so every span lies within [start_cycle, end_cycle) of one instruction (a unit
  /// busy for consecutive instructions gives one span per instruction). A trap occupies no
  /// cycle and gives none. Call after step() returned the record (sim::Engine::take_unit_spans).
  std::vector<isa::UnitSpan> take_unit_spans();

 private:
  std::unique_ptr<Backend> impl_;
};

}  // namespace moesim::rtl
