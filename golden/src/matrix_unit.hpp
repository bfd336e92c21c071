// Matrix unit (isa.yaml unit: matrix): M_MM, the MX (E4M3 x BF16) multiply-accumulate into a
// BLEN x BLEN FP32 accumulator, M_TMM, the same with the tile read transposed, and M_MM_WO,
// the BF16 write-back that clears it; M_MV / M_TMV,
// the matrix-vector forms (tile read as stored / transposed) into a separate FP32 vector
// accumulator of BLEN, and M_MV_WO, its write-back; the per-head forms M_BMV / M_BTMV (into hv,
// written back by M_BMV_WO) and M_BMM / M_BTMM (into hm, written back by M_BMM_WO).
#pragma once

#include "moesim/isa/checkpoint.hpp"
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

  /// Clears every accumulator to +0.0 (program load).
  void reset();
  /// Copies the accumulators (FP32 bit patterns) into / out of a checkpoint state
  /// (isa::ArchState acc, vacc, hv, hm; the caller has checked the sizes).
  void save(isa::ArchState& s) const;
  void restore(const isa::ArchState& s);

 private:
  void mm(const Issue& is);
  void tmm(const Issue& is);
  /// The MLEN rows (codes and scales) of MRAM tile t.
  std::vector<uint8_t> read_tile(uint64_t t);
  /// TXDOT block b of activation row a against tile column col (isa.yaml M_TMV).
  float tdot_block(const std::vector<uint8_t>& tile, const uint16_t* a, uint64_t col,
                   uint64_t b) const;
  void write_out(const Issue& is, Effects& fx);
  void mv(const Issue& is, bool transposed);
  void write_out_v(const Issue& is, Effects& fx);
  /// HDOT(b, c) x BMM_SCALE of isa.yaml M_BMV (transposed: M_BTMV) for head b, output column c,
  /// on activation row `act` (VLEN elements) and tile row offset r0 (FP32 RNE).
  float hdot(const std::vector<uint8_t>& tile, uint64_t r0, const uint16_t* act, uint64_t b,
             uint64_t c, bool transposed) const;
  /// M_BMV / M_BTMV (rows = 1, into hv) and M_BMM / M_BTMM (rows = MLEN, into hm): for each of
  /// the `rows` activation rows m from VRAM gp[rs2], head b and column c,
  /// acc[(b * rows + m) * MLEN + c] += hdot(...).
  void head_mac(const Issue& is, bool transposed, uint64_t rows, std::vector<float>& acc);
  /// M_BMV_WO (hv) and M_BMM_WO (hm): acc's rows of MLEN, rounded to BF16, to the VRAM rows from
  /// gp[rd] + imm; then acc = +0.0.
  void write_out_heads(const Issue& is, Effects& fx, std::vector<float>& acc);

  const Geometry& g_;
  std::vector<float> acc_;   ///< acc[i][j] at i * BLEN + j
  std::vector<float> vacc_;  ///< vacc[j] (M_MV / M_TMV)
  std::vector<float> hv_;    ///< hv[b][c] at b * MLEN + c (M_BMV / M_BTMV)
  std::vector<float> hm_;    ///< hm[b*MLEN + m][c] at (b * MLEN + m) * MLEN + c (M_BMM / M_BTMM)
  float bmm_scale_;          ///< isa.yaml fp32_constants BMM_SCALE
};

}  // namespace moesim::golden
