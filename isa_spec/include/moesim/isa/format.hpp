// How moesim prints a raw value in messages and reports: one spelling everywhere, and memory
// elements decoded in the type their space holds.
#pragma once

#include <cstdint>
#include <cstdio>
#include <string>

#include "moesim/isa/trace.hpp"

namespace moesim::isa {

/// "0x" and upper-case hex digits, zero-padded to `width` digits (0: as many as needed),
/// e.g. hex(0xd0) = "0xD0", hex(0x2c, 4) = "0x002C".
inline std::string hex(uint64_t v, int width = 0) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "0x%0*llX", width, static_cast<unsigned long long>(v));
  return buf;
}

/// What one unit of `space` is called: "row" (vram, mram), "word" (fp_sram, int_sram), "byte".
const char* unit_noun(Space space);

/// Where byte `byte` of a unit lies, in the unit's elements: "element 5" (vram: BF16), "code 3"
/// or "scale 1" (mram: MLEN E4M3 codes, then E8M0 scales; `mlen` is MLEN), "" (one element).
std::string element_name(Space space, uint64_t mlen, uint64_t byte);

/// The element holding byte `byte` of the unit at `unit` (the byte layout of isa::Space),
/// decoded in its space's type: "bf16 0.5 (0x3F00)", "u32 7 (0x7)", "e4m3 -1.5 (0xBC)",
/// "e8m0 2^-3 (0x7C)", "0x80" (hbm).
std::string element_value(Space space, const uint8_t* unit, uint64_t mlen, uint64_t byte);

/// A register value in its file's type: fp registers as BF16 ("bf16 1.5 (0x3FC0)"), the others
/// as an unsigned integer ("7 (0x7)"). `name` is the register's name (reg_name: gp3, f1, a2, ...).
std::string register_value(const std::string& name, uint64_t value);

}  // namespace moesim::isa
