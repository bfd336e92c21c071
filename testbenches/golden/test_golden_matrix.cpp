// Matrix unit: MX multiply-accumulate over K blocks with per-block scales, accumulation across
// M_MM, write-back with row stride and column offset, clearing, NaN scale, and the traps
// (tiny preset: MLEN 16, BLEN 4, MX_BLOCK 8, MRAM row = 16 codes + 2 scales = 18 bytes); the
// per-head matrix-matrix ops M_BMM / M_BTMM / M_BMM_WO and their traps.
#include "golden_test_util.hpp"

using namespace gt;

namespace {

constexpr uint64_t kRowBytes = 18;

/// MRAM tile row `row` (global) with all 16 codes = `code` and scales `s0`, `s1`.
isa::MemorySegment mram_row(uint64_t row, uint8_t code, uint8_t s0, uint8_t s1) {
  std::vector<uint8_t> bytes(16, code);
  bytes.push_back(s0);
  bytes.push_back(s1);
  return {row * kRowBytes, bytes};
}

}  // namespace

BOOST_AUTO_TEST_CASE(matrix_mm_accumulate_write_out) {
  Bench b;
  // Tile 1, column offset c = 4: weight rows W[4..8) are global rows 20..23. W[4+j] has codes
  // of (j+1) (E4M3 1.0 = 0x38, 2.0 = 0x40, 3.0 = 0x44, 4.0 = 0x48), scales 127 (x1), 128 (x2).
  const uint8_t codes[4] = {0x38, 0x40, 0x44, 0x48};
  for (uint64_t j = 0; j < 4; ++j) b.image.mram.push_back(mram_row(20 + j, codes[j], 127, 128));
  // Activations A (rows 8..11): row i all (i+1). A' (rows 12..15): as A, A'[0][0] = 1 + 2^-7.
  for (int i = 0; i < 4; ++i) {
    std::vector<uint16_t> r = fill(16, bf(static_cast<float>(i + 1)));
    b.vram_row(8 + i, r);
    if (i == 0) r[0] = 0x3F81;
    b.vram_row(12 + i, r);
  }
  for (uint64_t row : {40, 42, 44, 46, 50, 51, 52, 53}) b.vram_row(row, fill(16, bf(7.0f)));
  b.run(R"(
    ; @stage=expert_projection
    S_ADDI_INT gp1, gp0, 320        ; tile 1 (256) + column offset 4 (4 * MLEN)
    S_ADDI_INT gp2, gp0, 128        ; A at row 8
    S_ADDI_INT gp6, gp0, 192        ; A' at row 12
    S_ADDI_INT gp3, gp0, 640        ; row 40
    S_ADDI_INT gp4, gp0, 2          ; row stride 2
    S_ADDI_INT gp5, gp0, 800        ; row 50
    M_MM 0, gp1, gp2
    M_MM 0, gp1, gp6
    M_MM_WO gp3, gp4, 8             ; rows 40, 42, 44, 46, elements [8, 12)
    M_MM_WO gp5, gp0, 0             ; rows 50..53, elements [0, 4): accumulator was cleared
  )");
  BOOST_TEST_REQUIRE(b.recs.size() == 10u);
  // Per block b: 8 * (i+1) * (j+1) * 2^(scale_b - 127); two blocks: 8 + 16 = 24 (i+1)(j+1);
  // two M_MM: 48 (i+1)(j+1). With A'[0][0] the FP32 sum of row 0 is 48(j+1) + (j+1)/128, which
  // BF16 (8 significant bits) rounds back to 48(j+1).
  for (int i = 0; i < 4; ++i) {
    std::vector<uint16_t> want = fill(16, bf(7.0f));
    for (int j = 0; j < 4; ++j) want[8 + j] = bf(48.0f * (i + 1) * (j + 1));
    BOOST_TEST_CONTEXT("row " << 40 + 2 * i) {
      BOOST_TEST(b.row(40 + 2 * i) == want, boost::test_tools::per_element());
    }
    std::vector<uint16_t> cleared = fill(16, bf(7.0f));
    for (int j = 0; j < 4; ++j) cleared[j] = 0;
    BOOST_TEST(b.row(50 + i) == cleared, boost::test_tools::per_element());
  }
  BOOST_TEST(b.row(41) == fill(16, 0), boost::test_tools::per_element());
  BOOST_TEST(b.recs[6].mems.empty());
  BOOST_TEST(b.recs[6].regs.empty());
  BOOST_TEST(b.recs[8].mems == (std::vector<MemWrite>{{Space::Vram, 40, 41, 0},
                                                      {Space::Vram, 42, 43, 0},
                                                      {Space::Vram, 44, 45, 0},
                                                      {Space::Vram, 46, 47, 0}}),
             boost::test_tools::per_element());
  BOOST_TEST(b.recs[9].mems == (std::vector<MemWrite>{{Space::Vram, 50, 54, 0}}),
             boost::test_tools::per_element());
  const int64_t s = b.lat("S_ADDI_INT");
  b.check_timeline(
      {s, s, s, s, s, s, b.lat("M_MM"), b.lat("M_MM"), b.lat("M_MM_WO"), b.lat("M_MM_WO")});
}

BOOST_AUTO_TEST_CASE(matrix_nan_scale_and_reload) {
  Bench b;
  // Tile 0 rows 0..3 codes 1.0; row 2 has block-1 scale 0xFF (NaN).
  for (uint64_t j = 0; j < 4; ++j)
    b.image.mram.push_back(mram_row(j, 0x38, 127, j == 2 ? 0xFF : 127));
  for (int i = 0; i < 4; ++i) b.vram_row(8 + i, fill(16, bf(static_cast<float>(i + 1))));
  const char* program = R"(
    S_ADDI_INT gp2, gp0, 128
    S_ADDI_INT gp3, gp0, 960        ; row 60
    M_MM 0, gp0, gp2
    M_MM_WO gp3, gp0, 0
  )";
  b.run(program);
  BOOST_TEST_REQUIRE(b.recs.size() == 4u);
  for (int i = 0; i < 4; ++i) {
    const uint16_t v = bf(16.0f * (i + 1));  // 8 (i+1) per block, two blocks
    const std::vector<uint16_t> want{v, v, 0x7FC0, v, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
    BOOST_TEST(b.row(60 + i) == want, boost::test_tools::per_element());
  }
  // Reloading clears the accumulator and the memories: running again gives the same result
  // (no accumulation across loads).
  b.run(program);
  BOOST_TEST(b.row(60)[0] == bf(16.0f));
  BOOST_TEST(b.recs[0].start_cycle == 0u);
}

BOOST_AUTO_TEST_CASE(matrix_traps) {
  Bench b;
  // Weight address not a multiple of MLEN.
  b.run("S_ADDI_INT gp1, gp0, 321\nM_MM 0, gp1, gp0\n");
  b.check_trap(trap("address_misaligned"), 1);
  // Column offset 2 is not a multiple of BLEN.
  b.run("S_ADDI_INT gp1, gp0, 32\nM_MM 0, gp1, gp0\n");
  b.check_trap(trap("address_misaligned"), 1);
  // Tile 8 does not exist (MRAM_TILES = 8).
  b.run("S_ADDI_INT gp1, gp0, 2048\nM_MM 0, gp1, gp0\n");
  b.check_trap(trap("address_out_of_range"), 1);
  // Activation rows 2045..2048.
  b.run("S_ADDI_INT gp2, gp0, 32720\nM_MM 0, gp0, gp2\n");
  b.check_trap(trap("address_out_of_range"), 1);
  // Activation address not row-aligned.
  b.run("S_ADDI_INT gp2, gp0, 4\nM_MM 0, gp0, gp2\n");
  b.check_trap(trap("address_misaligned"), 1);
  // Write-back column 2 is not a multiple of BLEN.
  b.run("M_MM_WO gp0, gp0, 2\n");
  b.check_trap(trap("address_misaligned"), 0);
  // Rows 2040, 2043, 2046, 2049: the last does not exist; stride 2 would fit (2046).
  b.run("S_ADDI_INT gp3, gp0, 32640\nS_ADDI_INT gp4, gp0, 3\nM_MM_WO gp3, gp4, 0\n");
  b.check_trap(trap("address_out_of_range"), 2);
  b.run("S_ADDI_INT gp3, gp0, 32640\nS_ADDI_INT gp4, gp0, 2\nM_MM_WO gp3, gp4, 0\n");
  BOOST_TEST(!b.recs.back().trap.has_value());
  BOOST_TEST(b.recs.back().mems.size() == 4u);
}

// Per-head matrix-matrix ops (tiny: B = MLEN / HLEN = 4 heads of 4). Tile 0 is all 1.0 (scale
// 2^0), so HDOT_m(b, c) is the sum of head b's four activations of row m, for every column c.
// Activation rows 8 + m (m < 16): m = 0 and m = 15 (the first and the last row of the block) hold
// A_m[e] = (e mod 4 + 1)(m + 1), every other row 0. M_BMM ([HLEN][B]: head b's element d is
// A_m[4d + b]) adds 0.25 * 4 (b+1)(m+1) = (b+1)(m+1) to hm[16b + m][c]; M_BTMM (r0 = 4, [B][HLEN]:
// head b's element d is A_m[4b + d] = (d+1)(m+1)) adds 0.25 * 10 (m+1) = 2.5 (m+1). M_BMM_WO
// writes hm row i to VRAM row 100 + i (64 rows) and clears hm: the second one writes zeros.
BOOST_AUTO_TEST_CASE(matrix_head_matrix_ops) {
  Bench b;
  for (uint64_t r = 0; r < 16; ++r) b.image.mram.push_back(mram_row(r, 0x38, 127, 127));
  for (int m : {0, 15}) {
    std::vector<uint16_t> a(16);
    for (int e = 0; e < 16; ++e) a[e] = bf(static_cast<float>((e % 4 + 1) * (m + 1)));
    b.vram_row(8 + m, a);
  }
  b.run(R"(
    S_ADDI_INT gp2, gp0, 128        ; activation rows 8..23
    S_ADDI_INT gp1, gp0, 4          ; tile 0, r0 = 4
    S_ADDI_INT gp3, gp0, 1600       ; row 100
    S_ADDI_INT gp4, gp0, 3200       ; row 200
    M_BMM 0, gp0, gp2
    M_BTMM 0, gp1, gp2
    M_BMM_WO gp3, 0
    M_BMM_WO gp4, 0
  )");
  BOOST_TEST_REQUIRE(b.recs.size() == 8u);
  for (uint64_t i = 0; i < 64; ++i) {
    const uint64_t head = i / 16, m = i % 16;
    const float v = (m == 0 || m == 15) ? (head + 3.5f) * static_cast<float>(m + 1) : 0.0f;
    BOOST_TEST_CONTEXT("hm row " << i) {
      BOOST_TEST(b.row(100 + i) == fill(16, bf(v)), boost::test_tools::per_element());
      BOOST_TEST(b.row(200 + i) == fill(16, 0), boost::test_tools::per_element());
    }
  }
  BOOST_TEST(b.recs[4].mems.empty());
  BOOST_TEST(b.recs[5].mems.empty());
  BOOST_TEST(b.recs[6].mems == (std::vector<MemWrite>{{Space::Vram, 100, 164, 0}}),
             boost::test_tools::per_element());
  const int64_t s = b.lat("S_ADDI_INT");
  BOOST_TEST(b.lat("M_BMM") == 4 + 4 * 16 * 16 + 1);
  BOOST_TEST(b.lat("M_BTMM") == 16 + 4 * 16 * 16 + 1);
  BOOST_TEST(b.lat("M_BMM_WO") == 4 * 16 + 1);
  b.check_timeline(
      {s, s, s, s, b.lat("M_BMM"), b.lat("M_BTMM"), b.lat("M_BMM_WO"), b.lat("M_BMM_WO")});
}

BOOST_AUTO_TEST_CASE(matrix_head_matrix_traps) {
  Bench b;
  // Row offset 2 is not a multiple of HLEN = 4; 16 is not below MLEN.
  b.run("S_ADDI_INT gp1, gp0, 2\nM_BMM 0, gp1, gp0\n");
  b.check_trap(trap("address_misaligned"), 1);
  b.run("S_ADDI_INT gp1, gp0, 16\nM_BTMM 0, gp1, gp0\n");
  b.check_trap(trap("address_misaligned"), 1);
  // Tile 8 does not exist (MRAM_TILES = 8).
  b.run("S_ADDI_INT gp1, gp0, 2048\nM_BMM 0, gp1, gp0\n");
  b.check_trap(trap("address_out_of_range"), 1);
  // MLEN = 16 activation rows: 2032..2047 fit, 2033..2048 do not.
  b.run("S_ADDI_INT gp2, gp0, 32528\nM_BTMM 0, gp0, gp2\n");
  b.check_trap(trap("address_out_of_range"), 1);
  b.run("S_ADDI_INT gp2, gp0, 32512\nM_BMM 0, gp0, gp2\n");
  BOOST_TEST(!b.recs.back().trap.has_value());
  // M_BMM_WO: B * MLEN = 64 rows; 1984..2047 fit, 1985..2048 do not; d must be row-aligned.
  b.run("S_ADDI_INT gp3, gp0, 31760\nM_BMM_WO gp3, 0\n");
  b.check_trap(trap("address_out_of_range"), 1);
  b.run("M_BMM_WO gp0, 8\n");
  b.check_trap(trap("address_misaligned"), 0);
  b.run("S_ADDI_INT gp3, gp0, 31744\nM_BMM_WO gp3, 0\n");
  BOOST_TEST(!b.recs.back().trap.has_value());
  BOOST_TEST(b.recs.back().mems == (std::vector<MemWrite>{{Space::Vram, 1984, 2048, 0}}),
             boost::test_tools::per_element());
}
