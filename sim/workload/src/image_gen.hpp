// The image generator's building blocks (internal to moesim_workload; build_image.cpp uses them,
// testbenches/workload/test_image_gen.cpp checks them against std::mt19937_64 and
// num::mx_quantize).
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>

#include "moesim/isa/numerics.hpp"

namespace moesim::workload::image_gen {

/// std::mt19937_64, bit for bit (same seeding, twist and tempering; test_image_gen.cpp compares
/// them), with a branch-free twist the compiler vectorises, bulk
/// output, and a state that is cheap to copy (a snapshot per piece of the image, so pieces are
/// generated on several threads from the one seeded stream).
class Mt64 {
 public:
  static constexpr size_t kN = 312, kM = 156;
  explicit Mt64(uint64_t seed) {
    mt_[0] = seed;
    for (size_t i = 1; i < kN; ++i)
      mt_[i] = 6364136223846793005ull * (mt_[i - 1] ^ (mt_[i - 1] >> 62)) + i;
  }
  uint64_t operator()() {
    if (pos_ == kN) twist();
    return temper(mt_[pos_++]);
  }
  /// out[0..n) = the next n outputs.
  void fill(uint64_t* out, size_t n) {
    while (n != 0) {
      if (pos_ == kN) twist();
      const size_t take = std::min(n, kN - pos_);
      const uint64_t* src = mt_ + pos_;
      for (size_t i = 0; i < take; ++i) out[i] = temper(src[i]);
      out += take;
      n -= take;
      pos_ += take;
    }
  }
  /// Skips n outputs (twists only).
  void discard(uint64_t n) {
    while (n != 0) {
      if (pos_ == kN) twist();
      const uint64_t take = std::min<uint64_t>(n, kN - pos_);
      n -= take;
      pos_ += static_cast<size_t>(take);
    }
  }

 private:
  static uint64_t temper(uint64_t z) {
    z ^= (z >> 29) & 0x5555555555555555ull;
    z ^= (z << 17) & 0x71D67FFFEDA60000ull;
    z ^= (z << 37) & 0xFFF7EEE000000000ull;
    return z ^ (z >> 43);
  }
  static uint64_t twisted(uint64_t hi, uint64_t lo, uint64_t far) {
    const uint64_t y = (hi & 0xFFFFFFFF80000000ull) | (lo & 0x7FFFFFFFull);
    return far ^ (y >> 1) ^ (0xB5026F5AA96619E9ull & (0 - (y & 1)));
  }
  void twist() {
    for (size_t i = 0; i < kN - kM; ++i) mt_[i] = twisted(mt_[i], mt_[i + 1], mt_[i + kM]);
    for (size_t i = kN - kM; i < kN - 1; ++i)
      mt_[i] = twisted(mt_[i], mt_[i + 1], mt_[i + kM - kN]);
    mt_[kN - 1] = twisted(mt_[kN - 1], mt_[0], mt_[kM - 1]);
    pos_ = 0;
  }
  uint64_t mt_[kN];
  size_t pos_ = kN;
};

/// num::f32_to_bf16 (RNE, canonical NaN), inline so the generation loop vectorises.
inline uint16_t bf16_of(float f) {
  uint32_t b;
  std::memcpy(&b, &f, sizeof b);
  if ((b & 0x7FFFFFFFu) > 0x7F800000u) return num::f32_to_bf16(f);
  return static_cast<uint16_t>((b + 0x7FFFu + ((b >> 16) & 1u)) >> 16);
}

/// num::mx_quantize through a table for the common block (every element zero or normal, shared
/// exponent not clamped): the code of a normal element depends only on its mantissa and on
/// d = (biased exponent - shared exponent), so T[d][mantissa] is computed once, by
/// num::mx_quantize itself on two-element blocks; every other block calls num::mx_quantize.
/// test_image_gen.cpp compares it with num::mx_quantize on every BF16 value against every
/// shared exponent.
class MxQuantizer {
 public:
  static constexpr int kDMin = -118, kDMax = 135;  ///< d range of the table
  MxQuantizer() {
    // Shared exponent 119: y = 2^127 (the largest power of two in BF16) sets amax.
    const uint16_t y = static_cast<uint16_t>(254 << 7);
    for (int d = kDMin; d <= kDMax; ++d) {
      for (unsigned m = 0; m < 128; ++m) {
        const uint16_t block[2] = {static_cast<uint16_t>((d + 119) << 7 | m), y};
        uint8_t codes[2];
        num::mx_quantize(block, 2, codes);
        table_[static_cast<size_t>(d - kDMin) * 128 + m] = codes[0];
      }
    }
  }
  uint8_t quantize(const uint16_t* bf16, size_t n, uint8_t* codes) const {
    int emax = 0, emin = 255;
    bool subnormal = false;
    for (size_t i = 0; i < n; ++i) {
      const int be = (bf16[i] >> 7) & 0xFF;
      if ((bf16[i] & 0x7FFF) == 0) continue;
      subnormal |= be == 0;
      emax = std::max(emax, be);
      emin = std::min(emin, be);
    }
    // emax == 0: all zero; 255: inf/NaN; subnormals and clamped exponents: the general path.
    const int e = emax - 127 - 8;
    if (subnormal || emax == 0 || emax == 255 || e < -127 || e > 127 || emin - e < kDMin)
      return num::mx_quantize(bf16, n, codes);
    for (size_t i = 0; i < n; ++i) {
      const uint16_t b = bf16[i];
      const uint8_t sign = static_cast<uint8_t>((b >> 8) & 0x80);
      const int d = ((b >> 7) & 0xFF) - e;  // in [kDMin, kDMax] for a non-zero element
      codes[i] = (b & 0x7FFF) == 0
                     ? sign
                     : static_cast<uint8_t>(
                           sign | table_[static_cast<size_t>(d - kDMin) * 128 + (b & 0x7F)]);
    }
    return static_cast<uint8_t>(e + 127);
  }

 private:
  std::array<uint8_t, static_cast<size_t>(kDMax - kDMin + 1) * 128> table_{};
};

inline const MxQuantizer& mx_quantizer() {
  static const MxQuantizer q;
  return q;
}

}  // namespace moesim::workload::image_gen
