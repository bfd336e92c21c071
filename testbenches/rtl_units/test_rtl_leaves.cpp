// RTL unit bench: the combinational arithmetic leaves of rtl_model/rtl (FP32 add/mul/minmax,
// BF16 rounding, E4M3 decode, MX dequantisation, MX block quantisation, the MX dot product
// moe_mx_dot for N = 8 and 32 (one scale) and N = 32 (per-element scales), the BF16 ROM)
// against the golden numerics moesim::num (isa_spec/include/moesim/isa/numerics.hpp), bit for
// bit. FP32 add and multiply are also checked against MPFR (binary32 emulated: precision 24,
// exponent range and subnormals of binary32) as an oracle independent of both, MX quantisation
// (ties, saturation, all-zero, NaN and inf blocks among others) against a double-arithmetic
// oracle (moesim_test/mx_oracle.hpp), the SQRT_BF16 ROM against exact integer arithmetic. The RTL
// is Verilated in moe_units_tb_top (a wrapper with every leaf on its own ports). The leading-zero
// counter moe_lzc (inside the FP32 add / mul, the MX dot and the E4M3 decode) is also checked on
// its own, at the widths those use, against a bit-by-bit count.
#define BOOST_TEST_MODULE rtl_leaves
#include <mpfr.h>

#include <array>
#include <boost/test/unit_test.hpp>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <random>
#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

#include "Vmoe_units_tb_top.h"
#include "Vmoe_units_tb_top___024root.h"
#include "moesim/isa/format.hpp"
#include "moesim/isa/numerics.hpp"
#include "moesim_test/mx_oracle.hpp"
#include "moesim_test/sqrt_oracle.hpp"
#include "verilated.h"

namespace num = moesim::num;
using moesim::isa::hex;

namespace {

constexpr uint64_t kSeed = 0x6d6f6573696dULL;  // "moesim"

struct Dut {
  VerilatedContext ctx;
  Vmoe_units_tb_top top{&ctx, "top"};
  void eval() { top.eval(); }
};

Dut& dut() {
  static Dut d;
  return d;
}

/// Collects mismatches; prints the first few and checks the count at the end of a case.
class Mismatches {
 public:
  explicit Mismatches(std::string what) : what_(std::move(what)) {}
  void add(const std::string& detail) {
    if (count_ < 8) BOOST_TEST_MESSAGE(what_ << " mismatch: " << detail);
    ++count_;
  }
  void check(uint64_t vectors) const {
    BOOST_TEST_MESSAGE(what_ << ": " << vectors << " vectors, " << count_ << " mismatches");
    BOOST_TEST(count_ == 0u, what_ << ": " << count_ << " of " << vectors << " vectors differ");
  }

 private:
  std::string what_;
  uint64_t count_ = 0;
};

// ---------------------------------------------------------------- FP32 operand generators

/// Every special class of binary32 in both signs: zeros, smallest/largest subnormals, smallest
/// normal, 1, values around 1, largest normal, inf, quiet/signalling NaNs with payloads.
std::vector<uint32_t> f32_specials() {
  const uint32_t mags[] = {0x00000000, 0x00000001, 0x00000002, 0x00000003, 0x003FFFFF, 0x00400000,
                           0x007FFFFF, 0x00800000, 0x00800001, 0x00FFFFFF, 0x01000000, 0x0C000000,
                           0x33800000, 0x34000000, 0x3F000000, 0x3F7FFFFF, 0x3F800000, 0x3F800001,
                           0x3FC00000, 0x40000000, 0x4B000000, 0x4B7FFFFF, 0x7E800000, 0x7EFFFFFF,
                           0x7F000000, 0x7F7FFFFE, 0x7F7FFFFF, 0x7F800000, 0x7F800001, 0x7FC00000,
                           0x7FFFFFFF, 0x7FA00000};
  std::vector<uint32_t> v;
  for (uint32_t m : mags) {
    v.push_back(m);
    v.push_back(m | 0x80000000u);
  }
  return v;
}

/// Random operand pairs from several distributions: raw bits, close exponents (cancellation,
/// ties in alignment), subnormal-heavy, extreme exponents (overflow/underflow of products).
std::pair<uint32_t, uint32_t> random_pair(std::mt19937_64& rng, unsigned kind) {
  const uint32_t r1 = static_cast<uint32_t>(rng());
  const uint32_t r2 = static_cast<uint32_t>(rng());
  switch (kind % 5) {
    case 0:  // raw bits
      return {r1, r2};
    case 1: {  // exponents within 3 of each other: cancellation and one-bit alignments
      const uint32_t e = (r1 >> 23) & 0xFF;
      const uint32_t d = (r2 >> 29) & 3;
      const uint32_t e2 = (e + d) & 0xFF;
      return {r1, (r2 & 0x807FFFFFu) | (e2 << 23)};
    }
    case 2:  // subnormals and tiny normals
      return {r1 & 0x80FFFFFFu, r2 & 0x80FFFFFFu};
    case 3: {  // exponents whose sum is near the normal/subnormal or overflow boundary
      const uint32_t e1 = (r1 >> 24) & 0x7F;
      const uint32_t e2 =
          ((r2 >> 28) & 1) ? (127 - e1 + ((r2 >> 24) & 15)) : (254 - e1 - ((r2 >> 24) & 15));
      return {(r1 & 0x807FFFFFu) | (e1 << 23), (r2 & 0x807FFFFFu) | ((e2 & 0xFF) << 23)};
    }
    default: {  // same magnitude up to the last bits (exact cancellation, ties)
      const uint32_t b = (r1 & 0xFFFFFFF0u) | (r2 & 0xF);
      return {r1, b ^ ((r2 >> 8) & 1 ? 0x80000000u : 0)};
    }
  }
}

template <typename Fn>
void check_binary(const char* what, Fn apply_both, uint64_t n_random) {
  std::mt19937_64 rng(kSeed);
  Mismatches mm(what);
  uint64_t count = 0;
  const auto sp = f32_specials();
  for (uint32_t a : sp)
    for (uint32_t b : sp) {
      apply_both(a, b, mm);
      ++count;
    }
  for (uint64_t i = 0; i < n_random; ++i) {
    auto [a, b] = random_pair(rng, static_cast<unsigned>(i));
    apply_both(a, b, mm);
    ++count;
  }
  mm.check(count);
}

/// binary32 a + b (or a * b) rounded to nearest even by MPFR with binary32's precision, exponent
/// range and subnormals; any NaN result is reported as the canonical 0x7FC00000.
class Mpfr32 {
 public:
  Mpfr32() {
    mpfr_init2(a_, 24);
    mpfr_init2(b_, 24);
    mpfr_init2(y_, 24);
  }
  ~Mpfr32() {
    mpfr_clear(a_);
    mpfr_clear(b_);
    mpfr_clear(y_);
  }
  Mpfr32(const Mpfr32&) = delete;
  Mpfr32& operator=(const Mpfr32&) = delete;

  uint32_t op(uint32_t a, uint32_t b, bool mul) {
    const mpfr_exp_t emin = mpfr_get_emin(), emax = mpfr_get_emax();
    // binary32: smallest subnormal 2^-149 = 0.5 * 2^-148, largest finite < 2^128.
    mpfr_set_emin(-148);
    mpfr_set_emax(128);
    mpfr_set_flt(a_, num::f32_from_bits(a), MPFR_RNDN);  // exact
    mpfr_set_flt(b_, num::f32_from_bits(b), MPFR_RNDN);
    int t = mul ? mpfr_mul(y_, a_, b_, MPFR_RNDN) : mpfr_add(y_, a_, b_, MPFR_RNDN);
    t = mpfr_subnormalize(y_, t, MPFR_RNDN);
    (void)t;
    const bool nan = mpfr_nan_p(y_) != 0;
    const float r = mpfr_get_flt(y_, MPFR_RNDN);  // exact: y_ is a binary32 value
    mpfr_set_emin(emin);
    mpfr_set_emax(emax);
    return nan ? num::kF32CanonicalNaN : num::f32_bits(r);
  }

 private:
  mpfr_t a_, b_, y_;
};

Mpfr32& mpfr32() {
  static Mpfr32 m;
  return m;
}

/// a + b (or a * b) on the RTL against the golden numerics and MPFR.
void check_add_mul(uint32_t a, uint32_t b, bool mul, Mismatches& mm) {
  auto& d = dut();
  d.top.fa_i = a;
  d.top.fb_i = b;
  d.eval();
  const float fa = num::f32_from_bits(a), fb = num::f32_from_bits(b);
  const uint32_t rtl = mul ? d.top.mul_o : d.top.add_o;
  const uint32_t want = num::f32_bits(mul ? num::mul(fa, fb) : num::add(fa, fb));
  const uint32_t oracle = mpfr32().op(a, b, mul);
  if (rtl != want || want != oracle)
    mm.add(hex(a, 8) + (mul ? " * " : " + ") + hex(b, 8) + ": rtl " + hex(rtl, 8) + " golden " +
           hex(want, 8) + " mpfr " + hex(oracle, 8));
}

void check_add(uint32_t a, uint32_t b, Mismatches& mm) { check_add_mul(a, b, false, mm); }
void check_mul(uint32_t a, uint32_t b, Mismatches& mm) { check_add_mul(a, b, true, mm); }

}  // namespace

BOOST_AUTO_TEST_CASE(fp32_add) { check_binary("moe_fp32_add", check_add, 1'000'000); }

BOOST_AUTO_TEST_CASE(fp32_mul) { check_binary("moe_fp32_mul", check_mul, 1'000'000); }

// Subnormal products that look like a tie to even unless the bits shifted out by the
// denormalisation count in the sticky bit (random operands reach this with probability ~2^-23;
// the RTL mutation campaign's 34_mul_sticky survived every other check). For s = 2..22:
// a = (1 + 2^-23) 2^-63, b = (1 + c 2^-23) 2^(-63-s), c = 2^(s-1) - 1. The exact product is
// (2^23 + 1)(2^23 + c) 2^(-172-s) = (2^46 + 2^(s+22) + c) 2^(-172-s); on the subnormal grid
// (2^-149) that is k + 1/2 + c 2^(-23-s) with k = 2^(23-s) even, so round-to-nearest-even must
// round up to k + 1, while a sticky bit blind to the shifted-out c would see an exact tie and
// keep k. Each in both operand orders and all four sign combinations; MPFR is the oracle.
BOOST_AUTO_TEST_CASE(fp32_mul_subnormal_sticky) {
  Mismatches mm("moe_fp32_mul (subnormal sticky)");
  uint64_t count = 0;
  for (uint32_t s = 2; s <= 22; ++s) {
    const uint32_t a = (uint32_t{127 - 63} << 23) | 1u;
    const uint32_t b = ((127 - 63 - s) << 23) | ((uint32_t{1} << (s - 1)) - 1);
    for (uint32_t signs = 0; signs < 4; ++signs) {
      const uint32_t sa = a | ((signs & 1u) << 31), sb = b | ((signs >> 1) << 31);
      check_mul(sa, sb, mm);
      check_mul(sb, sa, mm);
      count += 2;
    }
  }
  mm.check(count);
}

BOOST_AUTO_TEST_CASE(fp32_minmax) {
  for (int is_max = 0; is_max < 2; ++is_max) {
    check_binary(
        is_max ? "moe_fp32_minmax(max)" : "moe_fp32_minmax(min)",
        [is_max](uint32_t a, uint32_t b, Mismatches& mm) {
          auto& d = dut();
          d.top.fa_i = a;
          d.top.fb_i = b;
          d.top.max_i = static_cast<uint8_t>(is_max);
          d.eval();
          const float fa = num::f32_from_bits(a), fb = num::f32_from_bits(b);
          const uint32_t want = num::f32_bits(is_max ? num::max(fa, fb) : num::min(fa, fb));
          if (d.top.minmax_o != want)
            mm.add(hex(a, 8) + (is_max ? " max " : " min ") + hex(b, 8) + ": rtl " +
                   hex(d.top.minmax_o, 8) + " golden " + hex(want, 8));
        },
        200'000);
  }
}

BOOST_AUTO_TEST_CASE(bf16_round) {
  auto& d = dut();
  Mismatches mm("moe_bf16_round");
  uint64_t count = 0;
  auto one = [&](uint32_t f) {
    d.top.round_f_i = f;
    d.eval();
    const uint16_t want = num::f32_to_bf16(num::f32_from_bits(f));
    if (d.top.round_o != want)
      mm.add(hex(f, 8) + ": rtl " + hex(d.top.round_o, 4) + " golden " + hex(want, 4));
    ++count;
  };
  // Every upper half with the boundary lower halves: exact, below/at/above the tie, max.
  const uint32_t lows[] = {0x0000, 0x0001, 0x7FFF, 0x8000, 0x8001, 0xFFFF};
  for (uint32_t hi = 0; hi < 0x10000; ++hi)
    for (uint32_t lo : lows) one((hi << 16) | lo);
  std::mt19937_64 rng(kSeed + 1);
  for (int i = 0; i < 1'000'000; ++i) one(static_cast<uint32_t>(rng()));
  mm.check(count);
}

BOOST_AUTO_TEST_CASE(e4m3_all_codes) {
  auto& d = dut();
  Mismatches mm("moe_e4m3_to_fp32");
  for (uint32_t c = 0; c < 256; ++c) {
    d.top.code_i = static_cast<uint8_t>(c);
    d.eval();
    const uint32_t want = num::f32_bits(num::e4m3_to_f32(static_cast<uint8_t>(c)));
    if (d.top.e4m3_o != want)
      mm.add(hex(c, 2) + ": rtl " + hex(d.top.e4m3_o, 8) + " golden " + hex(want, 8));
  }
  mm.check(256);
}

// Every position of the leading one with random bits below it (all of them for the widths up to
// 12), and zero (which the module documents as 2^ceil(log2(WIDTH)) - 1).
BOOST_AUTO_TEST_CASE(lzc_widths) {
  auto& d = dut();
  struct Width {
    unsigned bits;
    uint32_t (*count)(const Vmoe_units_tb_top&);
  };
  const Width widths[] = {
      {3, [](const Vmoe_units_tb_top& t) -> uint32_t { return t.lzc3_o; }},
      {12, [](const Vmoe_units_tb_top& t) -> uint32_t { return t.lzc12_o; }},
      {27, [](const Vmoe_units_tb_top& t) -> uint32_t { return t.lzc27_o; }},
      {48, [](const Vmoe_units_tb_top& t) -> uint32_t { return t.lzc48_o; }},
  };
  std::mt19937_64 rng(kSeed + 7);
  for (const Width& w : widths) {
    Mismatches mm("moe_lzc WIDTH=" + std::to_string(w.bits));
    uint64_t count = 0;
    auto one = [&](uint64_t v) {
      d.top.lzc_in_i = v;
      d.eval();
      unsigned want = 0;
      while (want < w.bits && !((v >> (w.bits - 1 - want)) & 1u)) ++want;
      if (v == 0) {
        unsigned cnt_w = 0;
        while ((1u << cnt_w) < w.bits) ++cnt_w;
        want = (1u << cnt_w) - 1;
      }
      if (w.count(d.top) != want)
        mm.add(hex(v, 12) + ": rtl " + std::to_string(w.count(d.top)) + " want " +
               std::to_string(want));
      ++count;
    };
    if (w.bits <= 12) {
      for (uint64_t v = 0; v < (uint64_t{1} << w.bits); ++v) one(v);
    } else {
      one(0);
      for (unsigned p = 0; p < w.bits; ++p) {
        const uint64_t below = (uint64_t{1} << p) - 1;
        one(uint64_t{1} << p);
        one((uint64_t{1} << p) | below);
        for (int i = 0; i < 200; ++i) one((uint64_t{1} << p) | (rng() & below));
      }
    }
    mm.check(count);
  }
}

BOOST_AUTO_TEST_CASE(mx_dequant_all_pairs) {
  auto& d = dut();
  Mismatches mm("moe_mx_dequant");
  for (uint32_t s = 0; s < 256; ++s)
    for (uint32_t c = 0; c < 256; ++c) {
      d.top.code_i = static_cast<uint8_t>(c);
      d.top.scale_i = static_cast<uint8_t>(s);
      d.eval();
      const uint16_t want = num::mx_dequant_bf16(static_cast<uint8_t>(c), static_cast<uint8_t>(s));
      if (d.top.dequant_o != want)
        mm.add("code " + hex(c, 2) + " scale " + hex(s, 2) + ": rtl " + hex(d.top.dequant_o, 4) +
               " golden " + hex(want, 4));
    }
  mm.check(65536);
}

namespace {

/// A block of BF16 values of one kind. Kinds cover random bits, a common binade with random
/// spread, exact E4M3 ties after scaling, saturation (amax mantissa near 2 so |x|/2^e rounds
/// above 448), all zero, one NaN, infinities, subnormals only, and tiny values next to a big one.
std::vector<uint16_t> make_block(std::mt19937_64& rng, size_t n, unsigned kind) {
  std::vector<uint16_t> x(n);
  auto r16 = [&] { return static_cast<uint16_t>(rng()); };
  switch (kind % 10) {
    case 0:
      for (auto& v : x) v = r16();
      break;
    case 1: {  // exponents within a window of 12 around a random centre
      const int centre = 8 + static_cast<int>(rng() % 230);
      for (auto& v : x) {
        const int e = std::min(254, std::max(0, centre - static_cast<int>(rng() % 12)));
        v = static_cast<uint16_t>((r16() & 0x807F) | (e << 7));
      }
      break;
    }
    case 2: {  // ties: mantissa bits set exactly at the E4M3 rounding position
      const int e = 20 + static_cast<int>(rng() % 200);
      for (auto& v : x) {
        const int de = static_cast<int>(rng() % 10);
        const uint16_t mant =
            static_cast<uint16_t>(((rng() % 8) << 4) | 0x08);  // xxx1000: half an E4M3 ulp
        v = static_cast<uint16_t>((r16() & 0x8000) | ((e - de) << 7) | mant);
      }
      x[0] = static_cast<uint16_t>((e << 7) | 0x70);  // amax fixes the binade
      break;
    }
    case 3: {  // saturation: amax close to 2^(floor+1) -> x / 2^e in [448, 512)
      const int e = 1 + static_cast<int>(rng() % 253);
      for (auto& v : x)
        v = static_cast<uint16_t>((r16() & 0x8000) | (e << 7) | (0x60 | (r16() & 0x1F)));
      break;
    }
    case 4:
      for (auto& v : x) v = (rng() & 1) ? 0x8000 : 0x0000;
      break;
    case 5:
      for (auto& v : x) v = r16();
      x[rng() % n] = static_cast<uint16_t>(0x7F80 | 1 | (r16() & 0x807F));
      break;
    case 6:  // infinities among finite values (no NaN)
      for (auto& v : x) v = static_cast<uint16_t>(r16() & 0xBF7F);
      x[rng() % n] = (rng() & 1) ? 0x7F80 : 0xFF80;
      break;
    case 7:  // BF16 subnormals and zeros only
      for (auto& v : x) v = static_cast<uint16_t>(r16() & 0x807F);
      break;
    case 8: {  // one large value, the rest far below (codes round to zero or subnormal)
      const int e = 30 + static_cast<int>(rng() % 200);
      for (auto& v : x) {
        const int de = 6 + static_cast<int>(rng() % 14);
        v = static_cast<uint16_t>((r16() & 0x807F) | ((e - de) << 7));
      }
      x[rng() % n] = static_cast<uint16_t>((r16() & 0x807F) | (e << 7));
      break;
    }
    default:  // small normals near the clamp of e at -127
      for (auto& v : x) v = static_cast<uint16_t>((r16() & 0x807F) | ((rng() % 12) << 7));
      break;
  }
  return x;
}

template <size_t N, typename XPort>
void set_block(XPort& port, const std::vector<uint16_t>& x) {
  for (size_t i = 0; i < N; ++i) {
    const size_t word = (16 * i) / 32, sh = (16 * i) % 32;
    port[word] = (port[word] & ~(0xFFFFu << sh)) | (uint32_t(x[i]) << sh);
  }
}

uint8_t code_at(const uint32_t* words, size_t i) {
  return static_cast<uint8_t>(words[i / 4] >> (8 * (i % 4)));
}

template <size_t N>
void check_quant(uint64_t n_blocks) {
  auto& d = dut();
  std::mt19937_64 rng(kSeed + N);
  Mismatches mm("moe_mx_quant_block N=" + std::to_string(N));
  for (uint64_t b = 0; b < n_blocks; ++b) {
    const auto x = make_block(rng, N, static_cast<unsigned>(b));
    std::array<uint8_t, N> want{}, ref{};
    const uint8_t want_scale = num::mx_quantize(x.data(), N, want.data());
    const uint8_t ref_scale = moesim::test::mx_quantize_ref(x.data(), N, ref.data());
    uint8_t got_scale;
    const uint32_t* codes;
    if constexpr (N == 8) {
      set_block<8>(d.top.q8_x_i, x);
      d.eval();
      got_scale = d.top.q8_scale_o;
      codes = reinterpret_cast<const uint32_t*>(&d.top.q8_codes_o);
    } else {
      set_block<32>(d.top.q32_x_i, x);
      d.eval();
      got_scale = d.top.q32_scale_o;
      codes = d.top.q32_codes_o.data();
    }
    bool bad = got_scale != want_scale || want_scale != ref_scale;
    for (size_t i = 0; i < N; ++i) bad |= code_at(codes, i) != want[i] || want[i] != ref[i];
    if (bad) {
      std::ostringstream os;
      os << "block kind " << b % 10 << " x =";
      for (auto v : x) os << ' ' << hex(v, 4);
      os << " | rtl scale " << hex(got_scale, 2) << " codes";
      for (size_t i = 0; i < N; ++i) os << ' ' << hex(code_at(codes, i), 2);
      os << " | golden scale " << hex(want_scale, 2) << " codes";
      for (auto c : want) os << ' ' << hex(c, 2);
      os << " | oracle scale " << hex(ref_scale, 2) << " codes";
      for (auto c : ref) os << ' ' << hex(c, 2);
      mm.add(os.str());
    }
  }
  mm.check(n_blocks);
}

}  // namespace

BOOST_AUTO_TEST_CASE(mx_quant_block8) { check_quant<8>(200'000); }
BOOST_AUTO_TEST_CASE(mx_quant_block32) { check_quant<32>(50'000); }

namespace {

/// Sets `width` bits at bit `bit` of a Verilated port (a wide VlWide or a scalar word).
template <typename P>
void put_bits(P& port, size_t bit, size_t width, uint32_t v) {
  if constexpr (std::is_integral_v<P>) {
    const P mask = static_cast<P>(((P{1} << width) - 1) << bit);
    port = static_cast<P>((port & ~mask) | (static_cast<P>(v) << bit));
  } else {
    const size_t word = bit / 32, sh = bit % 32;
    const uint32_t mask = ((1u << width) - 1) << sh;
    port[word] = (port[word] & ~mask) | (v << sh);
  }
}

/// moe_mx_dot #(N, PER_ELEM) against num::mx_block_dot / num::mx_block_tdot on `n_vectors`
/// random vectors (any codes; cancelling, overflowing and subnormal products; special scales).
template <size_t N, bool PerElem>
void check_dot(uint64_t n_vectors, const char* name) {
  auto& d = dut();
  std::mt19937_64 rng(kSeed + 3 + N + (PerElem ? 100 : 0));
  Mismatches mm(name);
  const std::array<uint8_t, 4> special{0x00, 0x01, 0xFE, 0xFF};
  for (uint64_t t = 0; t < n_vectors; ++t) {
    std::array<uint16_t, N> a{};
    std::array<uint8_t, N> w{}, s{};
    const unsigned kind = static_cast<unsigned>(t % 4);
    for (size_t i = 0; i < N; ++i) {
      const uint16_t r = static_cast<uint16_t>(rng());
      if (kind == 0) {
        a[i] = r;  // anything, including inf/NaN/subnormal
        w[i] = static_cast<uint8_t>(rng());
      } else if (kind == 1) {  // activations of similar size, signs mixed: cancellation
        a[i] = static_cast<uint16_t>((r & 0x807F) | ((120 + rng() % 16) << 7));
        w[i] = static_cast<uint8_t>(rng() & 0xFE);
      } else if (kind == 2) {  // huge activations: overflow of products and sums
        a[i] = static_cast<uint16_t>((r & 0x807F) | ((240 + rng() % 15) << 7));
        w[i] = static_cast<uint8_t>((rng() & 0x87) | 0x70);
      } else {  // tiny activations: subnormal products
        a[i] = static_cast<uint16_t>((r & 0x807F) | ((rng() % 6) << 7));
        w[i] = static_cast<uint8_t>(rng());
      }
      // Per-element scales: mostly near 127 (sums that cancel), sometimes anything or special.
      const uint64_t rs = rng();
      s[i] = (rs % 8 == 0)   ? special[(rs >> 3) % 4]
             : (rs % 8 == 1) ? static_cast<uint8_t>(rs >> 8)
                             : static_cast<uint8_t>(120 + (rs >> 8) % 16);
    }
    uint8_t scale = static_cast<uint8_t>(rng());
    if (t % 16 == 0) scale = special[(t / 16) % 4];
    uint32_t got;
    if constexpr (N == 8) {
      static_assert(!PerElem, "the bench has no N = 8 per-element instance");
      for (size_t i = 0; i < N; ++i) put_bits(d.top.dot8_a_i, 16 * i, 16, a[i]);
      for (size_t i = 0; i < N; ++i) put_bits(d.top.dot8_w_i, 8 * i, 8, w[i]);
      d.top.dot8_scale_i = scale;
      d.eval();
      got = d.top.dot8_o;
    } else {
      static_assert(N == 32, "the bench has N = 8 and N = 32 instances");
      for (size_t i = 0; i < N; ++i) put_bits(d.top.dot32_a_i, 16 * i, 16, a[i]);
      for (size_t i = 0; i < N; ++i) put_bits(d.top.dot32_w_i, 8 * i, 8, w[i]);
      d.top.dot32_scale_i = scale;
      for (size_t i = 0; i < N; ++i) put_bits(d.top.tdot32_scale_i, 8 * i, 8, s[i]);
      d.eval();
      got = PerElem ? d.top.tdot32_o : d.top.dot32_o;
    }
    const uint32_t want =
        num::f32_bits(PerElem ? num::mx_block_tdot(a.data(), w.data(), s.data(), N)
                              : num::mx_block_dot(a.data(), w.data(), N, scale));
    if (got != want) {
      std::ostringstream os;
      os << "a =";
      for (auto v : a) os << ' ' << hex(v, 4);
      os << " w =";
      for (auto v : w) os << ' ' << hex(v, 2);
      if (PerElem) {
        os << " scales =";
        for (auto v : s) os << ' ' << hex(v, 2);
      } else {
        os << " scale " << hex(scale, 2);
      }
      os << ": rtl " << hex(got, 8) << " golden " << hex(want, 8);
      mm.add(os.str());
    }
  }
  mm.check(n_vectors);
}

}  // namespace

BOOST_AUTO_TEST_CASE(mx_dot8) { check_dot<8, false>(300'000, "moe_mx_dot N=8"); }
BOOST_AUTO_TEST_CASE(mx_dot32) { check_dot<32, false>(100'000, "moe_mx_dot N=32"); }
BOOST_AUTO_TEST_CASE(mx_tdot32) { check_dot<32, true>(100'000, "moe_mx_dot N=32 PER_ELEM_SCALE"); }

BOOST_AUTO_TEST_CASE(bf16_rom_all_inputs) {
  // The ROM module alone, loaded once per table through its public array (as rtl_model.cpp does):
  // SQRT_BF16 against the exact integer oracle, EXP_BF16 and RECI_BF16 against the golden tables
  // (which test_bf16_tables checks against its __float128 oracle), on all 65536 addresses.
  auto& d = dut();
  auto& mem = d.top.rootp->moe_units_tb_top__DOT__u_rom__DOT__mem;
  struct Table {
    const char* name;
    const uint16_t* data;
  };
  for (const Table& t :
       {Table{"SQRT_BF16", num::sqrt_bf16_table()}, Table{"EXP_BF16", num::exp_bf16_table()},
        Table{"RECI_BF16", num::reci_bf16_table()}}) {
    for (size_t i = 0; i < 65536; ++i) mem[i] = t.data[i];
    Mismatches mm(std::string("moe_bf16_rom ") + t.name);
    for (uint32_t c = 0; c < 65536; ++c) {
      d.top.rom_addr_i = static_cast<uint16_t>(c);
      d.eval();
      const uint16_t want = t.data == num::sqrt_bf16_table()
                                ? moesim::test::sqrt_bf16_exact(static_cast<uint16_t>(c))
                                : t.data[c];
      if (d.top.rom_data_o != want)
        mm.add(hex(c, 4) + ": rtl " + hex(d.top.rom_data_o, 4) + " want " + hex(want, 4));
    }
    mm.check(65536);
  }
}
