// The EXP_BF16 and RECI_BF16 ROMs (generated with MPFR) on all 65536 inputs against an
// independent __float128 oracle (libquadmath expq, quad division) rounded to BF16 here.
// A quad result that lies within 2^-100 (in units of the BF16 quantum) of a rounding midpoint
// cannot be decided by the oracle; such inputs are counted and the count must be 0.
// The SQRT_BF16 ROM on all 65536 inputs against exact integer arithmetic (moesim_test).
#define BOOST_TEST_MODULE bf16_tables
#include <quadmath.h>

#include <boost/test/unit_test.hpp>
#include <cmath>
#include <cstring>

#include "moesim/isa/numerics.hpp"
#include "moesim_test/sqrt_oracle.hpp"

using namespace moesim::num;

namespace {

struct Rounded {
  uint16_t bf16;
  bool undecidable;
};

/// Rounds a quad value to BF16 (RNE, subnormals down to 2^-133, overflow to inf).
Rounded quad_to_bf16(__float128 q) {
  if (isnanq(q)) return {kBf16CanonicalNaN, false};
  uint16_t sign = signbitq(q) ? 0x8000 : 0;
  __float128 a = fabsq(q);
  if (isinfq(a)) return {static_cast<uint16_t>(sign | 0x7F80), false};
  if (a == 0) return {sign, false};
  int e2;
  frexpq(a, &e2);  // a = f * 2^e2, f in [0.5, 1): floor(log2 a) = e2 - 1
  int e = e2 - 1;
  int qexp = (e < -126 ? -126 : e) - 7;  // BF16 quantum exponent of this binade
  __float128 s = ldexpq(a, -qexp);       // a in quanta (exact)
  __float128 n = floorq(s);
  __float128 frac = s - n;
  bool undecidable =
      fabsq(frac - static_cast<__float128>(0.5)) < ldexpq(static_cast<__float128>(1.0), -100);
  if (frac > static_cast<__float128>(0.5) ||
      (frac == static_cast<__float128>(0.5) &&
       fmodq(n, static_cast<__float128>(2.0)) == static_cast<__float128>(1.0)))
    n += 1;
  __float128 r = ldexpq(n, qexp);
  if (r >= ldexpq(static_cast<__float128>(1.0), 128))
    return {static_cast<uint16_t>(sign | 0x7F80), undecidable};
  float f = static_cast<float>(r);  // exact: at most 8 significant bits within float range
  uint32_t b;
  std::memcpy(&b, &f, sizeof b);
  BOOST_REQUIRE_EQUAL(b & 0xFFFFu, 0u);
  return {static_cast<uint16_t>(sign | ((b >> 16) & 0x7FFF)), undecidable};
}

__float128 bf16_quad(uint16_t c) { return static_cast<__float128>(bf16_to_f32(c)); }
bool bf16_nan(uint16_t c) { return (c & 0x7F80) == 0x7F80 && (c & 0x7F); }

}  // namespace

BOOST_AUTO_TEST_CASE(exp_table_all_inputs) {
  int checked = 0, undecidable = 0, nan = 0;
  const uint16_t* t = exp_bf16_table();
  for (uint32_t c = 0; c < 65536; ++c) {
    uint16_t x = static_cast<uint16_t>(c);
    BOOST_REQUIRE_EQUAL(exp_bf16(x), t[c]);
    if (bf16_nan(x)) {
      BOOST_REQUIRE_EQUAL(t[c], kBf16CanonicalNaN);
      ++nan;
      continue;
    }
    Rounded r = quad_to_bf16(expq(bf16_quad(x)));
    undecidable += r.undecidable;
    BOOST_REQUIRE_MESSAGE(t[c] == r.bf16, "exp(bf16 0x" << std::hex << c << ") table 0x" << t[c]
                                                        << " oracle 0x" << r.bf16);
    ++checked;
  }
  BOOST_TEST_MESSAGE("EXP_BF16: " << checked << " inputs equal to the oracle, " << nan
                                  << " NaN inputs, " << undecidable << " undecidable");
  BOOST_TEST(checked + nan == 65536);
  BOOST_TEST(undecidable == 0);
  // Spot values of the contract.
  BOOST_TEST(exp_bf16(0x0000) == 0x3F80);  // e^0 = 1
  BOOST_TEST(exp_bf16(0x8000) == 0x3F80);
  BOOST_TEST(exp_bf16(0xFF80) == 0x0000);  // e^-inf = +0
  BOOST_TEST(exp_bf16(0x7F80) == 0x7F80);  // e^inf = inf
  BOOST_TEST(exp_bf16(0x42B2) == 0x7F80);  // e^89 overflows
  BOOST_TEST(exp_bf16(0xC2B8) == 0x0001);  // e^-92 ~ 1.1e-40 rounds to the smallest subnormal
  BOOST_TEST(exp_bf16(0xC2C8) == 0x0000);  // e^-100 underflows to +0 (no clamp to -88)
}

BOOST_AUTO_TEST_CASE(reci_table_all_inputs) {
  int checked = 0, undecidable = 0, nan = 0;
  const uint16_t* t = reci_bf16_table();
  for (uint32_t c = 0; c < 65536; ++c) {
    uint16_t x = static_cast<uint16_t>(c);
    BOOST_REQUIRE_EQUAL(reci_bf16(x), t[c]);
    if (bf16_nan(x)) {
      BOOST_REQUIRE_EQUAL(t[c], kBf16CanonicalNaN);
      ++nan;
      continue;
    }
    __float128 v = bf16_quad(x);
    Rounded r = v == 0 ? Rounded{static_cast<uint16_t>((c & 0x8000) | 0x7F80), false}
                       : quad_to_bf16(static_cast<__float128>(1.0) / v);
    undecidable += r.undecidable;
    BOOST_REQUIRE_MESSAGE(t[c] == r.bf16, "1/(bf16 0x" << std::hex << c << ") table 0x" << t[c]
                                                       << " oracle 0x" << r.bf16);
    ++checked;
  }
  BOOST_TEST_MESSAGE("RECI_BF16: " << checked << " inputs equal to the oracle, " << nan
                                   << " NaN inputs, " << undecidable << " undecidable");
  BOOST_TEST(checked + nan == 65536);
  BOOST_TEST(undecidable == 0);
  BOOST_TEST(reci_bf16(0x0000) == 0x7F80);  // 1/+0 = +inf
  BOOST_TEST(reci_bf16(0x8000) == 0xFF80);  // 1/-0 = -inf
  BOOST_TEST(reci_bf16(0x7F80) == 0x0000);  // 1/inf = +0
  BOOST_TEST(reci_bf16(0xFF80) == 0x8000);
  BOOST_TEST(reci_bf16(0x0001) == 0x7F80);  // 1/2^-133 overflows
  BOOST_TEST(reci_bf16(0x0020) == 0x7F80);  // 1/2^-128 = 2^128 overflows
  BOOST_TEST(reci_bf16(0x0021) == 0x7F78);  // 1/(1.03125 * 2^-128) is finite
  BOOST_TEST(reci_bf16(0x3F80) == 0x3F80);
  BOOST_TEST(reci_bf16(0x4000) == 0x3F00);  // 1/2
  BOOST_TEST(reci_bf16(0x7F00) == 0x0040);  // 1/2^127 = 2^-127, a BF16 subnormal
}

BOOST_AUTO_TEST_CASE(sqrt_table_all_inputs) {
  int nan = 0;
  const uint16_t* t = sqrt_bf16_table();
  for (uint32_t c = 0; c < 65536; ++c) {
    const auto x = static_cast<uint16_t>(c);
    BOOST_REQUIRE_EQUAL(sqrt_bf16(x), t[c]);
    const uint16_t want = moesim::test::sqrt_bf16_exact(x);
    BOOST_REQUIRE_MESSAGE(t[c] == want, "sqrt(bf16 0x" << std::hex << c << ") table 0x" << t[c]
                                                       << " oracle 0x" << want);
    nan += t[c] == kBf16CanonicalNaN;
  }
  BOOST_TEST_MESSAGE("SQRT_BF16: 65536 inputs equal to the exact oracle, " << nan << " give NaN");
  // NaN results: the 254 NaN inputs and the 32640 negative non-zero, non-NaN inputs (-inf too).
  BOOST_TEST(nan == 254 + 32640);
  BOOST_TEST(sqrt_bf16(0x4080) == 0x4000);  // sqrt(4) = 2
  BOOST_TEST(sqrt_bf16(0x4000) == 0x3FB5);  // sqrt(2) = 1.41421... -> 1.4140625
  BOOST_TEST(sqrt_bf16(0x8000) == 0x8000);  // sqrt(-0) = -0
  BOOST_TEST(sqrt_bf16(0x7F80) == 0x7F80);  // sqrt(+inf) = +inf
  BOOST_TEST(sqrt_bf16(0xFF80) == 0x7FC0);  // sqrt(-inf) = NaN
  BOOST_TEST(sqrt_bf16(0x8001) == 0x7FC0);  // negative subnormal
  BOOST_TEST(sqrt_bf16(0x0001) == 0x1E35);  // sqrt(2^-133) = 2^-66.5 -> 1.4140625 * 2^-67
}
