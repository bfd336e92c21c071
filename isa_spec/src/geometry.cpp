#include "moesim/isa/geometry.hpp"

#include <stdexcept>

namespace moesim::isa {

SpaceGeometry space_geometry(Space space, const MachinePreset& p) {
  const auto u = [&](const char* key) { return static_cast<uint64_t>(p.get(key)); };
  const auto mlen = static_cast<uint64_t>(p.mlen());
  switch (space) {
    case Space::Vram:
      return {2 * static_cast<uint64_t>(p.vlen()), u("VRAM_ROWS")};
    case Space::Mram:
      return {mlen + mlen / static_cast<uint64_t>(p.mx_block()), u("MRAM_TILES") * mlen};
    case Space::FpSram:
      return {2, u("FP_SRAM_WORDS")};
    case Space::IntSram:
      return {4, u("INT_SRAM_WORDS")};
    case Space::Hbm:
      return {1, u("HBM_BYTES")};
  }
  throw std::invalid_argument("space_geometry: unknown space");
}

}  // namespace moesim::isa
