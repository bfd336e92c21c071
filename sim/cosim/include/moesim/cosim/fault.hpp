// Planted input faults for negative tests: flip one bit of one engine's initial memory image
// (moesim cosim --flip-bit ENGINE:SPACE:BYTE:BIT), which golden-vs-RTL comparison must catch.
// Lowering bugs both engines run alike are program_fault.hpp's.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "moesim/isa/program.hpp"
#include "moesim/isa/spec.hpp"
#include "moesim/isa/trace.hpp"

namespace moesim::cosim {

struct BitFlip {
  std::string engine;  ///< engine name ("golden" or "rtl")
  isa::Space space = isa::Space::Hbm;
  uint64_t byte = 0;  ///< byte offset in the space's byte image (isa::MemoryImage layout)
  unsigned bit = 0;   ///< 0..7
};

/// Parses "ENGINE:SPACE:BYTE:BIT" (SPACE as isa::space_name, BYTE decimal or 0x hex).
/// Throws UsageError naming --flip-bit and the bad part.
BitFlip parse_bit_flip(const std::string& text);

/// Flips the bit in `image`; a byte no segment covers (an initial 0) gets its own segment.
/// Throws UsageError if the byte is at or past `space_bytes` (the space's size in bytes).
void apply_bit_flip(const BitFlip& flip, uint64_t space_bytes, isa::MemoryImage& image);

}  // namespace moesim::cosim
