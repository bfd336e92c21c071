// How moesim prints a raw value in messages and reports: one spelling everywhere.
#pragma once

#include <cstdint>
#include <cstdio>
#include <string>

namespace moesim::isa {

/// "0x" and upper-case hex digits, zero-padded to `width` digits (0: as many as needed),
/// e.g. hex(0xd0) = "0xD0", hex(0x2c, 4) = "0x002C".
inline std::string hex(uint64_t v, int width = 0) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "0x%0*llX", width, static_cast<unsigned long long>(v));
  return buf;
}

}  // namespace moesim::isa
