#include "vector_unit.hpp"

#include <stdexcept>

#include "moesim/isa/numerics.hpp"

namespace moesim::golden {

using isa::Opcode;
using isa::Space;

VectorUnit::VectorUnit(sc_core::sc_module_name name, const Geometry& g) : sc_module(name), g_(g) {}

bool VectorUnit::implements(Opcode op) const {
  switch (op) {
    case Opcode::V_ADD_VV:
    case Opcode::V_SUB_VV:
    case Opcode::V_MUL_VV:
    case Opcode::V_ADD_VF:
    case Opcode::V_MUL_VF:
    case Opcode::V_MAX_VF:
    case Opcode::V_MIN_VF:
    case Opcode::V_EXP_V:
    case Opcode::V_RECI_V:
    case Opcode::V_RED_SUM:
    case Opcode::V_SUB_VF:
    case Opcode::V_RED_MAX:
    case Opcode::V_PS_V:
    case Opcode::V_SHFT_V:
    case Opcode::V_GATHER:
    case Opcode::V_SCATTER_ADD:
      return true;
    default:
      return false;
  }
}

TrapSet VectorUnit::check(const Issue& is) {
  const isa::Decoded& d = is.d;
  TrapSet t;
  switch (is.op) {
    case Opcode::V_ADD_VV:
    case Opcode::V_SUB_VV:
    case Opcode::V_MUL_VV:
      check_vram_rows(t, g_, is.gp(d.rs2), 1, Access::Read);
      [[fallthrough]];
    case Opcode::V_ADD_VF:
    case Opcode::V_SUB_VF:
    case Opcode::V_MUL_VF:
    case Opcode::V_MAX_VF:
    case Opcode::V_MIN_VF:
    case Opcode::V_EXP_V:
    case Opcode::V_RECI_V:
    case Opcode::V_PS_V:
    case Opcode::V_SHFT_V:
      check_vram_rows(t, g_, is.gp(d.rd), 1, Access::Write);
      [[fallthrough]];
    case Opcode::V_RED_SUM:
    case Opcode::V_RED_MAX:
      check_vram_rows(t, g_, is.gp(d.rs1), 1, Access::Read);
      break;
    case Opcode::V_GATHER:
    case Opcode::V_SCATTER_ADD: {
      // The token index t = INT_SRAM[gp[rs2]] is read at issue; the indexed row is gp[rs1] + t*VLEN
      // (gather source) or gp[rd] + t*VLEN (scatter destination).
      const bool gather = is.op == Opcode::V_GATHER;
      check_vram_rows(t, g_, is.gp(gather ? d.rd : d.rs1), 1,
                      gather ? Access::Write : Access::Read);
      const uint64_t index_addr = is.gp(d.rs2);
      check_range(t, index_addr, 1, g_.int_sram_words);
      if (index_addr < g_.int_sram_words) {
        const uint32_t tok = int_sram.read_u32(4 * index_addr);
        check_vram_rows(t, g_, Addr{is.gp(gather ? d.rs1 : d.rd)} + Addr{tok} * g_.vlen, 1,
                        gather ? Access::Read : Access::ReadWrite);
      }
      break;
    }
    default:
      break;
  }
  return t;
}

std::map<std::string, int64_t> VectorUnit::latency_vars(const Issue& /*is*/) const { return {}; }

std::vector<uint16_t> VectorUnit::read_row(uint64_t row) {
  return vram.read_u16(row * g_.vram_row_bytes(), g_.vlen);
}

void VectorUnit::write_row(uint64_t row, const std::vector<uint16_t>& v, Effects& fx) {
  vram.write_u16(row * g_.vram_row_bytes(), v);
  fx.wrote(Space::Vram, row, row + 1);
}

bool VectorUnit::selected(const Issue& is, uint64_t e) const {
  if (is.d.r3 == 0) return true;
  const uint64_t head = e / g_.hlen;
  return head < 32 && ((is.regs.v_mask >> head) & 1u) != 0;
}

void VectorUnit::execute(const Issue& is, Effects& fx) {
  const isa::Decoded& d = is.d;
  const uint64_t rd_row = is.gp(d.rd) / g_.vlen;
  const uint64_t rs1_row = is.gp(d.rs1) / g_.vlen;
  using Binary = float (*)(float, float);
  Binary binary = nullptr;
  switch (is.op) {
    case Opcode::V_ADD_VV:
    case Opcode::V_ADD_VF:
      binary = num::add;
      break;
    case Opcode::V_SUB_VV:
      binary = num::sub;
      break;
    case Opcode::V_MUL_VV:
    case Opcode::V_MUL_VF:
      binary = num::mul;
      break;
    case Opcode::V_MAX_VF:
      binary = num::max;
      break;
    case Opcode::V_MIN_VF:
      binary = num::min;
      break;
    default:
      break;
  }
  switch (is.op) {
    case Opcode::V_ADD_VV:
    case Opcode::V_SUB_VV:
    case Opcode::V_MUL_VV: {
      std::vector<uint16_t> a = read_row(rs1_row);
      const std::vector<uint16_t> b = read_row(is.gp(d.rs2) / g_.vlen);
      for (uint64_t e = 0; e < g_.vlen; ++e) {
        if (selected(is, e)) {
          a[e] = num::f32_to_bf16(binary(num::bf16_to_f32(a[e]), num::bf16_to_f32(b[e])));
        }
      }
      write_row(rd_row, a, fx);
      break;
    }
    case Opcode::V_ADD_VF:
    case Opcode::V_MUL_VF:
    case Opcode::V_MAX_VF:
    case Opcode::V_MIN_VF: {
      const float f = num::bf16_to_f32(is.regs.fp[d.rs2]);  // fs
      std::vector<uint16_t> a = read_row(rs1_row);
      for (uint64_t e = 0; e < g_.vlen; ++e) {
        if (selected(is, e)) a[e] = num::f32_to_bf16(binary(num::bf16_to_f32(a[e]), f));
      }
      write_row(rd_row, a, fx);
      break;
    }
    case Opcode::V_SUB_VF: {
      const float f = num::bf16_to_f32(is.regs.fp[d.rs2]);  // fs
      const bool reversed = d.funct == 1;                   // rorder 1: f - V
      std::vector<uint16_t> a = read_row(rs1_row);
      for (uint64_t e = 0; e < g_.vlen; ++e) {
        if (!selected(is, e)) continue;
        const float v = num::bf16_to_f32(a[e]);
        a[e] = num::f32_to_bf16(reversed ? num::sub(f, v) : num::sub(v, f));
      }
      write_row(rd_row, a, fx);
      break;
    }
    case Opcode::V_RED_MAX: {
      // max is associative and commutative under its NaN and signed-zero rules, so the tree
      // order of the RTL gives the plain maximum; unselected elements enter as -inf.
      const std::vector<uint16_t> a = read_row(rs1_row);
      float m = num::bf16_to_f32(is.regs.fp[d.rd]);
      for (uint64_t e = 0; e < g_.vlen; ++e) {
        if (selected(is, e)) m = num::max(m, num::bf16_to_f32(a[e]));
      }
      fx.write_reg(isa::RegFile::Fp, d.rd, num::f32_to_bf16(m));
      break;
    }
    case Opcode::V_PS_V: {
      std::vector<uint16_t> a = read_row(rs1_row);
      float s = num::bf16_to_f32(a[0]);
      a[0] = num::f32_to_bf16(s);
      for (uint64_t e = 1; e < g_.vlen; ++e) {
        s = num::add(s, num::bf16_to_f32(a[e]));
        a[e] = num::f32_to_bf16(s);
      }
      write_row(rd_row, a, fx);
      break;
    }
    case Opcode::V_SHFT_V: {
      const std::vector<uint16_t> a = read_row(rs1_row);
      const uint64_t shift = is.gp(d.rs2);
      std::vector<uint16_t> y(g_.vlen, 0x0000);
      for (uint64_t e = shift; e < g_.vlen; ++e) y[e] = a[e - shift];
      write_row(rd_row, y, fx);
      break;
    }
    case Opcode::V_EXP_V:
    case Opcode::V_RECI_V: {
      std::vector<uint16_t> a = read_row(rs1_row);
      for (uint64_t e = 0; e < g_.vlen; ++e) {
        if (selected(is, e))
          a[e] = is.op == Opcode::V_EXP_V ? num::exp_bf16(a[e]) : num::reci_bf16(a[e]);
      }
      write_row(rd_row, a, fx);
      break;
    }
    case Opcode::V_RED_SUM: {
      const std::vector<uint16_t> a = read_row(rs1_row);
      std::vector<float> x(g_.vlen);
      for (uint64_t e = 0; e < g_.vlen; ++e) x[e] = selected(is, e) ? num::bf16_to_f32(a[e]) : 0.0f;
      const float s = num::tree_sum(x.data(), x.size());
      const float acc = num::add(num::bf16_to_f32(is.regs.fp[d.rd]), s);
      fx.write_reg(isa::RegFile::Fp, d.rd, num::f32_to_bf16(acc));
      break;
    }
    case Opcode::V_GATHER: {
      const uint64_t tok = int_sram.read_u32(4 * uint64_t{is.gp(d.rs2)});
      write_row(rd_row, read_row(rs1_row + tok), fx);
      break;
    }
    case Opcode::V_SCATTER_ADD: {
      const uint64_t tok = int_sram.read_u32(4 * uint64_t{is.gp(d.rs2)});
      const std::vector<uint16_t> src = read_row(rs1_row);
      std::vector<uint16_t> dst = read_row(rd_row + tok);
      for (uint64_t e = 0; e < g_.vlen; ++e) {
        dst[e] = num::f32_to_bf16(num::add(num::bf16_to_f32(dst[e]), num::bf16_to_f32(src[e])));
      }
      write_row(rd_row + tok, dst, fx);
      break;
    }
    default:
      throw std::logic_error("golden: vector unit cannot execute opcode " +
                             std::to_string(d.opcode));
  }
}

}  // namespace moesim::golden
