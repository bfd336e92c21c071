// Memory-space geometry of a machine preset: the one place that says how many bytes a unit of
// each isa::Space holds and how many units a space has (machine.yaml sizes). The golden model,
// the RTL wrapper, the comparator, the conformance runner and the CLI all ask here.
#pragma once

#include <cstdint>

#include "moesim/isa/spec.hpp"
#include "moesim/isa/trace.hpp"

namespace moesim::isa {

struct SpaceGeometry {
  uint64_t unit_bytes = 0;  ///< bytes of one unit in the byte image layout of isa::Space
  uint64_t units = 0;       ///< units in the space
  uint64_t bytes() const { return unit_bytes * units; }
};

/// VRAM: rows of 2*VLEN bytes, VRAM_ROWS of them; MRAM: tile rows of MLEN E4M3 codes plus
/// MLEN/MX_BLOCK E8M0 scales, MRAM_TILES * MLEN of them; FP SRAM: BF16 words (2 bytes),
/// FP_SRAM_WORDS; INT SRAM: u32 words, INT_SRAM_WORDS; HBM: bytes, HBM_BYTES.
SpaceGeometry space_geometry(Space space, const MachinePreset& preset);

/// Bytes per unit of `space` (space_geometry(space, preset).unit_bytes).
inline uint64_t unit_bytes(Space space, const MachinePreset& preset) {
  return space_geometry(space, preset).unit_bytes;
}

/// Size of `space` in its unit (space_geometry(space, preset).units): what Engine::size() reports.
inline uint64_t space_units(Space space, const MachinePreset& preset) {
  return space_geometry(space, preset).units;
}

}  // namespace moesim::isa
