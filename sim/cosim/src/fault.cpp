// Planted bit flips (see fault.hpp).
#include "moesim/cosim/fault.hpp"

#include <cctype>
#include <sstream>
#include <stdexcept>
#include <vector>

#include "moesim/isa/usage_error.hpp"

namespace moesim::cosim {
namespace {

std::vector<isa::MemorySegment>& segments(isa::MemoryImage& img, isa::Space s) {
  switch (s) {
    case isa::Space::Vram:
      return img.vram;
    case isa::Space::Mram:
      return img.mram;
    case isa::Space::FpSram:
      return img.fp_sram;
    case isa::Space::IntSram:
      return img.int_sram;
    case isa::Space::Hbm:
      return img.hbm;
  }
  throw std::invalid_argument("unknown space");
}

}  // namespace

BitFlip parse_bit_flip(const std::string& text) {
  const std::string usage = "--flip-bit '" + text + "': expected ENGINE:SPACE:BYTE:BIT";
  std::vector<std::string> parts;
  std::stringstream ss(text);
  std::string part;
  while (std::getline(ss, part, ':')) parts.push_back(part);
  if (parts.size() != 4) throw UsageError(usage);
  BitFlip f;
  f.engine = parts[0];
  if (f.engine != "golden" && f.engine != "rtl")
    throw UsageError(usage + " (ENGINE is golden or rtl, got '" + f.engine + "')");
  bool found = false;
  std::string names;
  for (isa::Space s : isa::kAllSpaces) {
    names += (names.empty() ? "" : ", ") + std::string(isa::space_name(s));
    if (parts[1] == isa::space_name(s)) {
      f.space = s;
      found = true;
    }
  }
  if (!found) throw UsageError(usage + " (SPACE is one of " + names + ", got '" + parts[1] + "')");
  auto number = [&](const std::string& s, const char* what) {  // decimal, or hex with 0x
    const bool hex = s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X');
    const std::string digits = hex ? s.substr(2) : s;
    size_t used = 0;
    uint64_t v = 0;
    try {
      if (!digits.empty() && std::isxdigit(static_cast<unsigned char>(digits[0])))
        v = std::stoull(digits, &used, hex ? 16 : 10);
    } catch (const std::exception&) {
      used = 0;
    }
    if (digits.empty() || used != digits.size())
      throw UsageError(usage + " (" + what + " '" + s + "' is not a number)");
    return v;
  };
  f.byte = number(parts[2], "BYTE");
  const uint64_t bit = number(parts[3], "BIT");
  if (bit > 7) throw UsageError(usage + " (BIT must be 0..7)");
  f.bit = static_cast<unsigned>(bit);
  return f;
}

void apply_bit_flip(const BitFlip& flip, uint64_t space_bytes, isa::MemoryImage& image) {
  if (flip.byte >= space_bytes)
    throw UsageError("--flip-bit: byte " + std::to_string(flip.byte) + " is outside " +
                     isa::space_name(flip.space) + " (" + std::to_string(space_bytes) + " bytes)");
  const auto mask = static_cast<uint8_t>(1u << flip.bit);
  auto& segs = segments(image, flip.space);
  // Segments are applied in order, so the last one covering the byte holds its value.
  for (auto it = segs.rbegin(); it != segs.rend(); ++it) {
    auto& seg = *it;
    if (flip.byte >= seg.base && flip.byte < seg.base + seg.bytes.size()) {
      seg.bytes[flip.byte - seg.base] ^= mask;
      return;
    }
  }
  segs.push_back({flip.byte, {mask}});
}

}  // namespace moesim::cosim
