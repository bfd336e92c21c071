// Vector unit (isa.yaml unit: vector): element-wise BF16 row operations with V_MASK masking,
// EXP/RECI through the BF16 ROM tables, the V_RED_SUM tree, V_RED_MAX, the V_PS_V prefix sum,
// V_SHFT_V, V_GATHER and V_SCATTER_ADD.
#pragma once

#include "unit.hpp"

namespace moesim::golden {

class VectorUnit : public sc_core::sc_module, public UnitIf {
 public:
  VectorUnit(sc_core::sc_module_name name, const Geometry& g);

  MemPort vram{"vec2vram"};
  MemPort int_sram{"vec2int"};

  bool implements(isa::Opcode op) const override;
  TrapSet check(const Issue& is) override;
  std::map<std::string, int64_t> latency_vars(const Issue& is) const override;
  void execute(const Issue& is, Effects& fx) override;

 private:
  std::vector<uint16_t> read_row(uint64_t row);
  void write_row(uint64_t row, const std::vector<uint16_t>& v, Effects& fx);
  /// Element e is selected: rmask = 0, or bit floor(e / HLEN) of V_MASK set.
  bool selected(const Issue& is, uint64_t e) const;

  const Geometry& g_;
};

}  // namespace moesim::golden
