#include "dma_unit.hpp"

#include <stdexcept>

#include "moesim/isa/numerics.hpp"

namespace moesim::golden {

using isa::Opcode;
using isa::Space;
using isa::TrapCause;

DmaUnit::DmaUnit(sc_core::sc_module_name name, const Geometry& g) : sc_module(name), g_(g) {}

bool DmaUnit::implements(Opcode op) const {
  return op == Opcode::H_PREFETCH_M || op == Opcode::H_PREFETCH_V || op == Opcode::H_STORE_V;
}

uint64_t DmaUnit::rows(const Issue& is) const {
  return is.op == Opcode::H_PREFETCH_M ? g_.hbm_m_rows : g_.hbm_v_rows;
}

uint64_t DmaUnit::len(const Issue& is) const {
  return is.op == Opcode::H_PREFETCH_M ? g_.mlen : g_.vlen;
}

DmaUnit::RowAddr DmaUnit::row_addr(const Issue& is, uint64_t i) const {
  // Row stride in bytes: STRIDE for rstride = 1, else the row length.
  const Addr stride = is.d.r3 == 1 ? Addr{is.regs.stride} : Addr{len(is)};
  const Addr o = Addr{is.gp(is.d.rs1)} + Addr{i} * stride;
  const Addr base = is.regs.addr[is.d.rs2];
  return {base + o, base + is.regs.scale + o / g_.mx_block, o};
}

TrapSet DmaUnit::check(const Issue& is) {
  TrapSet t;
  const uint64_t n = rows(is);
  const uint64_t l = len(is);
  for (uint64_t i = 0; i < n; ++i) {
    const RowAddr r = row_addr(is, i);
    t.add_if(r.offset % g_.mx_block != 0, TrapCause::address_misaligned);
    check_range(t, r.codes, l, g_.hbm_bytes);
    check_range(t, r.scales, l / g_.mx_block, g_.hbm_bytes);
  }
  const Addr dst = is.gp(is.d.rd);
  if (is.op == Opcode::H_PREFETCH_M) {
    t.add_if(dst % g_.mlen != 0, TrapCause::address_misaligned);
    check_mram_rows(t, g_, dst / g_.mlen, n, Access::Write);
  } else {
    check_vram_rows(t, g_, dst, n, is.op == Opcode::H_STORE_V ? Access::Read : Access::Write);
  }
  return t;
}

std::map<std::string, int64_t> DmaUnit::latency_vars(const Issue& is) const {
  return {{"rows", static_cast<int64_t>(rows(is))}, {"len", static_cast<int64_t>(len(is))}};
}

void DmaUnit::execute(const Issue& is, Effects& fx) {
  const uint64_t n = rows(is);
  const uint64_t l = len(is);
  const uint64_t nscales = l / g_.mx_block;
  const uint64_t first = is.gp(is.d.rd) / l;  // first MRAM tile row or VRAM row
  std::vector<uint8_t> codes(l);
  std::vector<uint8_t> scales(nscales);
  const uint64_t read0 = hbm.bytes_read(), written0 = hbm.bytes_written();
  for (uint64_t i = 0; i < n; ++i) {
    const RowAddr r = row_addr(is, i);
    const auto codes_at = static_cast<uint64_t>(r.codes);
    const auto scales_at = static_cast<uint64_t>(r.scales);
    switch (is.op) {
      case Opcode::H_PREFETCH_M: {
        // MRAM row image: MLEN codes then MLEN / MX_BLOCK scales, stored as they are.
        std::vector<uint8_t> row(g_.mram_row_bytes());
        hbm.read(codes_at, row.data(), l);
        hbm.read(scales_at, row.data() + l, nscales);
        mram.write((first + i) * g_.mram_row_bytes(), row.data(), row.size());
        break;
      }
      case Opcode::H_PREFETCH_V: {
        hbm.read(codes_at, codes.data(), l);
        hbm.read(scales_at, scales.data(), nscales);
        std::vector<uint16_t> row(l);
        for (uint64_t e = 0; e < l; ++e) {
          row[e] = num::mx_dequant_bf16(codes[e], scales[e / g_.mx_block]);
        }
        vram.write_u16((first + i) * g_.vram_row_bytes(), row);
        break;
      }
      case Opcode::H_STORE_V: {
        const std::vector<uint16_t> row = vram.read_u16((first + i) * g_.vram_row_bytes(), l);
        for (uint64_t b = 0; b < nscales; ++b) {
          scales[b] = num::mx_quantize(row.data() + b * g_.mx_block, g_.mx_block,
                                       codes.data() + b * g_.mx_block);
        }
        hbm.write(codes_at, codes.data(), l);
        hbm.write(scales_at, scales.data(), nscales);
        fx.wrote(Space::Hbm, codes_at, codes_at + l);
        fx.wrote(Space::Hbm, scales_at, scales_at + nscales);
        break;
      }
      default:
        throw std::logic_error("golden: DMA unit cannot execute opcode " +
                               std::to_string(is.d.opcode));
    }
  }
  fx.hbm_read += hbm.bytes_read() - read0;  // this instruction's (transfer's) HBM transactions
  fx.hbm_written += hbm.bytes_written() - written0;
  if (is.op == Opcode::H_PREFETCH_M) fx.wrote(Space::Mram, first, first + n);
  if (is.op == Opcode::H_PREFETCH_V) fx.wrote(Space::Vram, first, first + n);
}

}  // namespace moesim::golden
