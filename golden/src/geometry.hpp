// Machine geometry of one preset (machine.yaml) in the form the golden units use: sizes of every
// memory in its own unit and in bytes, and the byte layout of each space's image (trace.hpp Space,
// program.hpp MemoryImage).
#pragma once

#include <array>
#include <cstdint>

#include "moesim/isa/geometry.hpp"
#include "moesim/isa/spec.hpp"
#include "moesim/isa/trace.hpp"

namespace moesim::golden {

/// Address arithmetic is done in 128 bits so that no register combination (a 64-bit HBM base plus
/// 32-bit offsets and strides) can wrap before the range check sees it.
using Addr = unsigned __int128;

struct Geometry {
  /// Reads the preset. Throws std::invalid_argument naming the parameter when the golden model
  /// cannot implement the preset: VLEN != MLEN, MX_BLOCK not a power of two (M_MM's block sum in
  /// isa.yaml is a pairwise tree over MX_BLOCK products), BLEN, HLEN or MX_BLOCK not dividing MLEN,
  /// or a size that is 0.
  explicit Geometry(const isa::MachinePreset& p);

  uint64_t mlen, vlen, blen, hlen, mx_block;
  uint64_t vram_rows, mram_tiles, fp_sram_words, int_sram_words, hbm_bytes;
  uint64_t hbm_v_rows, hbm_m_rows, loop_depth, max_topk_experts, instruction_budget, imem_words;

  uint64_t mram_rows() const { return units(isa::Space::Mram); }  ///< global tile rows
  uint64_t vram_row_bytes() const { return unit_bytes(isa::Space::Vram); }
  uint64_t mram_scales_per_row() const { return mlen / mx_block; }
  uint64_t mram_row_bytes() const { return unit_bytes(isa::Space::Mram); }

  /// Bytes per address unit of `s` (VRAM row, MRAM tile row, SRAM word, HBM byte).
  uint64_t unit_bytes(isa::Space s) const { return space(s).unit_bytes; }
  /// Size of `s` in its unit.
  uint64_t units(isa::Space s) const { return space(s).units; }
  uint64_t bytes(isa::Space s) const { return unit_bytes(s) * units(s); }

 private:
  /// isa::space_geometry() of every space of the preset, indexed by isa::Space.
  std::array<isa::SpaceGeometry, isa::kAllSpaces.size()> spaces_{};
  const isa::SpaceGeometry& space(isa::Space s) const { return spaces_[static_cast<size_t>(s)]; }
};

}  // namespace moesim::golden
