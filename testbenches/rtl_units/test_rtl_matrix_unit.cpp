// RTL unit bench: moe_matrix_unit (M_MM, M_TMM, M_MM_WO, M_MV, M_TMV, M_MV_WO, M_BMV, M_BTMV,
// M_BMV_WO, M_BMM, M_BTMM, M_BMM_WO) Verilated for each
// machine preset, driven cycle by cycle with the MRAM and VRAM modelled in C++. Checks, against a
// reference built from the golden numerics (moesim::num::mx_block_dot, mx_block_tdot, add,
// f32_to_bf16) and the isa.yaml semantics: the FP32 accumulators (acc, vacc, hv, hm) bit for bit
// after every instruction (read through their public_flat_rd arrays, so a change of the K or tree
// order shows up even where BF16 write-back would hide it), every VRAM element after each M_*_WO
// (masked columns written, everything else kept), each accumulator persisting across its
// multiply-accumulates and cleared only by its own write-back, the cycle count of every
// instruction against isa.yaml's latency formula (moesim::isa::Spec), and the handshake
// (busy_o from start to done, done_o once in the last cycle, no memory access outside).
#define BOOST_TEST_MODULE rtl_matrix_unit
#include <boost/test/unit_test.hpp>
#include <cstdint>
#include <memory>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "Vmoe_matrix_unit_default.h"
#include "Vmoe_matrix_unit_default___024root.h"
#include "Vmoe_matrix_unit_mx32.h"
#include "Vmoe_matrix_unit_mx32___024root.h"
#include "Vmoe_matrix_unit_tiny.h"
#include "Vmoe_matrix_unit_tiny___024root.h"
#include "moesim/isa/numerics.hpp"
#include "moesim/isa/spec.hpp"
#include "moesim/isa/tables.hpp"
#include "rtlu_ports.hpp"
#include "verilated.h"

namespace num = moesim::num;
namespace isa = moesim::isa;
using moesim::rtlu::get_bits;
using moesim::rtlu::port_bits;
using moesim::rtlu::put_bits;

namespace {

constexpr unsigned kVramRows = 320;  // M_BMM_WO writes B * MLEN = 256 rows on default

/// moe_pkg::mm_op_e, the matrix unit's op_i encoding (an RTL-internal port, not ISA state).
enum MmOp : uint8_t {
  kMm = 0,
  kMmWo = 1,
  kMv = 2,
  kTmv = 3,
  kMvWo = 4,
  kTmm = 5,
  kBmv = 6,
  kBtmv = 7,
  kBmvWo = 8,
  kBmm = 9,
  kBtmm = 10,
  kBmmWo = 11
};
constexpr unsigned kMramTiles = 3;

/// Operand distributions: realistic (moderate exponents, scales near 2^0, no NaN) or wild
/// (any BF16 incl. inf/NaN/subnormal, any code incl. NaN, any scale incl. 0 and 0xFF).
enum class Dist { Realistic, Wild, Tiny };

template <typename Model>
class MatrixBench {
 public:
  explicit MatrixBench(const std::string& preset_name, uint64_t seed)
      : spec_(isa::Spec::builtin()),
        preset_(spec_.preset(preset_name)),
        mlen_(static_cast<unsigned>(preset_.mlen())),
        vlen_(static_cast<unsigned>(preset_.vlen())),
        blen_(static_cast<unsigned>(preset_.blen())),
        hlen_(static_cast<unsigned>(preset_.hlen())),
        heads_(mlen_ / hlen_),
        mxb_(static_cast<unsigned>(preset_.mx_block())),
        nb_(mlen_ / mxb_),
        rng_(seed) {
    ctx_ = std::make_unique<VerilatedContext>();
    top_ = std::make_unique<Model>(ctx_.get(), "top");
    // The model must have been Verilated with this preset's parameters.
    BOOST_REQUIRE_EQUAL(port_bits(top_->mram_codes_i), size_t{mlen_} * 8);
    BOOST_REQUIRE_EQUAL(port_bits(top_->mram_scales_i), size_t{nb_} * 8);
    BOOST_REQUIRE_EQUAL(port_bits(top_->vram_rdata_i), size_t{vlen_} * 16);
    BOOST_REQUIRE_EQUAL(port_bits(top_->vram_wmask_o), size_t{vlen_});
    lat_mm_ = spec_.latency(*spec_.by_mnemonic("M_MM"), preset_);
    lat_tmm_ = spec_.latency(*spec_.by_mnemonic("M_TMM"), preset_);
    lat_wo_ = spec_.latency(*spec_.by_mnemonic("M_MM_WO"), preset_);
    lat_mv_ = spec_.latency(*spec_.by_mnemonic("M_MV"), preset_);
    lat_tmv_ = spec_.latency(*spec_.by_mnemonic("M_TMV"), preset_);
    lat_mv_wo_ = spec_.latency(*spec_.by_mnemonic("M_MV_WO"), preset_);
    lat_bmv_ = spec_.latency(*spec_.by_mnemonic("M_BMV"), preset_);
    lat_btmv_ = spec_.latency(*spec_.by_mnemonic("M_BTMV"), preset_);
    lat_bmv_wo_ = spec_.latency(*spec_.by_mnemonic("M_BMV_WO"), preset_);
    lat_bmm_ = spec_.latency(*spec_.by_mnemonic("M_BMM"), preset_);
    lat_btmm_ = spec_.latency(*spec_.by_mnemonic("M_BTMM"), preset_);
    lat_bmm_wo_ = spec_.latency(*spec_.by_mnemonic("M_BMM_WO"), preset_);
    hv_.assign(size_t{heads_} * mlen_, 0.0f);
    hm_.assign(size_t{heads_} * mlen_ * mlen_, 0.0f);
    acc_.assign(size_t{blen_} * blen_, 0.0f);
    vacc_.assign(blen_, 0.0f);
    reset();
  }

  void fill(Dist d) {
    vram_.assign(kVramRows, std::vector<uint16_t>(vlen_));
    for (auto& row : vram_)
      for (auto& v : row) v = rand_bf16(d);
    const unsigned mrows = kMramTiles * mlen_;
    codes_.assign(mrows, std::vector<uint8_t>(mlen_));
    scales_.assign(mrows, std::vector<uint8_t>(nb_));
    for (unsigned r = 0; r < mrows; ++r) {
      for (auto& c : codes_[r]) c = rand_code(d);
      for (auto& s : scales_[r]) s = rand_scale(d);
    }
    ref_vram_ = vram_;
  }

  /// M_MM with tile t, column offset c (multiple of BLEN), activation rows from VRAM row a.
  void mm(unsigned tile, unsigned col, unsigned act_row) {
    const uint32_t mat_row = tile * mlen_ + col;
    // Reference (isa.yaml M_MM): acc[i][j] += MXDOT(A[i], W[c+j]) block by block in K order.
    for (unsigned i = 0; i < blen_; ++i)
      for (unsigned j = 0; j < blen_; ++j)
        for (unsigned b = 0; b < nb_; ++b) {
          const float dot =
              num::mx_block_dot(&vram_[act_row + i][mxb_ * b], &codes_[mat_row + j][mxb_ * b], mxb_,
                                scales_[mat_row + j][b]);
          float& a = acc_[i * blen_ + j];
          a = num::add(a, dot);
        }
    top_->op_i = kMm;
    top_->mat_row_i = mat_row;
    top_->act_row_i = act_row;
    const int64_t cycles = run(false);
    BOOST_TEST(cycles == lat_mm_,
               "M_MM took " << cycles << " cycles, isa.yaml latency says " << lat_mm_);
    ++n_instr_;
    compare_acc();
  }

  /// TXDOT block b of activation row a against column col of tile row0 (isa.yaml M_TMV: K over
  /// tile rows, each with its own scale).
  float tdot(unsigned row0, unsigned col, const std::vector<uint16_t>& a, unsigned b) const {
    std::vector<uint8_t> codes(mxb_), scales(mxb_);
    for (unsigned t = 0; t < mxb_; ++t) {
      codes[t] = codes_[row0 + mxb_ * b + t][col];
      scales[t] = scales_[row0 + mxb_ * b + t][col / mxb_];
    }
    return num::mx_block_tdot(&a[mxb_ * b], codes.data(), scales.data(), mxb_);
  }

  /// M_TMM with tile t, column offset c (multiple of BLEN), activation rows from VRAM row a.
  void tmm(unsigned tile, unsigned col, unsigned act_row) {
    const uint32_t row0 = tile * mlen_;
    // Reference (isa.yaml M_TMM): acc[i][j] += TXDOT(A[i], column c+j) block by block in K order.
    for (unsigned i = 0; i < blen_; ++i)
      for (unsigned j = 0; j < blen_; ++j)
        for (unsigned b = 0; b < nb_; ++b) {
          float& a = acc_[i * blen_ + j];
          a = num::add(a, tdot(row0, col + j, vram_[act_row + i], b));
        }
    top_->op_i = kTmm;
    top_->mat_row_i = row0;
    top_->mat_col_i = col;
    top_->act_row_i = act_row;
    const int64_t cycles = run(false);
    BOOST_TEST(cycles == lat_tmm_,
               "M_TMM took " << cycles << " cycles, isa.yaml latency says " << lat_tmm_);
    ++n_instr_;
    compare_acc();
  }

  /// M_MM_WO to VRAM row r0 + i*stride, columns [col, col+BLEN).
  void wo(unsigned row0, unsigned col, unsigned stride) {
    for (unsigned i = 0; i < blen_; ++i)
      for (unsigned j = 0; j < blen_; ++j)
        ref_vram_[row0 + i * stride][col + j] = num::f32_to_bf16(acc_[i * blen_ + j]);
    std::fill(acc_.begin(), acc_.end(), 0.0f);
    top_->op_i = kMmWo;
    top_->wo_row_i = row0;
    top_->wo_col_i = col;
    top_->wo_stride_i = stride;
    const int64_t cycles = run(true);
    BOOST_TEST(cycles == lat_wo_,
               "M_MM_WO took " << cycles << " cycles, isa.yaml latency says " << lat_wo_);
    ++n_instr_;
    compare_acc();
    compare_vram();
  }

  /// M_MV (transposed = false) or M_TMV on tile t, element column offset c, activation row a.
  void mv(unsigned tile, unsigned col, unsigned act_row, bool transposed) {
    const uint32_t row0 = tile * mlen_;
    const std::vector<uint16_t>& a = vram_[act_row];
    for (unsigned j = 0; j < blen_; ++j)
      for (unsigned b = 0; b < nb_; ++b) {
        const float dot = transposed
                              ? tdot(row0, col + j, a, b)
                              : num::mx_block_dot(&a[mxb_ * b], &codes_[row0 + col + j][mxb_ * b],
                                                  mxb_, scales_[row0 + col + j][b]);
        vacc_[j] = num::add(vacc_[j], dot);
      }
    top_->op_i = transposed ? kTmv : kMv;
    top_->mat_row_i = transposed ? row0 : row0 + col;
    top_->mat_col_i = col;
    top_->act_row_i = act_row;
    const int64_t cycles = run(false);
    const int64_t lat = transposed ? lat_tmv_ : lat_mv_;
    BOOST_TEST(cycles == lat, (transposed ? "M_TMV" : "M_MV")
                                  << " took " << cycles << " cycles, isa.yaml latency says "
                                  << lat);
    ++n_instr_;
    compare_acc();
  }

  /// M_MV_WO to VRAM row r, columns [col, col+BLEN).
  void wo_v(unsigned row, unsigned col) {
    for (unsigned j = 0; j < blen_; ++j) ref_vram_[row][col + j] = num::f32_to_bf16(vacc_[j]);
    std::fill(vacc_.begin(), vacc_.end(), 0.0f);
    top_->op_i = kMvWo;
    top_->wo_row_i = row;
    top_->wo_col_i = col;
    const int64_t cycles = run(true);
    BOOST_TEST(cycles == lat_mv_wo_,
               "M_MV_WO took " << cycles << " cycles, isa.yaml latency says " << lat_mv_wo_);
    ++n_instr_;
    compare_acc();
    compare_vram();
  }

  /// Reference (isa.yaml M_BMV / M_BTMV): tree(q_d) x BMM_SCALE of head b, column c on
  /// activation row a, tile row0 (MRAM row of tile row 0), row offset r0.
  float hdot(unsigned row0, unsigned r0, const std::vector<uint16_t>& a, unsigned b, unsigned c,
             bool transposed) const {
    const float bmm_scale = num::f32_from_bits(isa::kFp32_BMM_SCALE);
    std::vector<float> q(hlen_);
    for (unsigned d = 0; d < hlen_; ++d) {
      const unsigned row = row0 + (transposed ? c : r0 + d);
      const unsigned col = transposed ? r0 + d : c;
      const uint16_t x = a[transposed ? b * hlen_ + d : d * heads_ + b];
      q[d] = num::mul(num::mul(num::bf16_to_f32(x), num::e4m3_to_f32(codes_[row][col])),
                      num::e8m0_to_f32(scales_[row][col / mxb_]));
    }
    return num::mul(num::tree_sum(q.data(), q.size()), bmm_scale);
  }

  /// M_BMV (transposed = false) or M_BTMV on tile t, row offset r0, activation row a.
  void bmv(unsigned tile, unsigned r0, unsigned act_row, bool transposed) {
    const uint32_t row0 = tile * mlen_;
    const std::vector<uint16_t>& a = vram_[act_row];
    // Reference (isa.yaml M_BMV / M_BTMV): hv[b][c] += tree(q_d) x BMM_SCALE.
    for (unsigned b = 0; b < heads_; ++b)
      for (unsigned c = 0; c < mlen_; ++c) {
        float& h = hv_[b * mlen_ + c];
        h = num::add(h, hdot(row0, r0, a, b, c, transposed));
      }
    top_->op_i = transposed ? kBtmv : kBmv;
    top_->mat_row_i = transposed ? row0 : row0 + r0;
    top_->mat_col_i = r0;
    top_->act_row_i = act_row;
    const int64_t cycles = run(false);
    const int64_t lat = transposed ? lat_btmv_ : lat_bmv_;
    BOOST_TEST(cycles == lat, (transposed ? "M_BTMV" : "M_BMV")
                                  << " took " << cycles << " cycles, isa.yaml latency says "
                                  << lat);
    ++n_instr_;
    compare_acc();
  }

  /// M_BMM (transposed = false) or M_BTMM on tile t, row offset r0, activation rows from a.
  void bmm(unsigned tile, unsigned r0, unsigned act_row, bool transposed) {
    const uint32_t row0 = tile * mlen_;
    // Reference (isa.yaml M_BMM / M_BTMM): hm[b*MLEN + m][c] += HDOT on activation row m.
    for (unsigned m = 0; m < mlen_; ++m)
      for (unsigned b = 0; b < heads_; ++b)
        for (unsigned c = 0; c < mlen_; ++c) {
          float& h = hm_[(size_t{b} * mlen_ + m) * mlen_ + c];
          h = num::add(h, hdot(row0, r0, vram_[act_row + m], b, c, transposed));
        }
    top_->op_i = transposed ? kBtmm : kBmm;
    top_->mat_row_i = transposed ? row0 : row0 + r0;
    top_->mat_col_i = r0;
    top_->act_row_i = act_row;
    const int64_t cycles = run(false);
    const int64_t lat = transposed ? lat_btmm_ : lat_bmm_;
    BOOST_TEST(cycles == lat, (transposed ? "M_BTMM" : "M_BMM")
                                  << " took " << cycles << " cycles, isa.yaml latency says "
                                  << lat);
    ++n_instr_;
    compare_acc();
  }

  /// M_BMM_WO to VRAM rows row .. row + B*MLEN - 1 (whole rows).
  void wo_hm(unsigned row) {
    for (unsigned i = 0; i < heads_ * mlen_; ++i)
      for (unsigned c = 0; c < mlen_; ++c)
        ref_vram_[row + i][c] = num::f32_to_bf16(hm_[size_t{i} * mlen_ + c]);
    std::fill(hm_.begin(), hm_.end(), 0.0f);
    top_->op_i = kBmmWo;
    top_->wo_row_i = row;
    const int64_t cycles = run(true, true);
    BOOST_TEST(cycles == lat_bmm_wo_,
               "M_BMM_WO took " << cycles << " cycles, isa.yaml latency says " << lat_bmm_wo_);
    ++n_instr_;
    compare_acc();
    compare_vram();
  }

  /// A random legal instruction sequence: 1..2 M_BMM / M_BTMM (an M_BMV between them now and
  /// then) then an M_BMM_WO.
  void random_hm_group() {
    const unsigned n = 1 + static_cast<unsigned>(rng_() % 2);
    for (unsigned k = 0; k < n; ++k) {
      const unsigned tile = static_cast<unsigned>(rng_() % kMramTiles);
      const unsigned r0 = hlen_ * static_cast<unsigned>(rng_() % heads_);
      bmm(tile, r0, static_cast<unsigned>(rng_() % (kVramRows - mlen_ + 1)), rng_() % 2 == 0);
      if (rng_() % 2) bmv(tile, r0, static_cast<unsigned>(rng_() % kVramRows), false);
    }
    wo_hm(static_cast<unsigned>(rng_() % (kVramRows - heads_ * mlen_ + 1)));
  }

  /// M_BMV_WO to VRAM rows row .. row + B - 1 (whole rows).
  void wo_h(unsigned row) {
    for (unsigned b = 0; b < heads_; ++b)
      for (unsigned c = 0; c < mlen_; ++c)
        ref_vram_[row + b][c] = num::f32_to_bf16(hv_[b * mlen_ + c]);
    std::fill(hv_.begin(), hv_.end(), 0.0f);
    top_->op_i = kBmvWo;
    top_->wo_row_i = row;
    const int64_t cycles = run(true);
    BOOST_TEST(cycles == lat_bmv_wo_,
               "M_BMV_WO took " << cycles << " cycles, isa.yaml latency says " << lat_bmv_wo_);
    ++n_instr_;
    compare_acc();
    compare_vram();
  }

  /// A random legal instruction sequence: 1..2 M_BMV / M_BTMV then an M_BMV_WO.
  void random_h_group() {
    const unsigned n = 1 + static_cast<unsigned>(rng_() % 2);
    for (unsigned k = 0; k < n; ++k) {
      const unsigned tile = static_cast<unsigned>(rng_() % kMramTiles);
      const unsigned r0 = hlen_ * static_cast<unsigned>(rng_() % heads_);
      bmv(tile, r0, static_cast<unsigned>(rng_() % kVramRows), rng_() % 2 == 0);
    }
    wo_h(static_cast<unsigned>(rng_() % (kVramRows - heads_ + 1)));
  }

  /// Direct access to the operand memories (both the bench's and the reference's copy).
  void set_vram(unsigned row, unsigned elem, uint16_t v) {
    vram_[row][elem] = ref_vram_[row][elem] = v;
  }
  void set_code(unsigned row, unsigned elem, uint8_t c) { codes_[row][elem] = c; }
  void set_scale(unsigned row, unsigned block, uint8_t sc) { scales_[row][block] = sc; }
  unsigned mlen() const { return mlen_; }
  unsigned blen() const { return blen_; }
  unsigned nb() const { return nb_; }
  unsigned mxb() const { return mxb_; }
  uint32_t acc_bits(unsigned i, unsigned j) const { return num::f32_bits(acc_[i * blen_ + j]); }
  uint32_t vacc_bits(unsigned j) const { return num::f32_bits(vacc_[j]); }
  uint32_t hv_bits(unsigned b, unsigned c) const { return num::f32_bits(hv_[b * mlen_ + c]); }
  uint32_t hm_bits(unsigned i, unsigned c) const {
    return num::f32_bits(hm_[size_t{i} * mlen_ + c]);
  }
  unsigned heads() const { return heads_; }

  void idle(unsigned n) {
    for (unsigned k = 0; k < n; ++k) {
      const Sample s = clock();
      BOOST_TEST(!(s.busy || s.done || s.mram_re || s.vram_re || s.vram_we), "activity while idle");
    }
  }

  /// A random legal instruction sequence: 1..3 M_MV / M_TMV then an M_MV_WO.
  void random_mv_group() {
    const unsigned n = 1 + static_cast<unsigned>(rng_() % 3);
    for (unsigned k = 0; k < n; ++k) {
      const unsigned tile = static_cast<unsigned>(rng_() % kMramTiles);
      const unsigned col = blen_ * static_cast<unsigned>(rng_() % (mlen_ / blen_));
      mv(tile, col, static_cast<unsigned>(rng_() % kVramRows), rng_() % 2 == 0);
      if (rng_() % 2) idle(static_cast<unsigned>(rng_() % 3));
    }
    wo_v(static_cast<unsigned>(rng_() % kVramRows),
         blen_ * static_cast<unsigned>(rng_() % (vlen_ / blen_)));
  }

  /// A random legal instruction sequence: 1..3 M_MM / M_TMM then an M_MM_WO.
  void random_group() {
    const unsigned n_mm = 1 + static_cast<unsigned>(rng_() % 3);
    for (unsigned k = 0; k < n_mm; ++k) {
      const unsigned tile = static_cast<unsigned>(rng_() % kMramTiles);
      const unsigned col = blen_ * static_cast<unsigned>(rng_() % (mlen_ / blen_));
      const unsigned act = static_cast<unsigned>(rng_() % (kVramRows - blen_ + 1));
      if (rng_() % 2)
        tmm(tile, col, act);
      else
        mm(tile, col, act);
      if (rng_() % 2) idle(static_cast<unsigned>(rng_() % 3));
    }
    const unsigned stride = 1 + static_cast<unsigned>(rng_() % 5);
    const unsigned row0 = static_cast<unsigned>(rng_() % (kVramRows - (blen_ - 1) * stride));
    const unsigned col = blen_ * static_cast<unsigned>(rng_() % (vlen_ / blen_));
    wo(row0, col, stride);
  }

  uint64_t mismatches() const { return mismatches_; }
  uint64_t instructions() const { return n_instr_; }
  uint64_t elements_checked() const { return elements_checked_; }
  uint64_t acc_checked() const { return acc_checked_; }

 private:
  struct Sample {
    bool busy, done, mram_re, vram_re, vram_we;
  };

  uint16_t rand_bf16(Dist d) {
    const uint16_t r = static_cast<uint16_t>(rng_());
    switch (d) {
      case Dist::Realistic:
        return static_cast<uint16_t>((r & 0x807F) | ((118 + rng_() % 16) << 7));
      case Dist::Tiny:  // subnormal / tiny activations: products and sums underflow
        return static_cast<uint16_t>((r & 0x807F) | ((rng_() % 4) << 7));
      default:
        return r;
    }
  }
  uint8_t rand_code(Dist d) {
    const uint8_t c = static_cast<uint8_t>(rng_());
    if (d == Dist::Wild) return c;
    return (c & 0x7F) == 0x7F ? static_cast<uint8_t>(c & 0xFE) : c;
  }
  uint8_t rand_scale(Dist d) {
    if (d == Dist::Wild) return static_cast<uint8_t>(rng_());
    if (d == Dist::Tiny) return static_cast<uint8_t>(rng_() % 8);
    return static_cast<uint8_t>(120 + rng_() % 14);
  }

  void reset() {
    top_->clk_i = 0;
    top_->rst_ni = 0;
    top_->start_i = 0;
    top_->eval();
    top_->clk_i = 1;
    top_->eval();
    top_->clk_i = 0;
    top_->rst_ni = 1;
    top_->eval();
  }

  /// One clock cycle: evaluate the cycle's combinational outputs, apply the memory effects of
  /// this cycle at the rising edge (VRAM write, synchronous read data for the next cycle).
  Sample clock() {
    top_->clk_i = 0;
    top_->eval();
    const Sample s{top_->busy_o != 0, top_->done_o != 0, top_->mram_re_o != 0, top_->vram_re_o != 0,
                   top_->vram_we_o != 0};
    const uint32_t mrow = top_->mram_row_o, vrow = top_->vram_row_o, wrow = top_->vram_wrow_o;
    if (s.vram_we) {
      BOOST_REQUIRE_LT(wrow, kVramRows);
      for (unsigned e = 0; e < vlen_; ++e)
        if (get_bits(top_->vram_wmask_o, e, 1))
          vram_[wrow][e] = static_cast<uint16_t>(get_bits(top_->vram_wdata_o, 16 * e, 16));
    }
    top_->clk_i = 1;
    top_->eval();
    top_->start_i = 0;
    if (s.mram_re) {
      BOOST_REQUIRE_LT(mrow, codes_.size());
      for (unsigned e = 0; e < mlen_; ++e) put_bits(top_->mram_codes_i, 8 * e, 8, codes_[mrow][e]);
      for (unsigned b = 0; b < nb_; ++b) put_bits(top_->mram_scales_i, 8 * b, 8, scales_[mrow][b]);
    }
    if (s.vram_re) {
      BOOST_REQUIRE_LT(vrow, kVramRows);
      for (unsigned e = 0; e < vlen_; ++e) put_bits(top_->vram_rdata_i, 16 * e, 16, vram_[vrow][e]);
    }
    return s;
  }

  /// Issues the prepared instruction and clocks to its done cycle; returns the cycle count
  /// (start cycle to done cycle inclusive) and checks the handshake. first_silent: a write-back
  /// whose issue cycle writes nothing (M_BMM_WO).
  int64_t run(bool is_wo, bool first_silent = false) {
    top_->start_i = 1;
    int64_t cycles = 0;
    for (;;) {
      const Sample s = clock();
      ++cycles;
      BOOST_REQUIRE_MESSAGE(s.busy, "busy_o low in cycle " << cycles - 1 << " of an instruction");
      if (is_wo) {
        BOOST_TEST(!(s.mram_re || s.vram_re), "M_MM_WO reads memory");
        BOOST_TEST(s.vram_we == !(first_silent && cycles == 1),
                   "M_*_WO cycle " << cycles - 1 << (s.vram_we ? " writes" : " writes no row"));
      } else {
        BOOST_TEST(!s.vram_we, "M_MM writes VRAM");
      }
      if (s.done) break;
      BOOST_REQUIRE_MESSAGE(cycles < 100000, "no done_o after 100000 cycles");
    }
    return cycles;
  }

  void compare_acc() {
    for (unsigned i = 0; i < blen_; ++i)
      for (unsigned j = 0; j < blen_; ++j) {
        ++acc_checked_;
        const uint32_t rtl = top_->rootp->moe_matrix_unit__DOT__acc_q[i][j];
        const uint32_t want = num::f32_bits(acc_[i * blen_ + j]);
        if (rtl != want) {
          if (mismatches_ < 8)
            BOOST_TEST_MESSAGE("acc[" << i << "][" << j << "]: rtl 0x" << std::hex << rtl
                                      << " golden 0x" << want << std::dec);
          ++mismatches_;
        }
      }
    for (unsigned j = 0; j < blen_; ++j) {
      ++acc_checked_;
      const uint32_t rtl = top_->rootp->moe_matrix_unit__DOT__vacc_q[j];
      const uint32_t want = num::f32_bits(vacc_[j]);
      if (rtl != want) {
        if (mismatches_ < 8)
          BOOST_TEST_MESSAGE("vacc[" << j << "]: rtl 0x" << std::hex << rtl << " golden 0x" << want
                                     << std::dec);
        ++mismatches_;
      }
    }
    for (unsigned k = 0; k < heads_ * mlen_; ++k) {
      ++acc_checked_;
      const uint32_t rtl = top_->rootp->moe_matrix_unit__DOT__hv_q[k];
      const uint32_t want = num::f32_bits(hv_[k]);
      if (rtl != want) {
        if (mismatches_ < 8)
          BOOST_TEST_MESSAGE("hv[" << k / mlen_ << "][" << k % mlen_ << "]: rtl 0x" << std::hex
                                   << rtl << " golden 0x" << want << std::dec);
        ++mismatches_;
      }
      hv_[k] = num::f32_from_bits(rtl);
    }
    // hm: a memory whose rows read +0.0 while their valid bit is clear.
    for (unsigned k = 0; k < heads_ * mlen_ * mlen_; ++k) {
      ++acc_checked_;
      const bool live = get_bits(top_->rootp->moe_matrix_unit__DOT__hm_live_q, k / mlen_, 1) != 0;
      const uint32_t rtl = live ? top_->rootp->moe_matrix_unit__DOT__hm_q[k] : 0u;
      const uint32_t want = num::f32_bits(hm_[k]);
      if (rtl != want) {
        if (mismatches_ < 8)
          BOOST_TEST_MESSAGE("hm[" << k / mlen_ << "][" << k % mlen_ << "]: rtl 0x" << std::hex
                                   << rtl << " golden 0x" << want << std::dec);
        ++mismatches_;
      }
      hm_[k] = num::f32_from_bits(rtl);
    }
    // Continue from the RTL's value so one divergence is reported once.
    for (unsigned i = 0; i < blen_; ++i)
      for (unsigned j = 0; j < blen_; ++j)
        acc_[i * blen_ + j] = num::f32_from_bits(top_->rootp->moe_matrix_unit__DOT__acc_q[i][j]);
    for (unsigned j = 0; j < blen_; ++j)
      vacc_[j] = num::f32_from_bits(top_->rootp->moe_matrix_unit__DOT__vacc_q[j]);
  }

  void compare_vram() {
    for (unsigned r = 0; r < kVramRows; ++r)
      for (unsigned e = 0; e < vlen_; ++e) {
        ++elements_checked_;
        if (vram_[r][e] != ref_vram_[r][e]) {
          if (mismatches_ < 8)
            BOOST_TEST_MESSAGE("VRAM row " << r << " element " << e << ": rtl 0x" << std::hex
                                           << vram_[r][e] << " golden 0x" << ref_vram_[r][e]
                                           << std::dec);
          ++mismatches_;
        }
      }
    // Keep the two copies equal so one divergence is reported once.
    vram_ = ref_vram_;
  }

  const isa::Spec& spec_;
  const isa::MachinePreset& preset_;
  unsigned mlen_, vlen_, blen_, hlen_, heads_, mxb_, nb_;
  std::mt19937_64 rng_;
  std::unique_ptr<VerilatedContext> ctx_;
  std::unique_ptr<Model> top_;
  int64_t lat_bmv_ = 0, lat_btmv_ = 0, lat_bmv_wo_ = 0, lat_bmm_ = 0, lat_btmm_ = 0,
          lat_bmm_wo_ = 0;
  int64_t lat_mm_ = 0, lat_tmm_ = 0, lat_wo_ = 0, lat_mv_ = 0, lat_tmv_ = 0, lat_mv_wo_ = 0;
  std::vector<std::vector<uint16_t>> vram_, ref_vram_;
  std::vector<std::vector<uint8_t>> codes_, scales_;
  std::vector<float> acc_, vacc_, hv_, hm_;
  uint64_t mismatches_ = 0, n_instr_ = 0, elements_checked_ = 0, acc_checked_ = 0;
};

template <typename Model>
void run_preset(const std::string& preset, Dist dist, unsigned groups, uint64_t seed) {
  MatrixBench<Model> b(preset, seed);
  b.fill(dist);
  for (unsigned g = 0; g < groups; ++g) {
    if (g % 2) b.random_mv_group();  // interleaved: each accumulator survives the others' use
    if (g % 8 == 3) b.random_h_group();
    if (g % 64 == 5) b.random_hm_group();
    b.random_group();
    if (g % 16 == 15) b.fill(dist);  // fresh operands now and then (acc is empty after a WO)
  }
  BOOST_TEST_MESSAGE("moe_matrix_unit[" << preset << "]: " << b.instructions() << " instructions, "
                                        << b.acc_checked() << " accumulator values and "
                                        << b.elements_checked() << " VRAM elements compared, "
                                        << b.mismatches() << " mismatches");
  BOOST_TEST(b.mismatches() == 0u);
}

}  // namespace

BOOST_AUTO_TEST_CASE(default_realistic) {
  run_preset<Vmoe_matrix_unit_default>("default", Dist::Realistic, 300, 1);
}
BOOST_AUTO_TEST_CASE(default_wild) {
  run_preset<Vmoe_matrix_unit_default>("default", Dist::Wild, 150, 2);
}
BOOST_AUTO_TEST_CASE(default_tiny_values) {
  run_preset<Vmoe_matrix_unit_default>("default", Dist::Tiny, 100, 3);
}
BOOST_AUTO_TEST_CASE(tiny_realistic) {
  run_preset<Vmoe_matrix_unit_tiny>("tiny", Dist::Realistic, 400, 4);
}
BOOST_AUTO_TEST_CASE(tiny_wild) { run_preset<Vmoe_matrix_unit_tiny>("tiny", Dist::Wild, 200, 5); }
// mx32 (MX_BLOCK 32, otherwise `default`): the 32-element block dots and TXDOT K blocks.
BOOST_AUTO_TEST_CASE(mx32_realistic) {
  run_preset<Vmoe_matrix_unit_mx32>("mx32", Dist::Realistic, 150, 21);
}
BOOST_AUTO_TEST_CASE(mx32_wild) { run_preset<Vmoe_matrix_unit_mx32>("mx32", Dist::Wild, 100, 22); }

// Back-to-back issue (start_i in the cycle after done_o) and the accumulator's persistence: two
// M_MMs on the same operands must give twice one M_MM's (rounded) sum, and a WO right after a WO
// writes zeros.
BOOST_AUTO_TEST_CASE(default_back_to_back_and_clear) {
  MatrixBench<Vmoe_matrix_unit_default> b("default", 7);
  b.fill(Dist::Realistic);
  b.mm(0, 0, 0);
  b.mm(0, 0, 0);
  b.wo(10, 0, 1);
  b.wo(20, 4, 2);  // accumulator was cleared: zeros
  b.mm(1, 60, 3);
  b.wo(0, 60, 7);
  BOOST_TEST(b.mismatches() == 0u);
}

// The K blocks are accumulated in order b = 0, 1, ... onto the running accumulator: with all
// activations 1.0, a first M_MM leaves acc = 2^43 (block 0 only: 8 codes 1.0, scale 2^40); a second
// one with block 0 summing to -2^43 and block 1 (elements MX_BLOCK ..) to 8 (the rest 0) gives
// (2^43 - 2^43) + 8 = 8 exactly, while adding the 8 before the -2^43 absorbs it (2^43 + 8 = 2^43 in
// FP32) and gives 0. Checked against the reference and the literal 8.0, through the accumulator and
// the write-back.
template <typename Model>
void k_order_case(const std::string& preset) {
  MatrixBench<Model> b(preset, 9);
  b.fill(Dist::Realistic);
  const unsigned mlen = b.mlen(), blen = b.blen();
  for (unsigned i = 0; i < blen; ++i)
    for (unsigned e = 0; e < mlen; ++e) b.set_vram(i, e, 0x3F80);  // 1.0
  for (unsigned j = 0; j < blen; ++j) {
    for (unsigned e = 0; e < mlen; ++e) {
      b.set_code(j, e, e < 8 ? 0x38 : 0x00);  // tile 0: +1.0 in block 0
      const bool blk1 = e >= b.mxb() && e < b.mxb() + 8;
      b.set_code(mlen + j, e, e < 8 ? 0xB8 : (blk1 ? 0x38 : 0x00));  // tile 1: -1.0, +1.0
    }
    for (unsigned blk = 0; blk < b.nb(); ++blk) {
      b.set_scale(j, blk, blk == 0 ? 127 + 40 : 127);
      b.set_scale(mlen + j, blk, blk == 0 ? 127 + 40 : 127);
    }
  }
  b.mm(0, 0, 0);
  for (unsigned i = 0; i < blen; ++i)
    for (unsigned j = 0; j < blen; ++j) BOOST_TEST(b.acc_bits(i, j) == 0x55000000u);  // 2^43
  b.mm(1, 0, 0);
  for (unsigned i = 0; i < blen; ++i)
    for (unsigned j = 0; j < blen; ++j) BOOST_TEST(b.acc_bits(i, j) == 0x41000000u);  // 8.0
  b.wo(50, 0, 1);
  BOOST_TEST(b.mismatches() == 0u);
}

BOOST_AUTO_TEST_CASE(default_k_order) { k_order_case<Vmoe_matrix_unit_default>("default"); }
BOOST_AUTO_TEST_CASE(tiny_k_order) { k_order_case<Vmoe_matrix_unit_tiny>("tiny"); }
BOOST_AUTO_TEST_CASE(mx32_k_order) { k_order_case<Vmoe_matrix_unit_mx32>("mx32"); }

// The vector accumulator and the M_MM accumulator are separate: M_MV twice on the same operands,
// an M_MM and its M_MM_WO in between leave vacc alone; M_MV_WO right after M_MV_WO writes zeros;
// back-to-back M_TMV / M_MV (start_i in the cycle after done_o).
BOOST_AUTO_TEST_CASE(default_vector_accumulator) {
  MatrixBench<Vmoe_matrix_unit_default> b("default", 11);
  b.fill(Dist::Realistic);
  b.mv(0, 4, 5, false);
  b.mm(1, 8, 0);
  b.wo(30, 0, 1);
  b.mv(0, 4, 5, false);
  b.wo_v(40, 8);
  b.wo_v(41, 60);  // cleared: zeros
  b.mv(2, 60, 7, true);
  b.mv(2, 0, 7, false);
  b.mv(1, 32, 9, true);
  b.wo_v(42, 0);
  BOOST_TEST(b.mismatches() == 0u);
}

// M_TMV's per-element scale: column 0, K block 0 has row 0 code 1.0 and row 1 code -1.0, both with
// scale 2^40, row 2 code 1.0 with scale 2^0, rows 3.. code 0; activations 1.0. The per-element rule
// gives (2^40 - 2^40) + 1 = 1 exactly; one block scale (M_MM's rule applied to the transposed
// tile) could not.
template <typename Model>
void tmv_scale_case(const std::string& preset) {
  MatrixBench<Model> b(preset, 13);
  b.fill(Dist::Realistic);
  const unsigned mlen = b.mlen();
  for (unsigned e = 0; e < mlen; ++e) b.set_vram(0, e, 0x3F80);  // 1.0
  for (unsigned r = 0; r < mlen; ++r) {
    b.set_code(r, 0, r == 0 || r == 2 ? 0x38 : (r == 1 ? 0xB8 : 0x00));
    b.set_scale(r, 0, r < 2 ? 127 + 40 : 127);
  }
  b.mv(0, 0, 0, true);
  BOOST_TEST(b.vacc_bits(0) == 0x3F800000u);  // 1.0
  b.wo_v(1, 0);
  BOOST_TEST(b.mismatches() == 0u);
}

BOOST_AUTO_TEST_CASE(default_tmv_scale) { tmv_scale_case<Vmoe_matrix_unit_default>("default"); }

// M_TMM shares M_MM's accumulator (an M_MM then an M_TMM accumulate into the same acc, one
// M_MM_WO writes both) and leaves vacc alone; back-to-back M_TMM / M_MM / M_TMV.
BOOST_AUTO_TEST_CASE(default_tmm_shares_acc) {
  MatrixBench<Vmoe_matrix_unit_default> b("default", 17);
  b.fill(Dist::Realistic);
  b.mv(0, 8, 2, true);
  b.mm(1, 4, 0);
  b.tmm(2, 60, 5);
  b.tmm(0, 0, 0);
  b.wo(20, 8, 3);
  b.tmm(1, 32, 9);
  b.mv(2, 4, 1, false);
  b.wo(40, 0, 1);
  b.wo_v(60, 4);
  BOOST_TEST(b.mismatches() == 0u);
}
BOOST_AUTO_TEST_CASE(tiny_tmv_scale) { tmv_scale_case<Vmoe_matrix_unit_tiny>("tiny"); }
BOOST_AUTO_TEST_CASE(mx32_tmv_scale) { tmv_scale_case<Vmoe_matrix_unit_mx32>("mx32"); }

// The per-head accumulator is separate from acc and vacc (an M_MV_WO and an M_MM_WO between two
// M_BMVs leave hv alone), M_BMV_WO right after M_BMV_WO writes zeros, and the layouts differ:
// M_BMV reads head b's element d at d*B + b, M_BTMV at b*HLEN + d. Head 1 of an activation row
// holding 1.0 only at index 1*HLEN (M_BTMV's head 1, element 0) against tile rows with code 1.0 in
// column 0 gives hv[1][0] = 0.25 for M_BTMV; M_BMV reads index d*B + 1 there instead.
template <typename Model>
void head_case(const std::string& preset) {
  MatrixBench<Model> b(preset, 19);
  b.fill(Dist::Realistic);
  const unsigned mlen = b.mlen();
  b.bmv(1, 0, 4, false);
  b.mv(0, 4, 5, false);
  b.wo_v(40, 8);
  b.mm(1, 8, 0);
  b.wo(30, 0, 1);
  b.bmv(2, mlen - mlen / 4, 6, true);
  b.wo_h(50);
  b.wo_h(60);  // cleared: zeros
  for (unsigned e = 0; e < mlen; ++e) b.set_vram(7, e, e == mlen / 4 ? 0x3F80 : 0x0000);
  for (unsigned r = 0; r < mlen; ++r)
    for (unsigned c = 0; c < mlen; ++c) b.set_code(r, c, c == 0 ? 0x38 : 0x00);
  for (unsigned r = 0; r < mlen; ++r)
    for (unsigned k = 0; k < b.nb(); ++k) b.set_scale(r, k, 127);
  b.bmv(0, 0, 7, true);
  BOOST_TEST(b.hv_bits(1, 0) == 0x3E800000u);  // 0.25
  b.wo_h(70);
  BOOST_TEST(b.mismatches() == 0u);
}

BOOST_AUTO_TEST_CASE(default_heads) { head_case<Vmoe_matrix_unit_default>("default"); }
BOOST_AUTO_TEST_CASE(tiny_heads) { head_case<Vmoe_matrix_unit_tiny>("tiny"); }
BOOST_AUTO_TEST_CASE(mx32_heads) { head_case<Vmoe_matrix_unit_mx32>("mx32"); }

// The per-head matrix accumulator hm is separate from hv, acc and vacc (an M_BMV, its M_BMV_WO, an
// M_MM and its M_MM_WO between an M_BMM and an M_BTMM leave hm alone; M_BMV_WO leaves hm alone),
// M_BMM_WO right after M_BMM_WO writes zeros, activation row m feeds hm rows b*MLEN + m (the next
// row is fetched while the current one is worked on), and the layouts differ as M_BMV's / M_BTMV's:
// activation row 5 holding 1.0 only at index HLEN (M_BTMM's head 1, element 0) against tile rows
// with code 1.0 in column 0 gives hm[1*MLEN + 5][0] = 0.25 for M_BTMM and +0 in every other row.
template <typename Model>
void head_matrix_case(const std::string& preset) {
  MatrixBench<Model> b(preset, 23);
  b.fill(Dist::Realistic);
  const unsigned mlen = b.mlen();
  b.bmm(1, 0, 4, false);
  b.bmv(2, mlen / 4, 6, true);
  b.mm(1, 8, 0);
  b.wo(30, 0, 1);
  b.wo_h(50);
  b.bmm(2, mlen - mlen / 4, 9, true);
  b.wo_hm(0);
  b.wo_hm(kVramRows - b.heads() * mlen);  // cleared: zeros
  for (unsigned m = 0; m < mlen; ++m)
    for (unsigned e = 0; e < mlen; ++e)
      b.set_vram(100 + m, e, m == 5 && e == mlen / 4 ? 0x3F80 : 0x0000);
  for (unsigned r = 0; r < mlen; ++r)
    for (unsigned c = 0; c < mlen; ++c) b.set_code(r, c, c == 0 ? 0x38 : 0x00);
  for (unsigned r = 0; r < mlen; ++r)
    for (unsigned k = 0; k < b.nb(); ++k) b.set_scale(r, k, 127);
  b.bmm(0, 0, 100, true);
  BOOST_TEST(b.hm_bits(mlen + 5, 0) == 0x3E800000u);  // 0.25
  BOOST_TEST(b.hm_bits(mlen + 4, 0) == 0u);
  BOOST_TEST(b.hm_bits(5, 0) == 0u);
  b.wo_hm(1);
  BOOST_TEST(b.mismatches() == 0u);
}

BOOST_AUTO_TEST_CASE(default_head_matrix) { head_matrix_case<Vmoe_matrix_unit_default>("default"); }
BOOST_AUTO_TEST_CASE(tiny_head_matrix) { head_matrix_case<Vmoe_matrix_unit_tiny>("tiny"); }
BOOST_AUTO_TEST_CASE(mx32_head_matrix) { head_matrix_case<Vmoe_matrix_unit_mx32>("mx32"); }
