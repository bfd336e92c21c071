// Scalar unit (isa.yaml unit: scalar): integer ALU on gp registers, BF16 scalar arithmetic on f
// registers (S_*_FP, EXP/RECI/SQRT through the BF16 ROM tables), FP/INT SRAM loads and stores,
// and S_MAP_V_FP (FP SRAM words to a VRAM row).
#pragma once

#include "unit.hpp"

namespace moesim::golden {

class ScalarUnit : public sc_core::sc_module, public UnitIf {
 public:
  ScalarUnit(sc_core::sc_module_name name, const Geometry& g);

  MemPort fp_sram{"sc2fp"};
  MemPort int_sram{"sc2int"};
  MemPort vram{"sc2vram"};

  bool implements(isa::Opcode op) const override;
  TrapSet check(const Issue& is) override;
  std::map<std::string, int64_t> latency_vars(const Issue& is) const override;
  void execute(const Issue& is, Effects& fx) override;

 private:
  const Geometry& g_;
};

}  // namespace moesim::golden
