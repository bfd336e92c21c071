#include "scalar_unit.hpp"

#include <stdexcept>

#include "moesim/isa/numerics.hpp"

namespace moesim::golden {

using isa::Opcode;
using isa::RegFile;
using isa::Space;

namespace {
/// Element address gp[rs1] + imm18 of the SRAM forms.
Addr sram_addr(const Issue& is) { return Addr{is.gp(is.d.rs1)} + is.d.imm18; }
}  // namespace

ScalarUnit::ScalarUnit(sc_core::sc_module_name name, const Geometry& g) : sc_module(name), g_(g) {}

bool ScalarUnit::implements(Opcode op) const {
  switch (op) {
    case Opcode::S_LD_FP:
    case Opcode::S_ST_FP:
    case Opcode::S_MAP_V_FP:
    case Opcode::S_ADD_FP:
    case Opcode::S_SUB_FP:
    case Opcode::S_MAX_FP:
    case Opcode::S_MUL_FP:
    case Opcode::S_EXP_FP:
    case Opcode::S_RECI_FP:
    case Opcode::S_SQRT_FP:
    case Opcode::S_ADD_INT:
    case Opcode::S_ADDI_INT:
    case Opcode::S_SUB_INT:
    case Opcode::S_MUL_INT:
    case Opcode::S_LUI_INT:
    case Opcode::S_LD_INT:
    case Opcode::S_ST_INT:
      return true;
    default:
      return false;
  }
}

TrapSet ScalarUnit::check(const Issue& is) {
  TrapSet t;
  switch (is.op) {
    case Opcode::S_LD_FP:
    case Opcode::S_ST_FP:
      check_range(t, sram_addr(is), 1, g_.fp_sram_words);
      break;
    case Opcode::S_LD_INT:
    case Opcode::S_ST_INT:
      check_range(t, sram_addr(is), 1, g_.int_sram_words);
      break;
    case Opcode::S_MAP_V_FP:
      check_vram_rows(t, g_, is.gp(is.d.rd), 1, Access::Write);
      check_range(t, sram_addr(is), g_.vlen, g_.fp_sram_words);
      break;
    default:
      break;
  }
  return t;
}

std::map<std::string, int64_t> ScalarUnit::latency_vars(const Issue& /*is*/) const { return {}; }

void ScalarUnit::execute(const Issue& is, Effects& fx) {
  const isa::Decoded& d = is.d;
  const uint32_t a = is.gp(d.rs1);
  const uint32_t b = is.gp(d.rs2);
  const auto addr = static_cast<uint64_t>(sram_addr(is));
  // FP operands are read only by the S_*_FP cases: an integer instruction's rs1/rs2 field
  // may name a GP register beyond the FP register file.
  const auto fs1 = [&] { return is.regs.fp.at(d.rs1); };
  const auto x = [&] { return num::bf16_to_f32(fs1()); };
  const auto y = [&] { return num::bf16_to_f32(is.regs.fp.at(d.rs2)); };
  switch (is.op) {
    case Opcode::S_ADD_FP:
      fx.write_reg(RegFile::Fp, d.rd, num::f32_to_bf16(num::add(x(), y())));
      break;
    case Opcode::S_SUB_FP:
      fx.write_reg(RegFile::Fp, d.rd, num::f32_to_bf16(num::sub(x(), y())));
      break;
    case Opcode::S_MAX_FP:
      fx.write_reg(RegFile::Fp, d.rd, num::f32_to_bf16(num::max(x(), y())));
      break;
    case Opcode::S_MUL_FP:
      fx.write_reg(RegFile::Fp, d.rd, num::f32_to_bf16(num::mul(x(), y())));
      break;
    case Opcode::S_EXP_FP:
      fx.write_reg(RegFile::Fp, d.rd, num::exp_bf16(fs1()));
      break;
    case Opcode::S_RECI_FP:
      fx.write_reg(RegFile::Fp, d.rd, num::reci_bf16(fs1()));
      break;
    case Opcode::S_SQRT_FP:
      fx.write_reg(RegFile::Fp, d.rd, num::sqrt_bf16(fs1()));
      break;
    case Opcode::S_ADD_INT:
      fx.write_reg(RegFile::Gp, d.rd, static_cast<uint32_t>(a + b));
      break;
    case Opcode::S_ADDI_INT:
      fx.write_reg(RegFile::Gp, d.rd, static_cast<uint32_t>(a + d.imm18));
      break;
    case Opcode::S_SUB_INT:
      fx.write_reg(RegFile::Gp, d.rd, static_cast<uint32_t>(a - b));
      break;
    case Opcode::S_MUL_INT:
      fx.write_reg(RegFile::Gp, d.rd, static_cast<uint32_t>(uint64_t{a} * b));
      break;
    case Opcode::S_LUI_INT:
      fx.write_reg(RegFile::Gp, d.rd, static_cast<uint32_t>(uint64_t{d.imm22} << 12));
      break;
    case Opcode::S_LD_FP:
      fx.write_reg(RegFile::Fp, d.rd, fp_sram.read_u16(2 * addr, 1)[0]);
      break;
    case Opcode::S_ST_FP:
      fp_sram.write_u16(2 * addr, {is.regs.fp.at(d.rd)});
      fx.wrote(Space::FpSram, addr, addr + 1);
      break;
    case Opcode::S_LD_INT:
      fx.write_reg(RegFile::Gp, d.rd, int_sram.read_u32(4 * addr));
      break;
    case Opcode::S_ST_INT:
      int_sram.write_u32(4 * addr, is.gp(d.rd));
      fx.wrote(Space::IntSram, addr, addr + 1);
      break;
    case Opcode::S_MAP_V_FP: {
      const uint64_t row = is.gp(d.rd) / g_.vlen;
      vram.write_u16(row * g_.vram_row_bytes(), fp_sram.read_u16(2 * addr, g_.vlen));
      fx.wrote(Space::Vram, row, row + 1);
      break;
    }
    default:
      throw std::logic_error("golden: scalar unit cannot execute opcode " +
                             std::to_string(d.opcode));
  }
}

}  // namespace moesim::golden
