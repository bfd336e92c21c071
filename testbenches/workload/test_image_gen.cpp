// The program builder's image generator against the library functions it replaces: Mt64 against
// std::mt19937_64 (seeding, bulk output, skipping), and the table MX quantiser against
// num::mx_quantize on every BF16 value under every shared exponent.
#include <boost/test/unit_test.hpp>
#include <random>
#include <vector>

#include "image_gen.hpp"

using namespace moesim;
using workload::image_gen::Mt64;

BOOST_AUTO_TEST_CASE(image_gen_mt64_is_std_mt19937_64) {
  for (uint64_t seed : {0ull, 1ull, 7ull, 12345678901234ull, ~0ull}) {
    std::mt19937_64 ref(seed);
    Mt64 a(seed);
    std::vector<uint64_t> buf(1000);
    uint64_t differ = 0;
    for (int round = 0; round < 2000; ++round) {
      const size_t n = static_cast<size_t>(round * 37 % 1000);
      if (round % 3 == 0) {
        a.discard(n);
        ref.discard(n);
        continue;
      }
      a.fill(buf.data(), n);
      for (size_t i = 0; i < n; ++i) differ += buf[i] != ref();
      differ += a() != ref();
    }
    BOOST_TEST(differ == 0u, "seed " << seed);
  }
}

BOOST_AUTO_TEST_CASE(image_gen_mx_quantizer_is_num_mx_quantize) {
  // Every BF16 value x in a block whose other element sets the shared exponent (every biased
  // exponent, mantissa 0 and 127): the fast path, and every fallback (NaN, inf, subnormal,
  // zero, clamped exponent).
  const auto& q = workload::image_gen::mx_quantizer();
  uint64_t blocks = 0, differ = 0;
  for (unsigned ea = 0; ea <= 255; ++ea) {
    for (unsigned ma : {0u, 127u}) {
      for (unsigned x = 0; x < 65536; ++x) {
        const uint16_t blk[2] = {static_cast<uint16_t>(x), static_cast<uint16_t>(ea << 7 | ma)};
        uint8_t fast[2], ref[2];
        const uint8_t sf = q.quantize(blk, 2, fast), sr = num::mx_quantize(blk, 2, ref);
        ++blocks;
        differ += sf != sr || fast[0] != ref[0] || fast[1] != ref[1];
      }
    }
  }
  BOOST_TEST(blocks == 256u * 2 * 65536);
  BOOST_TEST(differ == 0u);
  // Random 32-element blocks of the generator's spread.
  std::mt19937_64 rng(3);
  std::normal_distribution<float> nd(0.0f, 0.05f);
  for (int b = 0; b < 20000; ++b) {
    uint16_t blk[32];
    for (auto& v : blk) v = num::f32_to_bf16(nd(rng));
    uint8_t fast[32], ref[32];
    BOOST_TEST(q.quantize(blk, 32, fast) == num::mx_quantize(blk, 32, ref));
    BOOST_TEST(std::equal(fast, fast + 32, ref));
  }
}
