#include "moesim/isa/format.hpp"

#include "moesim/isa/numerics.hpp"

namespace moesim::isa {
namespace {

std::string real(double v) {
  char buf[48];
  std::snprintf(buf, sizeof buf, "%.9g", v);
  return buf;
}

uint16_t u16_at(const uint8_t* p) { return static_cast<uint16_t>(p[0] | (p[1] << 8)); }

uint32_t u32_at(const uint8_t* p) {
  return static_cast<uint32_t>(p[0]) | (static_cast<uint32_t>(p[1]) << 8) |
         (static_cast<uint32_t>(p[2]) << 16) | (static_cast<uint32_t>(p[3]) << 24);
}

std::string bf16_text(uint16_t b) {
  return "bf16 " + real(num::bf16_to_f32(b)) + " (" + hex(b, 4) + ")";
}

}  // namespace

const char* unit_noun(Space space) {
  switch (space) {
    case Space::Vram:
    case Space::Mram:
      return "row";
    case Space::FpSram:
    case Space::IntSram:
      return "word";
    case Space::Hbm:
      break;
  }
  return "byte";
}

std::string element_name(Space space, uint64_t mlen, uint64_t byte) {
  if (space == Space::Vram) return "element " + std::to_string(byte / 2);
  if (space == Space::Mram)
    return byte < mlen ? "code " + std::to_string(byte) : "scale " + std::to_string(byte - mlen);
  return "";
}

std::string element_value(Space space, const uint8_t* unit, uint64_t mlen, uint64_t byte) {
  switch (space) {
    case Space::Vram:
    case Space::FpSram:
      return bf16_text(u16_at(unit + (byte & ~uint64_t{1})));
    case Space::IntSram: {
      const uint32_t v = u32_at(unit + (byte & ~uint64_t{3}));
      return "u32 " + std::to_string(v) + " (" + hex(v) + ")";
    }
    case Space::Mram: {
      const uint8_t c = unit[byte];
      if (byte < mlen) return "e4m3 " + real(num::e4m3_to_f32(c)) + " (" + hex(c, 2) + ")";
      if (c == 0xFF) return "e8m0 NaN (0xFF)";
      return "e8m0 2^" + std::to_string(int{c} - 127) + " (" + hex(c, 2) + ")";
    }
    case Space::Hbm:
      break;
  }
  return hex(unit[byte], 2);
}

std::string register_value(const std::string& name, uint64_t value) {
  if (!name.empty() && name[0] == 'f' && name.size() > 1 && name[1] >= '0' && name[1] <= '9')
    return bf16_text(static_cast<uint16_t>(value));
  return std::to_string(value) + " (" + hex(value) + ")";
}

}  // namespace moesim::isa
