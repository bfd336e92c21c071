// Top-k unit (isa.yaml unit: topk): V_TOPK router selection and softmax over the selected
// logits, writing expert ids to INT SRAM and weights to FP SRAM.
#pragma once

#include "unit.hpp"

namespace moesim::golden {

class TopkUnit : public sc_core::sc_module, public UnitIf {
 public:
  TopkUnit(sc_core::sc_module_name name, const isa::Spec& spec, const Geometry& g);

  MemPort vram{"topk2vram"};
  MemPort int_sram{"topk2int"};
  MemPort fp_sram{"topk2fp"};

  bool implements(isa::Opcode op) const override;
  TrapSet check(const Issue& is) override;
  /// {"E", experts scanned}, {"k", experts selected}.
  std::map<std::string, int64_t> latency_vars(const Issue& is) const override;
  void execute(const Issue& is, Effects& fx) override;

 private:
  struct Shape {
    uint64_t experts;  ///< E
    uint64_t k;
  };
  /// (E, k) of the rmask from isa.yaml `topk_policies`: hardwired, or TOPK_POLICY for the
  /// register policy. The core has already rejected any other rmask as illegal_instruction.
  Shape shape(const Issue& is) const;
  /// The rmask reads (E, k) from TOPK_POLICY.
  bool register_policy(const Issue& is) const;

  const isa::Spec& spec_;
  const Geometry& g_;
};

}  // namespace moesim::golden
