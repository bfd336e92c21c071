#include "matrix_unit.hpp"

#include <algorithm>
#include <array>
#include <cstring>
#include <stdexcept>
#include <string>

#include "moesim/isa/numerics.hpp"

namespace moesim::golden {

using isa::Opcode;
using isa::TrapCause;

namespace {
/// M_MM_WO destination: d = gp[rd] + imm, row stride n = gp[rs1] (0 means 1).
struct WriteOut {
  Addr d;
  uint64_t n;
};
WriteOut write_out_args(const Issue& is) {
  const uint32_t n = is.gp(is.d.rs1);
  return {Addr{is.gp(is.d.rd)} + is.d.imm18, n == 0 ? 1u : n};
}
bool is_mv(Opcode op) { return op == Opcode::M_MV || op == Opcode::M_TMV; }
bool is_bmv(Opcode op) { return op == Opcode::M_BMV || op == Opcode::M_BTMV; }
bool is_bmm(Opcode op) { return op == Opcode::M_BMM || op == Opcode::M_BTMM; }
/// M_BMV / M_BTMV matrix address a = gp[rs1] + gp[rd] (exact); M_BMM / M_BTMM: gp[rs1] (rd is a
/// zero field).
Addr bmv_addr(const Issue& is) {
  return Addr{is.gp(is.d.rs1)} + (is_bmm(is.op) ? 0u : is.gp(is.d.rd));
}
}  // namespace

MatrixUnit::MatrixUnit(sc_core::sc_module_name name, const Geometry& g)
    : sc_module(name),
      g_(g),
      acc_(g.blen * g.blen, 0.0f),
      vacc_(g.blen, 0.0f),
      hv_(g.mlen / g.hlen * g.mlen, 0.0f),
      hm_(g.mlen / g.hlen * g.mlen * g.mlen, 0.0f),
      bmm_scale_(num::f32_from_bits(isa::kFp32_BMM_SCALE)) {}

bool MatrixUnit::implements(Opcode op) const {
  return op == Opcode::M_MM || op == Opcode::M_TMM || op == Opcode::M_MM_WO || is_mv(op) ||
         op == Opcode::M_MV_WO || is_bmv(op) || op == Opcode::M_BMV_WO || is_bmm(op) ||
         op == Opcode::M_BMM_WO;
}

void MatrixUnit::reset() {
  std::fill(acc_.begin(), acc_.end(), 0.0f);
  std::fill(vacc_.begin(), vacc_.end(), 0.0f);
  std::fill(hv_.begin(), hv_.end(), 0.0f);
  std::fill(hm_.begin(), hm_.end(), 0.0f);
}

namespace {

std::vector<uint32_t> bits_of(const std::vector<float>& v) {
  std::vector<uint32_t> out(v.size());
  if (!v.empty()) std::memcpy(out.data(), v.data(), v.size() * sizeof(float));
  return out;
}

void set_bits(std::vector<float>& v, const std::vector<uint32_t>& bits) {
  if (bits.size() != v.size())
    throw std::invalid_argument("golden: matrix accumulator of " + std::to_string(v.size()) +
                                " words restored from " + std::to_string(bits.size()));
  if (!v.empty()) std::memcpy(v.data(), bits.data(), v.size() * sizeof(float));
}

}  // namespace

void MatrixUnit::save(isa::ArchState& s) const {
  s.acc = bits_of(acc_);
  s.vacc = bits_of(vacc_);
  s.hv = bits_of(hv_);
  s.hm = bits_of(hm_);
}

void MatrixUnit::restore(const isa::ArchState& s) {
  set_bits(acc_, s.acc);
  set_bits(vacc_, s.vacc);
  set_bits(hv_, s.hv);
  set_bits(hm_, s.hm);
}

TrapSet MatrixUnit::check(const Issue& is) {
  TrapSet t;
  if (is.op == Opcode::M_MM) {
    // Weights: tile rows c .. c+BLEN-1 of tile T, i.e. global rows gp[rs1]/MLEN .. + BLEN.
    const Addr w = is.gp(is.d.rs1);
    const Addr column = (w / g_.mlen) % g_.mlen;
    t.add_if(w % g_.mlen != 0 || column % g_.blen != 0, TrapCause::address_misaligned);
    check_mram_rows(t, g_, w / g_.mlen, g_.blen, Access::Read);
    // Activations: BLEN VRAM rows from gp[rs2].
    check_vram_rows(t, g_, is.gp(is.d.rs2), g_.blen, Access::Read);
  } else if (is.op == Opcode::M_TMM) {
    // Weights: all MLEN rows of tile T = gp[rs2] / MLEN^2, column offset c as M_MM.
    const Addr w = is.gp(is.d.rs2);
    const Addr column = (w / g_.mlen) % g_.mlen;
    t.add_if(w % g_.mlen != 0 || column % g_.blen != 0, TrapCause::address_misaligned);
    check_mram_tile(t, g_, w / (Addr{g_.mlen} * g_.mlen), Access::Read);
    // Activations: BLEN VRAM rows from gp[rs1].
    check_vram_rows(t, g_, is.gp(is.d.rs1), g_.blen, Access::Read);
  } else if (is.op == Opcode::M_MM_WO) {
    const WriteOut wo = write_out_args(is);
    t.add_if((wo.d % g_.vlen) % g_.blen != 0, TrapCause::address_misaligned);
    // Rows d/VLEN + i*n (i < BLEN): covered as the interval from the first to the last.
    check_vram_row_range(t, g_, wo.d / g_.vlen, Addr{g_.blen - 1} * wo.n + 1, Access::Write);
  } else if (is_mv(is.op)) {
    // Tile T = gp[rs1] / MLEN^2 with the element-granular column offset c = gp[rs1] mod MLEN^2.
    const Addr w = is.gp(is.d.rs1);
    const Addr tile_elems = Addr{g_.mlen} * g_.mlen;
    const Addr column = w % tile_elems;
    t.add_if(column >= g_.mlen || column % g_.blen != 0, TrapCause::address_misaligned);
    check_mram_tile(t, g_, w / tile_elems, Access::Read);
    check_vram_rows(t, g_, is.gp(is.d.rs2), 1, Access::Read);
  } else if (is.op == Opcode::M_MV_WO) {
    const Addr d = Addr{is.gp(is.d.rd)} + is.d.imm18;
    t.add_if((d % g_.vlen) % g_.blen != 0, TrapCause::address_misaligned);
    check_vram_row_range(t, g_, d / g_.vlen, 1, Access::Write);
  } else if (is_bmv(is.op) || is_bmm(is.op)) {
    // Tile T = a / MLEN^2 with row offset r0 = a mod MLEN^2 (a multiple of HLEN below MLEN);
    // M_BMM / M_BTMM read MLEN activation rows, M_BMV / M_BTMV one.
    const Addr a = bmv_addr(is);
    const Addr tile_elems = Addr{g_.mlen} * g_.mlen;
    const Addr r0 = a % tile_elems;
    t.add_if(r0 >= g_.mlen || r0 % g_.hlen != 0, TrapCause::address_misaligned);
    check_mram_tile(t, g_, a / tile_elems, Access::Read);
    check_vram_rows(t, g_, is.gp(is.d.rs2), is_bmm(is.op) ? g_.mlen : 1, Access::Read);
  } else if (is.op == Opcode::M_BMV_WO || is.op == Opcode::M_BMM_WO) {
    const Addr d = Addr{is.gp(is.d.rd)} + is.d.imm18;
    const uint64_t heads = g_.mlen / g_.hlen;
    check_vram_rows(t, g_, d, is.op == Opcode::M_BMM_WO ? heads * g_.mlen : heads, Access::Write);
  }
  return t;
}

std::map<std::string, int64_t> MatrixUnit::latency_vars(const Issue& /*is*/) const { return {}; }

void MatrixUnit::execute(const Issue& is, Effects& fx) {
  switch (is.op) {
    case Opcode::M_MM:
      mm(is);
      break;
    case Opcode::M_TMM:
      tmm(is);
      break;
    case Opcode::M_MM_WO:
      write_out(is, fx);
      break;
    case Opcode::M_MV:
      mv(is, false);
      break;
    case Opcode::M_TMV:
      mv(is, true);
      break;
    case Opcode::M_MV_WO:
      write_out_v(is, fx);
      break;
    case Opcode::M_BMV:
      head_mac(is, false, 1, hv_);
      break;
    case Opcode::M_BTMV:
      head_mac(is, true, 1, hv_);
      break;
    case Opcode::M_BMV_WO:
      write_out_heads(is, fx, hv_);
      break;
    case Opcode::M_BMM:
      head_mac(is, false, g_.mlen, hm_);
      break;
    case Opcode::M_BTMM:
      head_mac(is, true, g_.mlen, hm_);
      break;
    case Opcode::M_BMM_WO:
      write_out_heads(is, fx, hm_);
      break;
    default:
      throw std::logic_error("golden: matrix unit cannot execute opcode " +
                             std::to_string(is.d.opcode));
  }
}

void MatrixUnit::mm(const Issue& is) {
  const uint64_t blen = g_.blen;
  const uint64_t k = g_.mlen;
  const uint64_t row_bytes = g_.mram_row_bytes();
  const uint64_t a_row0 = is.gp(is.d.rs2) / g_.vlen;
  const uint64_t w_row0 = is.gp(is.d.rs1) / g_.mlen;
  const std::vector<uint16_t> a = vram.read_u16(a_row0 * g_.vram_row_bytes(), blen * g_.vlen);
  std::vector<uint8_t> w(blen * row_bytes);
  mram.read(w_row0 * row_bytes, w.data(), w.size());
  for (uint64_t i = 0; i < blen; ++i) {
    const uint16_t* ai = a.data() + i * g_.vlen;
    for (uint64_t j = 0; j < blen; ++j) {
      const uint8_t* codes = w.data() + j * row_bytes;
      const uint8_t* scales = codes + k;
      float& acc = acc_[i * blen + j];
      for (uint64_t b = 0; b < k / g_.mx_block; ++b) {
        acc = num::add(acc, num::mx_block_dot(ai + b * g_.mx_block, codes + b * g_.mx_block,
                                              g_.mx_block, scales[b]));
      }
    }
  }
}

void MatrixUnit::tmm(const Issue& is) {
  const uint64_t blen = g_.blen;
  const uint64_t k = g_.mlen;
  const uint64_t w = is.gp(is.d.rs2);
  const std::vector<uint8_t> tile = read_tile(w / (k * k));
  const std::vector<uint16_t> a =
      vram.read_u16(is.gp(is.d.rs1) / g_.vlen * g_.vram_row_bytes(), blen * g_.vlen);
  const uint64_t c = (w % (k * k)) / k;
  for (uint64_t i = 0; i < blen; ++i)
    for (uint64_t j = 0; j < blen; ++j)
      for (uint64_t b = 0; b < k / g_.mx_block; ++b)
        acc_[i * blen + j] =
            num::add(acc_[i * blen + j], tdot_block(tile, a.data() + i * g_.vlen, c + j, b));
}

std::vector<uint8_t> MatrixUnit::read_tile(uint64_t t) {
  const uint64_t row_bytes = g_.mram_row_bytes();
  std::vector<uint8_t> tile(g_.mlen * row_bytes);
  mram.read(t * g_.mlen * row_bytes, tile.data(), tile.size());
  return tile;
}

float MatrixUnit::tdot_block(const std::vector<uint8_t>& tile, const uint16_t* a, uint64_t col,
                             uint64_t b) const {
  const uint64_t row_bytes = g_.mram_row_bytes();
  const uint64_t n = g_.mx_block;
  std::array<uint8_t, num::kMxDotMax> codes, scales;
  for (uint64_t t = 0; t < n; ++t) {
    const uint8_t* row = tile.data() + (b * n + t) * row_bytes;
    codes[t] = row[col];
    scales[t] = row[g_.mlen + col / n];
  }
  return num::mx_block_tdot(a + b * n, codes.data(), scales.data(), n);
}

void MatrixUnit::write_out(const Issue& is, Effects& fx) {
  const WriteOut wo = write_out_args(is);
  const auto row0 = static_cast<uint64_t>(wo.d / g_.vlen);
  const auto col = static_cast<uint64_t>(wo.d % g_.vlen);
  for (uint64_t i = 0; i < g_.blen; ++i) {
    std::vector<uint16_t> v(g_.blen);
    for (uint64_t j = 0; j < g_.blen; ++j) v[j] = num::f32_to_bf16(acc_[i * g_.blen + j]);
    const uint64_t row = row0 + i * wo.n;
    vram.write_u16(row * g_.vram_row_bytes() + 2 * col, v);
    fx.wrote(isa::Space::Vram, row, row + 1);
  }
  std::fill(acc_.begin(), acc_.end(), 0.0f);
}

void MatrixUnit::mv(const Issue& is, bool transposed) {
  const uint64_t blen = g_.blen;
  const uint64_t k = g_.mlen;
  const uint64_t nb = k / g_.mx_block;
  const uint64_t row_bytes = g_.mram_row_bytes();
  const uint64_t w = is.gp(is.d.rs1);
  const uint64_t tile_row0 = w / (k * k) * k;  // MRAM row of tile row 0
  const uint64_t c = w % (k * k);
  const std::vector<uint16_t> a =
      vram.read_u16(is.gp(is.d.rs2) / g_.vlen * g_.vram_row_bytes(), g_.vlen);
  if (!transposed) {
    // Tile rows c .. c+BLEN-1 are the weight columns, K along each row as M_MM.
    std::vector<uint8_t> rows(blen * row_bytes);
    mram.read((tile_row0 + c) * row_bytes, rows.data(), rows.size());
    for (uint64_t j = 0; j < blen; ++j) {
      const uint8_t* codes = rows.data() + j * row_bytes;
      for (uint64_t b = 0; b < nb; ++b)
        vacc_[j] = num::add(vacc_[j],
                            num::mx_block_dot(a.data() + b * g_.mx_block, codes + b * g_.mx_block,
                                              g_.mx_block, codes[k + b]));
    }
    return;
  }
  // Transposed: K runs over the MLEN tile rows; column c+j of row r has its own scale.
  const std::vector<uint8_t> tile = read_tile(w / (k * k));
  for (uint64_t j = 0; j < blen; ++j)
    for (uint64_t b = 0; b < nb; ++b)
      vacc_[j] = num::add(vacc_[j], tdot_block(tile, a.data(), c + j, b));
}

void MatrixUnit::write_out_v(const Issue& is, Effects& fx) {
  const Addr d = Addr{is.gp(is.d.rd)} + is.d.imm18;
  const auto row = static_cast<uint64_t>(d / g_.vlen);
  const auto col = static_cast<uint64_t>(d % g_.vlen);
  std::vector<uint16_t> v(g_.blen);
  for (uint64_t j = 0; j < g_.blen; ++j) v[j] = num::f32_to_bf16(vacc_[j]);
  vram.write_u16(row * g_.vram_row_bytes() + 2 * col, v);
  fx.wrote(isa::Space::Vram, row, row + 1);
  std::fill(vacc_.begin(), vacc_.end(), 0.0f);
}

float MatrixUnit::hdot(const std::vector<uint8_t>& tile, uint64_t r0, const uint16_t* act,
                       uint64_t b, uint64_t c, bool transposed) const {
  const uint64_t k = g_.mlen;
  const uint64_t heads = g_.mlen / g_.hlen;
  const uint64_t row_bytes = g_.mram_row_bytes();
  // HDOT is M_TMV's per-element-scale dot (TXDOT) over the HLEN elements of one head.
  std::array<uint16_t, num::kMxDotMax> x;
  std::array<uint8_t, num::kMxDotMax> codes, scales;
  for (uint64_t d = 0; d < g_.hlen; ++d) {
    // M_BMV: W[r0+d][c], activation [HLEN][B]; M_BTMV: W[c][r0+d], activation [B][HLEN].
    const uint64_t row = transposed ? c : r0 + d;
    const uint64_t col = transposed ? r0 + d : c;
    const uint8_t* r = tile.data() + row * row_bytes;
    x[d] = act[transposed ? b * g_.hlen + d : d * heads + b];
    codes[d] = r[col];
    scales[d] = r[k + col / g_.mx_block];
  }
  return num::mul(num::mx_block_tdot(x.data(), codes.data(), scales.data(), g_.hlen), bmm_scale_);
}

void MatrixUnit::head_mac(const Issue& is, bool transposed, uint64_t rows,
                          std::vector<float>& acc) {
  const uint64_t k = g_.mlen;
  const uint64_t heads = g_.mlen / g_.hlen;
  const Addr a = bmv_addr(is);
  const uint64_t r0 = static_cast<uint64_t>(a % (k * k));
  const std::vector<uint8_t> tile = read_tile(static_cast<uint64_t>(a / (k * k)));
  // Activation row m is M_BMV's (M_BTMV's) activation row for accumulator rows b * rows + m.
  const std::vector<uint16_t> act =
      vram.read_u16(is.gp(is.d.rs2) / g_.vlen * g_.vram_row_bytes(), rows * g_.vlen);
  for (uint64_t m = 0; m < rows; ++m)
    for (uint64_t b = 0; b < heads; ++b)
      for (uint64_t c = 0; c < k; ++c) {
        float& h = acc[(b * rows + m) * k + c];
        h = num::add(h, hdot(tile, r0, act.data() + m * g_.vlen, b, c, transposed));
      }
}

void MatrixUnit::write_out_heads(const Issue& is, Effects& fx, std::vector<float>& acc) {
  const auto row0 = static_cast<uint64_t>((Addr{is.gp(is.d.rd)} + is.d.imm18) / g_.vlen);
  const uint64_t rows = acc.size() / g_.mlen;
  std::vector<uint16_t> v(g_.mlen);
  for (uint64_t i = 0; i < rows; ++i) {
    for (uint64_t c = 0; c < g_.mlen; ++c) v[c] = num::f32_to_bf16(acc[i * g_.mlen + c]);
    vram.write_u16((row0 + i) * g_.vram_row_bytes(), v);
  }
  fx.wrote(isa::Space::Vram, row0, row0 + rows);
  std::fill(acc.begin(), acc.end(), 0.0f);
}

}  // namespace moesim::golden
