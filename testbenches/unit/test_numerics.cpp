// Numerics contract (docs/numerics.md): every BF16, E4M3 and E8M0 code, FP32->BF16 and
// FP32->E4M3 rounding, MX quantisation, the MX block dot product and the V_RED_SUM tree.
// The expected values come from independent formulations written here (double arithmetic,
// table scans), not from the library's own bit tricks.
#define BOOST_TEST_MODULE numerics
#include <algorithm>
#include <boost/test/unit_test.hpp>
#include <cmath>
#include <cstring>
#include <random>
#include <vector>

#include "moesim/isa/numerics.hpp"
#include "moesim_test/mx_oracle.hpp"

using namespace moesim::num;
using moesim::test::e4m3_is_nan;
using moesim::test::e4m3_nearest_ref;
using moesim::test::e4m3_ref;

namespace {

uint32_t bits(float f) { return f32_bits(f); }
float from(uint32_t b) { return f32_from_bits(b); }

/// FP32 -> BF16 by comparing distances to the two neighbouring BF16 values in double (exact).
uint16_t bf16_ref(uint32_t fb) {
  float f = from(fb);
  if (std::isnan(f)) return 0x7FC0;
  if (std::isinf(f)) return static_cast<uint16_t>(fb >> 16);
  uint16_t lo = static_cast<uint16_t>(fb >> 16);  // truncation: towards zero
  uint16_t hi = static_cast<uint16_t>(lo + 1);    // next BF16 away from zero
  double x = std::fabs(static_cast<double>(f));
  double vlo = std::fabs(static_cast<double>(from(static_cast<uint32_t>(lo) << 16)));
  double vhi = (hi & 0x7FFF) == 0x7F80
                   ? std::ldexp(1.0, 128)  // rounding past max is overflow
                   : std::fabs(static_cast<double>(from(static_cast<uint32_t>(hi) << 16)));
  double dlo = x - vlo, dhi = vhi - x;
  if (dlo < dhi) return lo;
  if (dhi < dlo) return hi;
  return (lo & 1) ? hi : lo;
}

}  // namespace

BOOST_AUTO_TEST_CASE(bf16_all_codes_round_trip) {
  int nan = 0, exact = 0;
  for (uint32_t c = 0; c < 65536; ++c) {
    float f = bf16_to_f32(static_cast<uint16_t>(c));
    BOOST_REQUIRE_EQUAL(bits(f), c << 16);
    uint16_t back = f32_to_bf16(f);
    if ((c & 0x7F80) == 0x7F80 && (c & 0x7F)) {
      BOOST_REQUIRE_EQUAL(back, kBf16CanonicalNaN);
      ++nan;
    } else {
      BOOST_REQUIRE_EQUAL(back, c);
      ++exact;
    }
  }
  BOOST_TEST_MESSAGE("BF16 round trip: " << exact << " exact codes, " << nan << " NaN codes");
  BOOST_TEST(exact + nan == 65536);
  BOOST_TEST(nan == 2 * 127);
}

BOOST_AUTO_TEST_CASE(f32_to_bf16_rounding_cases) {
  BOOST_TEST(f32_to_bf16(from(0x3F808000)) == 0x3F80);  // tie, even below
  BOOST_TEST(f32_to_bf16(from(0x3F818000)) == 0x3F82);  // tie, even above
  BOOST_TEST(f32_to_bf16(from(0x3F808001)) == 0x3F81);  // above the tie
  BOOST_TEST(f32_to_bf16(from(0x3F807FFF)) == 0x3F80);  // below the tie
  BOOST_TEST(f32_to_bf16(from(0xBF818000)) == 0xBF82);  // negative tie
  BOOST_TEST(f32_to_bf16(from(0x7F7FFFFF)) == 0x7F80);  // FLT_MAX overflows to +inf
  BOOST_TEST(f32_to_bf16(from(0x7F7F8000)) == 0x7F80);  // tie at the top rounds to even = inf
  BOOST_TEST(f32_to_bf16(from(0x7F7F7FFF)) == 0x7F7F);  // stays finite
  BOOST_TEST(f32_to_bf16(from(0xFF7FFFFF)) == 0xFF80);  // -inf
  BOOST_TEST(f32_to_bf16(from(0x7F800000)) == 0x7F80);
  BOOST_TEST(f32_to_bf16(from(0xFF800000)) == 0xFF80);
  BOOST_TEST(f32_to_bf16(from(0x7F800001)) == 0x7FC0);  // sNaN whose truncation would be inf
  BOOST_TEST(f32_to_bf16(from(0xFFC00000)) == 0x7FC0);  // negative NaN -> canonical
  BOOST_TEST(f32_to_bf16(from(0x7FFFFFFF)) == 0x7FC0);
  BOOST_TEST(f32_to_bf16(from(0x00008000)) == 0x0000);  // subnormal tie to even (0)
  BOOST_TEST(f32_to_bf16(from(0x00018000)) == 0x0002);  // subnormal tie to even (2)
  BOOST_TEST(f32_to_bf16(from(0x00008001)) == 0x0001);
  BOOST_TEST(f32_to_bf16(from(0x007FFFFF)) == 0x0080);  // largest subnormal -> smallest normal
  BOOST_TEST(f32_to_bf16(from(0x80000001)) == 0x8000);  // -tiny -> -0
  BOOST_TEST(f32_to_bf16(from(0x80000000)) == 0x8000);
}

BOOST_AUTO_TEST_CASE(f32_to_bf16_against_distance_oracle) {
  // Every high half with low halves at and around the rounding points, plus random low halves.
  const uint32_t lows[] = {0x0000, 0x0001, 0x7FFF, 0x8000, 0x8001, 0xFFFF};
  std::mt19937 rng(1);
  uint64_t n = 0;
  for (uint32_t hi = 0; hi < 65536; ++hi) {
    for (uint32_t lo : lows) {
      uint32_t fb = hi << 16 | lo;
      BOOST_REQUIRE_EQUAL(f32_to_bf16(from(fb)), bf16_ref(fb));
      ++n;
    }
    for (int k = 0; k < 4; ++k) {
      uint32_t fb = hi << 16 | (rng() & 0xFFFF);
      BOOST_REQUIRE_EQUAL(f32_to_bf16(from(fb)), bf16_ref(fb));
      ++n;
    }
  }
  BOOST_TEST_MESSAGE("f32_to_bf16: " << n << " inputs checked against the distance oracle");
}

BOOST_AUTO_TEST_CASE(e4m3_all_codes) {
  int nan = 0;
  for (int c = 0; c < 256; ++c) {
    uint8_t code = static_cast<uint8_t>(c);
    float f = e4m3_to_f32(code);
    if (e4m3_is_nan(code)) {
      BOOST_TEST(bits(f) == kF32CanonicalNaN);
      ++nan;
      continue;
    }
    BOOST_TEST_REQUIRE(static_cast<double>(f) == e4m3_ref(code), "code " << c);
    BOOST_TEST_REQUIRE(std::signbit(f) == ((c & 0x80) != 0));
    BOOST_TEST_REQUIRE(f32_to_e4m3(f) == code, "round trip of code " << c);
  }
  BOOST_TEST(nan == 2);
  BOOST_TEST(e4m3_to_f32(0x7E) == 448.0f);
  BOOST_TEST(e4m3_to_f32(0x01) == std::ldexp(1.0f, -9));
  BOOST_TEST(e4m3_to_f32(0x08) == std::ldexp(1.0f, -6));
  BOOST_TEST(e4m3_to_f32(0x38) == 1.0f);
}

BOOST_AUTO_TEST_CASE(e8m0_all_codes) {
  for (int c = 0; c < 255; ++c) {
    float f = e8m0_to_f32(static_cast<uint8_t>(c));
    BOOST_TEST_REQUIRE(static_cast<double>(f) == std::ldexp(1.0, c - 127), "code " << c);
  }
  BOOST_TEST(bits(e8m0_to_f32(0xFF)) == kF32CanonicalNaN);
  BOOST_TEST(bits(e8m0_to_f32(0)) == 0x00400000u);  // 2^-127 is a binary32 subnormal
  BOOST_TEST(e8m0_to_f32(127) == 1.0f);
}

BOOST_AUTO_TEST_CASE(f32_to_e4m3_rounding_cases) {
  BOOST_TEST(f32_to_e4m3(1.0625f) == 0x38);  // tie between 1.0 (m=0) and 1.125 (m=1): even
  BOOST_TEST(f32_to_e4m3(1.1875f) == 0x3A);  // tie between m=1 and m=2: even
  BOOST_TEST(f32_to_e4m3(-1.1875f) == 0xBA);
  BOOST_TEST(f32_to_e4m3(448.0f) == 0x7E);
  BOOST_TEST(f32_to_e4m3(464.0f) == 0x7E);  // tie with 480 (not a value): saturates
  BOOST_TEST(f32_to_e4m3(1e30f) == 0x7E);
  BOOST_TEST(f32_to_e4m3(-1e30f) == 0xFE);
  BOOST_TEST(f32_to_e4m3(INFINITY) == 0x7E);
  BOOST_TEST(f32_to_e4m3(-INFINITY) == 0xFE);
  BOOST_TEST(f32_to_e4m3(NAN) == 0x7F);
  BOOST_TEST(f32_to_e4m3(-NAN) == 0x7F);
  BOOST_TEST(f32_to_e4m3(std::ldexp(1.0f, -10)) == 0x00);     // half the smallest subnormal
  BOOST_TEST(f32_to_e4m3(std::ldexp(1.0001f, -10)) == 0x01);  // just above it
  BOOST_TEST(f32_to_e4m3(std::ldexp(3.0f, -10)) == 0x02);     // tie 1 vs 2: even
  BOOST_TEST(f32_to_e4m3(std::ldexp(15.0f, -10)) == 0x08);    // tie 7*2^-9 vs 2^-6: even = 0x08
  BOOST_TEST(f32_to_e4m3(std::ldexp(1.0f, -149)) == 0x00);    // FP32 subnormal input
  BOOST_TEST(f32_to_e4m3(-0.0f) == 0x80);
  BOOST_TEST(f32_to_e4m3(-std::ldexp(1.0f, -12)) == 0x80);  // rounds to -0
}

BOOST_AUTO_TEST_CASE(f32_to_e4m3_all_midpoints) {
  // Every pair of neighbouring E4M3 magnitudes: the midpoint and one FP32 ulp either side.
  int n = 0;
  for (int c = 0; c < 0x7E; ++c) {
    double a = e4m3_ref(static_cast<uint8_t>(c)), b = e4m3_ref(static_cast<uint8_t>(c + 1));
    float mid = static_cast<float>((a + b) / 2);  // exact: 5 significant bits
    BOOST_REQUIRE(static_cast<double>(mid) == (a + b) / 2);
    for (float v : {mid, std::nextafter(mid, 0.0f), std::nextafter(mid, 1e9f)}) {
      for (float s : {v, -v}) {
        BOOST_REQUIRE_EQUAL(f32_to_e4m3(s), e4m3_nearest_ref(static_cast<double>(s)));
        ++n;
      }
    }
  }
  BOOST_TEST_MESSAGE("f32_to_e4m3: " << n << " midpoint cases");
}

BOOST_AUTO_TEST_CASE(mx_dequant_all_code_scale_pairs) {
  for (int s = 0; s < 256; ++s) {
    for (int c = 0; c < 256; ++c) {
      uint16_t got = mx_dequant_bf16(static_cast<uint8_t>(c), static_cast<uint8_t>(s));
      if (s == 0xFF || e4m3_is_nan(static_cast<uint8_t>(c))) {
        BOOST_REQUIRE_EQUAL(got, kBf16CanonicalNaN);
        continue;
      }
      double exact = e4m3_ref(static_cast<uint8_t>(c)) * std::ldexp(1.0, s - 127);
      float f32 = static_cast<float>(exact);  // the FP32 RNE multiply (IEEE conversion)
      BOOST_REQUIRE_EQUAL(got, bf16_ref(bits(f32)));
    }
  }
}

namespace {
uint16_t bf(float f) { return f32_to_bf16(f); }
}  // namespace

BOOST_AUTO_TEST_CASE(mx_quantize_rules) {
  uint8_t codes[8];
  {  // all zero (with a -0): scale 0 (e = -127), codes +-0
    uint16_t x[8] = {0, 0x8000, 0, 0, 0, 0, 0, 0};
    BOOST_TEST(mx_quantize(x, 8, codes) == 0);
    BOOST_TEST(codes[0] == 0x00);
    BOOST_TEST(codes[1] == 0x80);
  }
  {  // any NaN: scale 0xFF, every code 0x7F
    uint16_t x[8] = {bf(1.0f), bf(2.0f), 0xFFC1, 0, 0, 0, 0, 0};
    BOOST_TEST(mx_quantize(x, 8, codes) == 0xFF);
    for (uint8_t c : codes) BOOST_TEST(c == 0x7F);
  }
  {  // amax 1.0: e = -8, scale 119; 1.0 -> 256 = 0x78; ties 136 -> 128 (0x70), 152 -> 160 (0x72)
    uint16_t x[8] = {bf(1.0f), bf(0.53125f), bf(0.59375f), bf(-1.0f), bf(1.5f), 0, 0, 0};
    BOOST_TEST(mx_quantize(x, 8, codes) == 119);
    BOOST_TEST(codes[0] == 0x78);
    BOOST_TEST(codes[1] == 0x70);
    BOOST_TEST(codes[2] == 0x72);
    BOOST_TEST(codes[3] == 0xF8);
    BOOST_TEST(codes[4] == 0x7C);
  }
  {  // amax in [448, 512) * 2^e saturates: 1.9921875 * 2^8 = 510 -> 448
    uint16_t x[8] = {0x3FFF, 0xBFFF, bf(1.75f), 0, 0, 0, 0, 0};
    BOOST_TEST(mx_quantize(x, 8, codes) == 119);
    BOOST_TEST(codes[0] == 0x7E);
    BOOST_TEST(codes[1] == 0xFE);
    BOOST_TEST(codes[2] == 0x7E);  // 448 exactly
  }
  {  // inf: e clamps to 127 (scale 254), inf saturates, finite values vanish
    uint16_t x[8] = {0x7F80, 0xFF80, bf(3.0e38f), bf(1.0f), 0, 0, 0, 0};
    BOOST_TEST(mx_quantize(x, 8, codes) == 254);
    BOOST_TEST(codes[0] == 0x7E);
    BOOST_TEST(codes[1] == 0xFE);
    BOOST_TEST(codes[2] == 0x3E);  // 1.765625 * 2^127 / 2^127 -> 1.75
    BOOST_TEST(codes[3] == 0x00);  // 2^-127 -> 0
  }
  {  // tiny block: floor(log2(2^-133)) - 8 clamps to -127 (scale 0); 2^-133 / 2^-127 = 2^-6
    uint16_t x[8] = {0x0001, 0x8001, 0, 0, 0, 0, 0, 0};
    BOOST_TEST(mx_quantize(x, 8, codes) == 0);
    BOOST_TEST(codes[0] == 0x08);
    BOOST_TEST(codes[1] == 0x88);
  }
}

BOOST_AUTO_TEST_CASE(mx_quantize_against_double_oracle) {
  // Random blocks of 8 and 32 over the whole finite BF16 range, including subnormals and
  // zeros; the oracle divides in double (exact) and scans the E4M3 table.
  std::mt19937 rng(7);
  int blocks = 0;
  for (int iter = 0; iter < 40000; ++iter) {
    size_t n = (iter & 1) ? 32 : 8;
    std::vector<uint16_t> x(n);
    int base_exp = static_cast<int>(rng() % 254) + 1;  // biased exponent of the block
    for (auto& v : x) {
      uint32_t r = rng();
      int e = base_exp - static_cast<int>(r % 24);
      if (r % 17 == 0 || e <= 0) e = 0;  // zeros and subnormals
      v = static_cast<uint16_t>(((r >> 8) & 0x8000) | (e << 7) | ((r >> 5) & 0x7F));
      if (e == 0 && (r % 3 == 0)) v &= 0x8000;
    }
    std::vector<uint8_t> codes(n), ref(n);
    const uint8_t scale = mx_quantize(x.data(), n, codes.data());
    BOOST_REQUIRE_EQUAL(scale, moesim::test::mx_quantize_ref(x.data(), n, ref.data()));
    for (size_t i = 0; i < n; ++i) BOOST_REQUIRE_EQUAL(codes[i], ref[i]);
    ++blocks;
  }
  BOOST_TEST_MESSAGE("mx_quantize: " << blocks << " random blocks checked");
}

BOOST_AUTO_TEST_CASE(mx_block_dot_8_order_and_scale) {
  const uint8_t one = 0x38;  // E4M3 1.0
  uint8_t w[8];
  std::fill(w, w + 8, one);
  // Pairwise tree: ((2^24+1)+(1+1)) + ((1+1)+(1+1)) = (2^24 + 2) + 4 = 2^24 + 6.
  // A left-to-right sum would give 2^24 (each +1 rounds away).
  uint16_t a[8] = {bf(16777216.0f), bf(1.0f), bf(1.0f), bf(1.0f),
                   bf(1.0f),        bf(1.0f), bf(1.0f), bf(1.0f)};
  BOOST_TEST(mx_block_dot(a, w, 8, 127) == 16777222.0f);
  BOOST_TEST(mx_block_dot(a, w, 8, 128) == 33554444.0f);
  // Scale 0xFF gives NaN, a NaN code gives canonical NaN.
  BOOST_TEST(bits(mx_block_dot(a, w, 8, 0xFF)) == kF32CanonicalNaN);
  uint8_t wn[8] = {0xFF, one, one, one, one, one, one, one};
  BOOST_TEST(bits(mx_block_dot(a, wn, 8, 127)) == kF32CanonicalNaN);
  // Scale 0 multiplies by 2^-127 in FP32 RNE: 3 * 2^-127 is exact (subnormal).
  uint16_t b[8] = {bf(3.0f), 0, 0, 0, 0, 0, 0, 0};
  BOOST_TEST(mx_block_dot(b, w, 8, 0) == std::ldexp(3.0f, -127));
  // Products are exact: bf16 max mantissa x e4m3 max mantissa.
  uint16_t c[8] = {0x3FFF, 0, 0, 0, 0, 0, 0, 0};
  uint8_t wc[8] = {0x3F, 0, 0, 0, 0, 0, 0, 0};  // 1.875
  BOOST_TEST(static_cast<double>(mx_block_dot(c, wc, 8, 127)) == 1.9921875 * 1.875);
}

BOOST_AUTO_TEST_CASE(mx_block_tdot_8_scale_per_element) {
  const uint8_t one = 0x38, minus_one = 0xB8;  // E4M3 +-1.0
  uint16_t a[8];
  std::fill(a, a + 8, bf(1.0f));
  // Each product takes its own scale before the tree: ((2^40 - 2^40) + (1 + 0)) + 0 = 1.
  uint8_t w[8] = {one, minus_one, one, 0, 0, 0, 0, 0};
  uint8_t s[8] = {167, 167, 127, 127, 127, 127, 127, 127};
  BOOST_TEST(mx_block_tdot(a, w, s, 8) == 1.0f);
  // Each scaled product rounds on its own: 3*2^-23 x 1.0 x 2^-127 = 1.5 * 2^-149 rounds to
  // 2^-148 (tie to even), twice: 2^-147. (Scaling the sum 3*2^-22 instead would give 3 * 2^-149.)
  uint16_t t[8] = {bf(std::ldexp(3.0f, -23)), bf(std::ldexp(3.0f, -23)), 0, 0, 0, 0, 0, 0};
  uint8_t wt[8] = {one, one, 0, 0, 0, 0, 0, 0};
  uint8_t s0[8] = {0, 0, 0, 0, 0, 0, 0, 0};
  BOOST_TEST(mx_block_tdot(t, wt, s0, 8) == std::ldexp(1.0f, -147));
  // A 0xFF scale makes its element NaN even when the product is 0.
  uint8_t sn[8] = {127, 127, 127, 127, 127, 127, 127, 0xFF};
  BOOST_TEST(bits(mx_block_tdot(a, w, sn, 8)) == kF32CanonicalNaN);
}

// MX_BLOCK 32 (preset mx32): the pairwise tree over 32 products (level 0 adds (2i, 2i+1)), then
// the scale. Hand-computed, codes 1.0 everywhere:
//  * a = [2^24, 1 x 31]: level 0 gives 2^24 + 1 -> 2^24 (tie to even) and fifteen 2s, level 1
//    2^24 + 2 and seven 4s, then 2^24 + 6, 2^24 + 14, 2^24 + 30. Left to right gives 2^24.
//  * a = 2^24 at 0, 1 at 16 and 24, else 0: the 8-element subtrees are 2^24, 0, 1, 1 and the top
//    levels pair them ((2^24 + 0) + (1 + 1)) = 2^24 + 2. Adding four dot8s one after the other
//    (((2^24 + 0) + 1) + 1) would give 2^24, and so would pairing (i, i + 16) at level 0.
BOOST_AUTO_TEST_CASE(mx_block_dot_32_tree_order) {
  const uint8_t one = 0x38;
  uint8_t w[32];
  std::fill(w, w + 32, one);
  uint16_t a[32];
  std::fill(a, a + 32, bf(1.0f));
  a[0] = bf(16777216.0f);
  BOOST_TEST(mx_block_dot(a, w, 32, 127) == 16777246.0f);
  BOOST_TEST(mx_block_dot(a, w, 32, 128) == 33554492.0f);
  uint16_t b[32] = {};
  b[0] = bf(16777216.0f);
  b[16] = bf(1.0f);
  b[24] = bf(1.0f);
  BOOST_TEST(mx_block_dot(b, w, 32, 127) == 16777218.0f);
  // The scale multiplies the 32-product sum once: 3 * 2^-127 is exact (subnormal).
  uint16_t c[32] = {};
  c[0] = bf(1.0f);
  c[31] = bf(2.0f);
  BOOST_TEST(mx_block_dot(c, w, 32, 0) == std::ldexp(3.0f, -127));
  BOOST_TEST(bits(mx_block_dot(a, w, 32, 0xFF)) == kF32CanonicalNaN);
  // n = 8 is the dot8 rule on the first 8 elements; other n are refused.
  BOOST_TEST(mx_block_dot(a, w, 8, 127) == 16777222.0f);
  BOOST_CHECK_THROW(mx_block_dot(a, w, 24, 127), std::invalid_argument);
  BOOST_CHECK_THROW(mx_block_dot(a, w, 0, 127), std::invalid_argument);
}

// TXDOT over 32 elements, each product scaled by its own E8M0 before the tree (hand-computed):
//  * activations 1.0, codes 1.0, scales 127 + (t mod 2): sixteen 1s and sixteen 2s, sum 48;
//  * q0 = 2^24, q16 = 1 (code 1.0, scale 127), q24 = 0.5 x 2^1 = 1 (code 0.5, scale 128), others
//    0: the tree pairs the 8-element subtrees as (2^24 + 0) + (1 + 1) = 2^24 + 2 (adding the
//    subtrees one after the other would give 2^24);
//  * a 0xFF scale makes its element NaN even though its product is 0.
BOOST_AUTO_TEST_CASE(mx_block_tdot_32_scale_per_element) {
  const uint8_t one = 0x38, half = 0x30;
  uint16_t a[32];
  std::fill(a, a + 32, bf(1.0f));
  uint8_t w[32], s[32];
  std::fill(w, w + 32, one);
  for (int t = 0; t < 32; ++t) s[t] = static_cast<uint8_t>(127 + t % 2);
  BOOST_TEST(mx_block_tdot(a, w, s, 32) == 48.0f);
  std::fill(a, a + 32, 0);
  std::fill(s, s + 32, 127);
  a[0] = bf(16777216.0f);
  a[16] = bf(1.0f);
  a[24] = bf(1.0f);
  w[24] = half;
  s[24] = 128;
  BOOST_TEST(mx_block_tdot(a, w, s, 32) == 16777218.0f);
  s[31] = 0xFF;
  BOOST_TEST(bits(mx_block_tdot(a, w, s, 32)) == kF32CanonicalNaN);
}

BOOST_AUTO_TEST_CASE(tree_sum_order) {
  float x[8] = {16777216.0f, 1, 1, 1, 1, 1, 1, 1};
  BOOST_TEST(tree_sum(x, 8) == 16777222.0f);
  float y[4] = {1e30f, -1e30f, 1.0f, 2.0f};
  BOOST_TEST(tree_sum(y, 4) == 3.0f);
  float z[2] = {INFINITY, -INFINITY};
  BOOST_TEST(bits(tree_sum(z, 2)) == kF32CanonicalNaN);
  BOOST_TEST(tree_sum(x, 1) == 16777216.0f);
  BOOST_CHECK_THROW(tree_sum(x, 6), std::invalid_argument);
}

BOOST_AUTO_TEST_CASE(fp32_ops_nan_and_subnormals) {
  BOOST_TEST(bits(sub(INFINITY, INFINITY)) == kF32CanonicalNaN);  // x86 default NaN is negative
  BOOST_TEST(bits(mul(0.0f, INFINITY)) == kF32CanonicalNaN);
  BOOST_TEST(bits(add(from(0xFFC00001), 1.0f)) == kF32CanonicalNaN);
  BOOST_TEST(bits(mul(std::ldexp(1.0f, -75), std::ldexp(1.0f, -74))) == 0x00000001u);
  BOOST_TEST(bits(add(from(0x00000001), from(0x00000001))) == 0x00000002u);
  BOOST_TEST(bits(canon(from(0xFF800001))) == kF32CanonicalNaN);
  BOOST_TEST(bits(canon(-INFINITY)) == 0xFF800000u);
}

BOOST_AUTO_TEST_CASE(max_min_rules) {
  BOOST_TEST(bits(max(-0.0f, 0.0f)) == 0x00000000u);
  BOOST_TEST(bits(max(0.0f, -0.0f)) == 0x00000000u);
  BOOST_TEST(bits(min(0.0f, -0.0f)) == 0x80000000u);
  BOOST_TEST(bits(min(-0.0f, 0.0f)) == 0x80000000u);
  BOOST_TEST(bits(max(NAN, 1.0f)) == kF32CanonicalNaN);
  BOOST_TEST(bits(min(1.0f, -NAN)) == kF32CanonicalNaN);
  BOOST_TEST(max(-7.0f, 3.0f) == 3.0f);
  BOOST_TEST(min(-7.0f, 3.0f) == -7.0f);
  BOOST_TEST(max(-INFINITY, -1e38f) == -1e38f);
}
