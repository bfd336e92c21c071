// Matrix unit (isa.yaml unit: matrix): M_MM, the MX (E4M3 x BF16) multiply-accumulate into a
// BLEN x BLEN FP32 accumulator, and M_MM_WO, the BF16 write-back that clears it.
#pragma once

#include "unit.hpp"

namespace moesim::golden {

class MatrixUnit : public sc_core::sc_module, public UnitIf {
 public:
  MatrixUnit(sc_core::sc_module_name name, const Geometry& g);

  MemPort vram{"mat2vram"};
  MemPort mram{"mat2mram"};

  bool implements(isa::Opcode op) const override;
  TrapSet check(const Issue& is) override;
  std::map<std::string, int64_t> latency_vars(const Issue& is) const override;
  void execute(const Issue& is, Effects& fx) override;

  /// Clears the accumulator to +0.0 (program load).
  void reset();

 private:
  void mm(const Issue& is);
  void write_out(const Issue& is, Effects& fx);

  const Geometry& g_;
  std::vector<float> acc_;  ///< acc[i][j] at i * BLEN + j
};

}  // namespace moesim::golden
