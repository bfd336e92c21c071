#include "geometry.hpp"

#include <stdexcept>
#include <string>

namespace moesim::golden {

namespace {

uint64_t positive(const isa::MachinePreset& p, const char* key) {
  int64_t v = p.get(key);
  if (v <= 0) {
    throw std::invalid_argument("golden: preset '" + p.name + "': " + key + " = " +
                                std::to_string(v) + " must be > 0");
  }
  return static_cast<uint64_t>(v);
}

void require(bool ok, const isa::MachinePreset& p, const std::string& what) {
  if (!ok) throw std::invalid_argument("golden: preset '" + p.name + "': " + what);
}

}  // namespace

Geometry::Geometry(const isa::MachinePreset& p)
    : mlen(positive(p, "MLEN")),
      vlen(positive(p, "VLEN")),
      blen(positive(p, "BLEN")),
      hlen(positive(p, "HLEN")),
      mx_block(positive(p, "MX_BLOCK")),
      vram_rows(positive(p, "VRAM_ROWS")),
      mram_tiles(positive(p, "MRAM_TILES")),
      fp_sram_words(positive(p, "FP_SRAM_WORDS")),
      int_sram_words(positive(p, "INT_SRAM_WORDS")),
      hbm_bytes(positive(p, "HBM_BYTES")),
      hbm_v_rows(positive(p, "HBM_V_ROWS")),
      hbm_m_rows(positive(p, "HBM_M_ROWS")),
      loop_depth(positive(p, "LOOP_DEPTH")),
      max_topk_experts(positive(p, "MAX_TOPK_EXPERTS")),
      instruction_budget(positive(p, "INSTRUCTION_BUDGET")),
      imem_words(positive(p, "IMEM_WORDS")) {
  require(vlen == mlen, p, "VLEN must equal MLEN (M_MM takes K = VLEN = MLEN)");
  require((mx_block & (mx_block - 1)) == 0, p,
          "MX_BLOCK = " + std::to_string(mx_block) +
              ": M_MM's block sum in isa.yaml is a pairwise tree over a power of two");
  require(mlen % mx_block == 0, p, "MX_BLOCK must divide MLEN");
  require(mlen % blen == 0, p, "BLEN must divide MLEN");
  require(vlen % hlen == 0, p, "HLEN must divide VLEN");
  for (isa::Space s : isa::kAllSpaces)
    spaces_.at(static_cast<size_t>(s)) = isa::space_geometry(s, p);
}

}  // namespace moesim::golden
