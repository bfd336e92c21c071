// DMA unit: H_PREFETCH_M (codes and scales as stored), H_PREFETCH_V (dequantisation, STRIDE),
// H_STORE_V (OCP MX quantisation), HBM latency model, and the traps (tiny preset: HBM_V_ROWS 4,
// HBM_M_ROWS 16, MLEN = VLEN = 16, MX_BLOCK 8, HBM 16 MiB).
#include "golden_test_util.hpp"

using namespace gt;

namespace {
/// A byte pattern for HBM contents that differs per address.
uint8_t pattern(uint64_t addr) { return static_cast<uint8_t>((addr * 7 + 3) & 0xFF); }
}  // namespace

BOOST_AUTO_TEST_CASE(dma_prefetch_m) {
  Bench b;
  std::vector<uint8_t> hbm(8192);
  for (uint64_t i = 0; i < hbm.size(); ++i) hbm[i] = pattern(4096 + i);
  b.hbm_bytes(4096, hbm);
  b.run(R"(
    ; @stage=expert_weight_prefetch
    S_ADDI_INT gp1, gp0, 4096
    C_SET_ADDR_REG a2, gp0, gp1     ; a2 = 4096
    S_ADDI_INT gp1, gp0, 2048
    C_SET_SCALE_REG gp1             ; scales at base + 2048 + o/8
    S_ADDI_INT gp2, gp0, 32         ; o = 32 + 16 i (rstride 0: S = MLEN)
    S_ADDI_INT gp3, gp0, 256        ; MRAM tile row 16 (tile 1)
    H_PREFETCH_M gp3, gp2, a2, 0, 0
  )");
  BOOST_TEST_REQUIRE(b.recs.size() == 7u);
  BOOST_TEST(b.recs[1].regs == (std::vector<RegWrite>{{RegFile::Addr, 2, 4096}}),
             boost::test_tools::per_element());
  BOOST_TEST(b.recs[3].regs == (std::vector<RegWrite>{{RegFile::Ctrl, 0, 2048}}),
             boost::test_tools::per_element());
  const std::vector<uint8_t> mram = b.model.read(Space::Mram, 16, 16);
  BOOST_TEST_REQUIRE(mram.size() == 16u * 18u);
  for (uint64_t i = 0; i < 16; ++i) {
    std::vector<uint8_t> want;
    for (uint64_t e = 0; e < 16; ++e) want.push_back(pattern(4096 + 32 + 16 * i + e));
    for (uint64_t s = 0; s < 2; ++s) want.push_back(pattern(4096 + 2048 + (32 + 16 * i) / 8 + s));
    const std::vector<uint8_t> got(mram.begin() + 18 * i, mram.begin() + 18 * (i + 1));
    BOOST_TEST_CONTEXT("MRAM row " << 16 + i) {
      BOOST_TEST(got == want, boost::test_tools::per_element());
    }
  }
  BOOST_TEST(b.model.read(Space::Mram, 15, 1) == std::vector<uint8_t>(18, 0),
             boost::test_tools::per_element());
  BOOST_TEST(b.recs[6].mems == (std::vector<MemWrite>{{Space::Mram, 16, 32, 0}}),
             boost::test_tools::per_element());
  const int64_t l = b.lat("H_PREFETCH_M", {{"rows", 16}, {"len", 16}});
  BOOST_TEST(b.recs[6].end_cycle - b.recs[6].start_cycle == static_cast<uint64_t>(l));
}

BOOST_AUTO_TEST_CASE(dma_prefetch_v_dequant_stride) {
  Bench b;
  // Rows at a1 + 64 i (rstride 1, STRIDE 64); scales at a1 + SCALE + 8 i.
  const uint64_t base = 8192, scale = 2048;
  const std::vector<std::vector<uint8_t>> codes{{0x38, 0x01, 0x7F, 0x80, 0x38, 0x38, 0x38, 0x38,
                                                 0x38, 0x38, 0x38, 0x38, 0x38, 0x38, 0x38, 0x38},
                                                {0x44, 0x44, 0x44, 0x44, 0x44, 0x44, 0x44, 0x44,
                                                 0xC0, 0xC0, 0xC0, 0xC0, 0xC0, 0xC0, 0xC0, 0xC0},
                                                {0x7E, 0x7E, 0x7E, 0x7E, 0x7E, 0x7E, 0x7E, 0x7E,
                                                 0x08, 0x08, 0x08, 0x08, 0x08, 0x08, 0x08, 0x08},
                                                std::vector<uint8_t>(16, 0)};
  const std::vector<std::vector<uint8_t>> scales{{127, 0xFF}, {128, 126}, {0, 120}, {127, 127}};
  for (uint64_t i = 0; i < 4; ++i) {
    b.hbm_bytes(base + 64 * i, codes[i]);
    b.hbm_bytes(base + scale + 8 * i, scales[i]);
  }
  b.run(R"(
    S_ADDI_INT gp1, gp0, 8192
    C_SET_ADDR_REG a1, gp0, gp1
    S_ADDI_INT gp1, gp0, 2048
    C_SET_SCALE_REG gp1
    S_ADDI_INT gp1, gp0, 64
    C_SET_STRIDE_REG gp1
    S_ADDI_INT gp3, gp0, 1600       ; VRAM rows 100..103
    H_PREFETCH_V gp3, gp0, a1, 1, 0
  )");
  BOOST_TEST_REQUIRE(b.recs.size() == 8u);
  // e4m3(code) * 2^(scale-127) -> BF16: 0x38 @127 = 1.0; 0x01 @127 = 2^-9 (0x3B00); code 0x7F
  // or scale 0xFF = NaN; 0x80 = -0; 0x44 @128 = 6.0; 0xC0 @126 = -1.0; 0x7E @0 = 448 * 2^-127
  // (0x0460); 0x08 @120 = 2^-6 * 2^-7 (0x3900).
  std::vector<uint16_t> r0 = fill(16, 0x7FC0);
  r0[0] = 0x3F80;
  r0[1] = 0x3B00;
  r0[3] = 0x8000;
  for (int e = 4; e < 8; ++e) r0[e] = 0x3F80;
  BOOST_TEST(b.row(100) == r0, boost::test_tools::per_element());
  std::vector<uint16_t> r1 = fill(16, bf(6.0f));
  for (int e = 8; e < 16; ++e) r1[e] = bf(-1.0f);
  BOOST_TEST(b.row(101) == r1, boost::test_tools::per_element());
  std::vector<uint16_t> r2 = fill(16, 0x0460);
  for (int e = 8; e < 16; ++e) r2[e] = 0x3900;
  BOOST_TEST(b.row(102) == r2, boost::test_tools::per_element());
  BOOST_TEST(b.row(103) == fill(16, 0), boost::test_tools::per_element());
  BOOST_TEST(b.recs[7].mems == (std::vector<MemWrite>{{Space::Vram, 100, 104, 0}}),
             boost::test_tools::per_element());
  BOOST_TEST(b.model.regs().stride == 64u);
  const int64_t l = b.lat("H_PREFETCH_V", {{"rows", 4}, {"len", 16}});
  BOOST_TEST(b.recs[7].end_cycle - b.recs[7].start_cycle == static_cast<uint64_t>(l));
}

BOOST_AUTO_TEST_CASE(dma_store_v_quantise) {
  Bench b;
  // Row 110: block 0 = 1, 2, 3, 4, 0.5, -1, 0, 0.75: amax 4, e = 2 - 8 = -6, scale 121, codes
  // x * 64 = 64, 128, 192, 256, 32, -64, 0, 48 -> 0x68 0x70 0x74 0x78 0x60 0xE8 0x00 0x64.
  // Block 1 = 1, BF16(1/3) = 0.333984375, 100, -7, BF16(0.001) = 0x3A83, 2.5, -0, 5: amax 100,
  // e = 6 - 8 = -2, scale 125, x * 4 = 4, 1.3359375 (-> 1.375), 400 (tie 384/416 -> 384, even),
  // -28, 0.0039978 (-> 2 * 2^-9), 10, -0, 20 -> 0x48 0x3B 0x7C 0xDE 0x02 0x52 0x80 0x5A.
  b.vram_row(110, {bf(1.0f), bf(2.0f), bf(3.0f), bf(4.0f), bf(0.5f), bf(-1.0f), 0, bf(0.75f),
                   bf(1.0f), 0x3EAB, bf(100.0f), bf(-7.0f), 0x3A83, bf(2.5f), 0x8000, bf(5.0f)});
  // Row 111: block 0 holds a NaN (scale 0xFF, codes 0x7F); block 1 all zero (amax 0: scale 0).
  std::vector<uint16_t> r111 = fill(16, 0);
  r111[0] = bf(1.0f);
  r111[3] = 0x7FC0;
  b.vram_row(111, r111);
  // Row 112: block 0 = +inf, 1.0, -1.0, 0...: an infinite amax gives e = 127, scale 254; inf
  // saturates to 448 (0x7E); +-1.0 / 2^127 round to +0 (0x00) and -0 (0x80).
  std::vector<uint16_t> r112 = fill(16, 0);
  r112[0] = 0x7F80;
  r112[1] = bf(1.0f);
  r112[2] = bf(-1.0f);
  b.vram_row(112, r112);
  b.run(R"(
    ; @stage=non_moe
    S_ADDI_INT gp1, gp0, 12288
    C_SET_ADDR_REG a2, gp0, gp1
    S_ADDI_INT gp1, gp0, 2048
    C_SET_SCALE_REG gp1
    S_ADDI_INT gp3, gp0, 1760       ; VRAM rows 110..113
    H_STORE_V gp3, gp0, a2, 0, 0    ; rows at 12288 + 16 i, scales at 14336 + 2 i
  )");
  BOOST_TEST_REQUIRE(b.recs.size() == 6u);
  const std::vector<uint8_t> codes = b.model.read(Space::Hbm, 12288, 64);
  const std::vector<uint8_t> want_codes{
      0x68, 0x70, 0x74, 0x78, 0x60, 0xE8, 0x00, 0x64, 0x48, 0x3B, 0x7C, 0xDE, 0x02,
      0x52, 0x80, 0x5A, 0x7F, 0x7F, 0x7F, 0x7F, 0x7F, 0x7F, 0x7F, 0x7F, 0,    0,
      0,    0,    0,    0,    0,    0,    0x7E, 0,    0x80, 0,    0,    0,    0,
      0,    0,    0,    0,    0,    0,    0,    0,    0,    0,    0,    0,    0,
      0,    0,    0,    0,    0,    0,    0,    0,    0,    0,    0,    0};
  BOOST_TEST(codes == want_codes, boost::test_tools::per_element());
  const std::vector<uint8_t> sc = b.model.read(Space::Hbm, 14336, 8);
  BOOST_TEST(sc == (std::vector<uint8_t>{121, 125, 0xFF, 0, 254, 0, 0, 0}),
             boost::test_tools::per_element());
  BOOST_TEST(b.recs[5].mems == (std::vector<MemWrite>{{Space::Hbm, 12288, 12352, 0},
                                                      {Space::Hbm, 14336, 14344, 0}}),
             boost::test_tools::per_element());
  BOOST_TEST(b.recs[5].stage == spec().stage("non_moe")->code);
  BOOST_TEST(b.recs[5].end_cycle - b.recs[5].start_cycle ==
             static_cast<uint64_t>(b.lat("H_STORE_V", {{"rows", 4}, {"len", 16}})));
}

BOOST_AUTO_TEST_CASE(dma_traps) {
  Bench b;
  b.run(".word 0x00400029\n");  // H_PREFETCH_V gp0, gp0, a0, 0 with the reserved prec 1
  b.check_trap(trap("illegal_instruction"), 0);
  b.run(".word 0x00080028\n");  // H_PREFETCH_M gp0, gp0, a0 with the reserved rstride 2
  b.check_trap(trap("illegal_instruction"), 0);
  b.run("S_ADDI_INT gp1, gp0, 4\nH_STORE_V gp0, gp1, a0, 0, 0\n");  // o = 4
  b.check_trap(trap("address_misaligned"), 1);
  // rstride 1 with STRIDE 12: row 1 has o = 12.
  b.run("S_ADDI_INT gp1, gp0, 12\nC_SET_STRIDE_REG gp1\nH_PREFETCH_V gp0, gp0, a0, 1, 0\n");
  b.check_trap(trap("address_misaligned"), 2);
  // Rows at 0xFFFFF0 + 16 i: row 1 starts at the end of HBM (16 MiB).
  b.run(R"(
    S_LUI_INT gp1, 4095
    S_ADDI_INT gp1, gp1, 4080
    C_SET_ADDR_REG a0, gp0, gp1
    H_PREFETCH_V gp0, gp0, a0, 0, 0
  )");
  b.check_trap(trap("address_out_of_range"), 3);
  // Scale region out of range while the codes fit.
  b.run("S_LUI_INT gp1, 4096\nC_SET_SCALE_REG gp1\nH_PREFETCH_V gp0, gp0, a0, 0, 0\n");
  b.check_trap(trap("address_out_of_range"), 2);
  // a0 = 2^64 - 1: the address arithmetic must not wrap around to a valid address.
  b.run(R"(
    S_LUI_INT gp1, 1048575
    S_ADDI_INT gp1, gp1, 4095
    C_SET_ADDR_REG a0, gp1, gp1
    H_PREFETCH_M gp0, gp0, a0, 0, 0
  )");
  b.check_trap(trap("address_out_of_range"), 3);
  BOOST_TEST(b.model.regs().addr[0] == 0xFFFFFFFFFFFFFFFFull);
  // MRAM destination not a multiple of MLEN, and past the end (rows 120..135 of 128).
  b.run("S_ADDI_INT gp1, gp0, 8\nH_PREFETCH_M gp1, gp0, a0, 0, 0\n");
  b.check_trap(trap("address_misaligned"), 1);
  b.run("S_ADDI_INT gp1, gp0, 1920\nH_PREFETCH_M gp1, gp0, a0, 0, 0\n");
  b.check_trap(trap("address_out_of_range"), 1);
  // VRAM rows 2046..2049.
  b.run("S_ADDI_INT gp1, gp0, 32736\nH_PREFETCH_V gp1, gp0, a0, 0, 0\n");
  b.check_trap(trap("address_out_of_range"), 1);
  b.run("S_ADDI_INT gp1, gp0, 32736\nH_STORE_V gp1, gp0, a0, 0, 0\n");
  b.check_trap(trap("address_out_of_range"), 1);
  // Address register a9 does not exist (4-bit field, 8 registers): built by hand, since the
  // assembler refuses it.
  const isa::InstrSpec& h = *spec().by_mnemonic("H_PREFETCH_V");
  const uint32_t word = h.opcode | (9u << spec().field("rs2").lo);
  isa::Program p;
  p.words = {word};
  b.run(p);
  b.check_trap(trap("illegal_instruction"), 0);
  BOOST_TEST(b.recs[0].word == word);
}
