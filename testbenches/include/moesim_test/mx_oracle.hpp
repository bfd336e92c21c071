// Test-only oracle of OCP MXFP8 (docs/numerics.md §1, §4): E4M3 decode from the formula, nearest
// E4M3 code by scanning every code, and block quantisation in double arithmetic (exact for BF16
// inputs). Independent of moesim::num's integer bit tricks and of the RTL. Shared by
// testbenches/unit/test_numerics.cpp and testbenches/rtl_units/test_rtl_leaves.cpp.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>

namespace moesim::test {

/// OCP E4M3 decode from the formula: (-1)^s * 2^(E-7) * (1 + M/8), subnormal 2^-6 * M/8.
inline double e4m3_ref(uint8_t c) {
  const int s = c >> 7, E = (c >> 3) & 0xF, M = c & 7;
  const double mag =
      E == 0 ? std::pow(2.0, -6) * (M / 8.0) : std::pow(2.0, E - 7) * (1.0 + M / 8.0);
  return s ? -mag : mag;
}

inline bool e4m3_is_nan(uint8_t c) { return (c & 0x7F) == 0x7F; }

/// Nearest E4M3 code to the (exact, double) value v by scanning all codes; ties to the even code;
/// magnitudes above 448 (and infinities) saturate. Sign of zero follows v.
inline uint8_t e4m3_nearest_ref(double v) {
  const uint8_t sign = std::signbit(v) ? 0x80 : 0;
  const double a = std::fabs(v);
  if (a >= 448.0) return sign | 0x7E;
  uint8_t best = 0;
  double best_d = INFINITY;
  for (int c = 0; c <= 0x7E; ++c) {
    const double d = std::fabs(e4m3_ref(static_cast<uint8_t>(c)) - a);
    if (d < best_d || (d == best_d && (c & 1) == 0)) best = static_cast<uint8_t>(c), best_d = d;
  }
  return sign | best;
}

/// MX block quantisation (numerics.md §4.2) in double: a NaN gives scale 0xFF and codes 0x7F;
/// else e = clamp(ilogb(amax) - 8, -127, 127) (amax 0 -> -127, inf -> 127), codes
/// nearest(x / 2^e). Returns the scale byte.
inline uint8_t mx_quantize_ref(const uint16_t* bf16, size_t n, uint8_t* codes) {
  double amax = 0;
  bool nan = false;
  for (size_t i = 0; i < n; ++i) {
    const uint32_t b = uint32_t{bf16[i]} << 16;
    float f;
    std::memcpy(&f, &b, sizeof f);
    nan = nan || std::isnan(f);
    amax = std::max(amax, std::fabs(static_cast<double>(f)));
  }
  if (nan) {
    std::fill(codes, codes + n, uint8_t{0x7F});
    return 0xFF;
  }
  const int e = amax == 0          ? -127
                : std::isinf(amax) ? 127
                                   : std::clamp(std::ilogb(amax) - 8, -127, 127);
  for (size_t i = 0; i < n; ++i) {
    const uint32_t b = uint32_t{bf16[i]} << 16;
    float f;
    std::memcpy(&f, &b, sizeof f);
    codes[i] = e4m3_nearest_ref(static_cast<double>(f) / std::ldexp(1.0, e));
  }
  return static_cast<uint8_t>(e + 127);
}

}  // namespace moesim::test
