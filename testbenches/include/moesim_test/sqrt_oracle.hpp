// Test-only oracle: sqrt of a BF16 value correctly rounded to BF16 with exact integer arithmetic
// (no floating point), independent of MPFR (which generates the SQRT_BF16 ROM) and of the RTL.
// Shared by the golden-table test (testbenches/unit) and the RTL ROM bench (testbenches/rtl_units).
#pragma once

#include <cstdint>

namespace moesim::test {

/// floor(sqrt(n)) for n < 2^62, by bisection on exact products.
inline uint64_t isqrt(uint64_t n) {
  uint64_t lo = 0, hi = uint64_t{1} << 31;
  while (lo < hi) {
    const uint64_t mid = (lo + hi + 1) / 2;
    if (mid * mid <= n)
      lo = mid;
    else
      hi = mid - 1;
  }
  return lo;
}

/// SQRT_BF16(x) of docs/numerics.md §8: RNE to BF16; sqrt(+-0) = +-0, sqrt(+inf) = +inf; NaN,
/// -inf and every x < 0 (negative subnormals too) give the canonical NaN 0x7FC0.
inline uint16_t sqrt_bf16_exact(uint16_t x) {
  const uint32_t exp = (x >> 7) & 0xFF, frac = x & 0x7F;
  const bool neg = (x & 0x8000) != 0;
  if (exp == 0xFF) return (frac != 0 || neg) ? 0x7FC0 : 0x7F80;
  if (exp == 0 && frac == 0) return x;  // +-0
  if (neg) return 0x7FC0;
  // x = m * 2^e, m an integer < 2^8 (normal: hidden bit, e = exp - 134; subnormal: e = -133).
  uint64_t m = exp == 0 ? frac : (0x80u | frac);
  int e = exp == 0 ? -133 : static_cast<int>(exp) - 134;
  if (e & 1) {  // make e even: sqrt(x) = sqrt(m) * 2^(e/2)
    m <<= 1;
    e -= 1;
  }
  // sqrt(m * 4^t) * 2^(e/2 - t) with t = 12: s = floor(sqrt(m * 2^24)) has >= 13 bits.
  constexpr int kT = 12;
  const uint64_t n = m << (2 * kT);
  const uint64_t s = isqrt(n);
  const bool sticky = s * s != n;
  int bits = 0;
  while ((s >> bits) != 0) ++bits;
  const int shift = bits - 8;  // keep 8 significant bits (results are never subnormal)
  uint64_t keep = s >> shift;
  const uint64_t rem = s & ((uint64_t{1} << shift) - 1);
  const uint64_t half = uint64_t{1} << (shift - 1);
  if (rem > half || (rem == half && (sticky || (keep & 1) != 0))) ++keep;
  int top = bits - 1;  // exponent of the leading bit of s
  if (keep == 0x100) {
    keep = 0x80;
    ++top;
  }
  const int value_exp = top + e / 2 - kT;  // sqrt(x) = keep/128 * 2^value_exp
  return static_cast<uint16_t>(((value_exp + 127) << 7) | (keep & 0x7F));
}

}  // namespace moesim::test
