// moesim numerics (numerics.hpp, docs/numerics.md). Host float arithmetic is IEEE binary32 RNE
// with subnormals (the build passes -ffp-contract=off and never -ffast-math); every NaN result is
// replaced by the canonical NaN. Format conversions use integer arithmetic on the bit patterns.
#include "moesim/isa/numerics.hpp"

#include <cmath>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

namespace moesim::num {

namespace {

/// Rounds |value| = sig * 2^exp2 (sig > 0, sig < 2^40) to E4M3 with RNE and saturation to 448.
/// Returns the magnitude code (0x00..0x7E).
uint8_t e4m3_magnitude(uint64_t sig, int exp2) {
  int msb = 63 - __builtin_clzll(sig);
  int e = msb + exp2;  // floor(log2(value))
  if (e > 8) return 0x7E;
  // Quantum of the E4M3 binade containing the value: 2^(e-3) for normals, 2^-9 below 2^-6.
  int qexp = (e < -6 ? -6 : e) - 3;
  int shift = qexp - exp2;  // value / quantum = sig * 2^-shift
  uint64_t n;
  if (shift <= 0) {
    n = sig << -shift;
  } else if (shift > 62) {
    n = 0;  // value < 2^-1 quantum: rounds to 0
  } else {
    n = sig >> shift;
    uint64_t rem = sig & ((uint64_t{1} << shift) - 1);
    uint64_t half = uint64_t{1} << (shift - 1);
    if (rem > half || (rem == half && (n & 1))) ++n;
  }
  uint64_t code;
  if (e < -6) {
    code = n;  // subnormal: m = n (n = 8 carries into the smallest normal, code 0x08)
  } else {
    code = (static_cast<uint64_t>(e + 7) << 3) + (n - 8);  // n in [8, 16]; 16 carries
  }
  return code > 0x7E ? 0x7E : static_cast<uint8_t>(code);
}

}  // namespace

float f32_from_bits(uint32_t bits) {
  float f;
  std::memcpy(&f, &bits, sizeof f);
  return f;
}

uint32_t f32_bits(float f) {
  uint32_t b;
  std::memcpy(&b, &f, sizeof b);
  return b;
}

float canon(float f) { return std::isnan(f) ? f32_from_bits(kF32CanonicalNaN) : f; }

float bf16_to_f32(uint16_t b) { return f32_from_bits(static_cast<uint32_t>(b) << 16); }

uint16_t f32_to_bf16(float f) {
  uint32_t b = f32_bits(f);
  if ((b & 0x7FFFFFFFu) > 0x7F800000u) return kBf16CanonicalNaN;
  // RNE on the low 16 bits; a carry out of the mantissa bumps the exponent (to inf on overflow).
  uint32_t rounded = b + 0x7FFFu + ((b >> 16) & 1u);
  return static_cast<uint16_t>(rounded >> 16);
}

float add(float a, float b) { return canon(a + b); }
float sub(float a, float b) { return canon(a - b); }
float mul(float a, float b) { return canon(a * b); }

float max(float a, float b) {
  if (std::isnan(a) || std::isnan(b)) return f32_from_bits(kF32CanonicalNaN);
  if (a == 0.0f && b == 0.0f) return std::signbit(a) ? b : a;  // max(-0, +0) = +0
  return a > b ? a : b;
}

float min(float a, float b) {
  if (std::isnan(a) || std::isnan(b)) return f32_from_bits(kF32CanonicalNaN);
  if (a == 0.0f && b == 0.0f) return std::signbit(a) ? a : b;  // min(-0, +0) = -0
  return a < b ? a : b;
}

float e4m3_to_f32(uint8_t code) {
  unsigned e = (code >> 3) & 0xF, m = code & 7;
  float sign = (code & 0x80) ? -1.0f : 1.0f;
  if (e == 15 && m == 7) return f32_from_bits(kF32CanonicalNaN);
  float mag =
      e == 0 ? std::ldexp(static_cast<float>(m), -9)                             // m/8 * 2^-6
             : std::ldexp(static_cast<float>(8 + m), static_cast<int>(e) - 10);  // (1+m/8)*2^(e-7)
  return sign * mag;
}

uint8_t f32_to_e4m3(float f) {
  uint32_t b = f32_bits(f);
  uint8_t sign = static_cast<uint8_t>((b >> 24) & 0x80);
  uint32_t exp = (b >> 23) & 0xFF, man = b & 0x7FFFFF;
  if (exp == 0xFF) return man ? kE4M3NaN : static_cast<uint8_t>(sign | 0x7E);  // NaN / inf
  if (exp == 0 && man == 0) return sign;
  uint64_t sig = exp ? (man | 0x800000u) : man;
  int exp2 = (exp ? static_cast<int>(exp) : 1) - 127 - 23;
  return static_cast<uint8_t>(sign | e4m3_magnitude(sig, exp2));
}

float e8m0_to_f32(uint8_t code) {
  if (code == kE8M0NaN) return f32_from_bits(kF32CanonicalNaN);
  return std::ldexp(1.0f, static_cast<int>(code) - 127);
}

uint16_t mx_dequant_bf16(uint8_t code, uint8_t scale) {
  return f32_to_bf16(mul(e4m3_to_f32(code), e8m0_to_f32(scale)));
}

uint8_t mx_quantize(const uint16_t* bf16, size_t n, uint8_t* codes) {
  // Pass 1: NaN check and floor(log2(amax)) from the bit patterns.
  bool any_nan = false, any_inf = false;
  int max_log2 = INT32_MIN;  // INT32_MIN: every element is zero
  for (size_t i = 0; i < n; ++i) {
    uint16_t mag = bf16[i] & 0x7FFF;
    uint16_t e = mag >> 7, m = mag & 0x7F;
    if (e == 0xFF) {
      if (m)
        any_nan = true;
      else
        any_inf = true;
      continue;
    }
    if (mag == 0) continue;
    int l = e ? static_cast<int>(e) - 127 : (31 - __builtin_clz(m)) - 133;
    if (l > max_log2) max_log2 = l;
  }
  if (any_nan) {
    for (size_t i = 0; i < n; ++i) codes[i] = kE4M3NaN;
    return kE8M0NaN;
  }
  int e;  // shared exponent
  if (any_inf) {
    e = 127;  // floor(log2(inf)) - 8 clamps to 127
  } else if (max_log2 == INT32_MIN) {
    e = -127;  // amax = 0
  } else {
    e = max_log2 - 8;
    e = e < -127 ? -127 : (e > 127 ? 127 : e);
  }
  // Pass 2: codes = RNE_sat(x / 2^e), exactly: x = sig * 2^x2, so x / 2^e = sig * 2^(x2 - e).
  for (size_t i = 0; i < n; ++i) {
    uint16_t b = bf16[i];
    uint8_t sign = static_cast<uint8_t>((b >> 8) & 0x80);
    uint16_t mag = b & 0x7FFF;
    uint16_t be = mag >> 7, bm = mag & 0x7F;
    if (be == 0xFF) {
      codes[i] = static_cast<uint8_t>(sign | 0x7E);  // inf saturates
    } else if (mag == 0) {
      codes[i] = sign;
    } else {
      uint64_t sig = be ? (bm | 0x80u) : bm;
      int x2 = (be ? static_cast<int>(be) : 1) - 127 - 7;
      codes[i] = static_cast<uint8_t>(sign | e4m3_magnitude(sig, x2 - e));
    }
  }
  return static_cast<uint8_t>(e + 127);
}

namespace {

// Largest MX dot length (mx_block_dot / mx_block_tdot): MX_BLOCK is 8 or 32 (machine.yaml);
// any power of two up to this bound is accepted.
constexpr size_t kMaxMxDot = kMxDotMax;

void check_mx_dot_n(size_t n, const char* fn) {
  if (n == 0 || n > kMaxMxDot || (n & (n - 1)) != 0)
    throw std::invalid_argument(std::string(fn) + ": n = " + std::to_string(n) +
                                " must be a power of two in [1, 256]");
}

// The pairwise tree over x[0..n) in place, FP32 RNE: level 0 adds (2i, 2i+1), each level halves.
float pairwise_tree(float* x, size_t n) {
  for (size_t width = n; width > 1; width /= 2)
    for (size_t i = 0; i < width / 2; ++i) x[i] = add(x[2 * i], x[2 * i + 1]);
  return x[0];
}

}  // namespace

float mx_block_dot(const uint16_t* a_bf16, const uint8_t* w_e4m3, size_t n, uint8_t scale) {
  check_mx_dot_n(n, "mx_block_dot");
  float p[kMaxMxDot];
  for (size_t i = 0; i < n; ++i) p[i] = mul(bf16_to_f32(a_bf16[i]), e4m3_to_f32(w_e4m3[i]));
  return mul(pairwise_tree(p, n), e8m0_to_f32(scale));
}

float mx_block_tdot(const uint16_t* a_bf16, const uint8_t* w_e4m3, const uint8_t* scales,
                    size_t n) {
  check_mx_dot_n(n, "mx_block_tdot");
  float q[kMaxMxDot];
  for (size_t i = 0; i < n; ++i)
    q[i] = mul(mul(bf16_to_f32(a_bf16[i]), e4m3_to_f32(w_e4m3[i])), e8m0_to_f32(scales[i]));
  return pairwise_tree(q, n);
}

float tree_sum(const float* x, size_t n) {
  if (n == 0) return 0.0f;
  if ((n & (n - 1)) != 0) throw std::invalid_argument("tree_sum: n must be a power of two");
  std::vector<float> level(x, x + n);
  return canon(pairwise_tree(level.data(), n));
}

uint16_t exp_bf16(uint16_t x) { return exp_bf16_table()[x]; }
uint16_t reci_bf16(uint16_t x) { return reci_bf16_table()[x]; }
uint16_t sqrt_bf16(uint16_t x) { return sqrt_bf16_table()[x]; }

}  // namespace moesim::num
