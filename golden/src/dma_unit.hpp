// DMA unit (isa.yaml unit: dma): H_PREFETCH_M (HBM MX rows to MRAM as stored), H_PREFETCH_V (HBM
// MX rows dequantised to VRAM) and H_STORE_V (VRAM rows quantised to MXFP8 in HBM).
#pragma once

#include "unit.hpp"

namespace moesim::golden {

class DmaUnit : public sc_core::sc_module, public UnitIf {
 public:
  DmaUnit(sc_core::sc_module_name name, const Geometry& g);

  MemPort hbm{"dma2hbm"};
  MemPort mram{"dma2mram"};
  MemPort vram{"dma2vram"};

  bool implements(isa::Opcode op) const override;
  TrapSet check(const Issue& is) override;
  /// {"rows", HBM_M_ROWS or HBM_V_ROWS}, {"len", MLEN or VLEN}.
  std::map<std::string, int64_t> latency_vars(const Issue& is) const override;
  void execute(const Issue& is, Effects& fx) override;

 private:
  /// HBM byte addresses of one MX row.
  struct RowAddr {
    Addr codes;   ///< a[an] + o
    Addr scales;  ///< a[an] + SCALE + o / MX_BLOCK
    Addr offset;  ///< o = gp[rs1] + i * S
  };
  uint64_t rows(const Issue& is) const;
  uint64_t len(const Issue& is) const;
  RowAddr row_addr(const Issue& is, uint64_t i) const;

  const Geometry& g_;
};

}  // namespace moesim::golden
