// Vector unit: element-wise ops with RNE and masking, NaN/zero rules of max/min, EXP/RECI,
// the V_RED_SUM tree, gather and scatter-add (tiny preset: VLEN 16, HLEN 4).
#include "golden_test_util.hpp"

using namespace gt;

namespace {
constexpr uint16_t kOne = 0x3F80, kNaN = 0x7FC0, kInf = 0x7F80, kNegInf = 0xFF80;
}  // namespace

BOOST_AUTO_TEST_CASE(vector_elementwise_and_mask) {
  Bench b;
  // A (row 1): 1.0 except A[2] = -2.5.  B (row 2): 2^-8, 3*2^-8, then 1.5.
  std::vector<uint16_t> a = fill(16, kOne);
  a[2] = bf(-2.5f);
  std::vector<uint16_t> bb = fill(16, bf(1.5f));
  bb[0] = 0x3B80;  // 2^-8
  bb[1] = 0x3C40;  // 3 * 2^-8
  // C (row 9): non-canonical NaN, -0, 3.0, -1.0, then +0.
  std::vector<uint16_t> c = fill(16, 0);
  c[0] = 0x7FC1;
  c[1] = 0x8000;
  c[2] = bf(3.0f);
  c[3] = bf(-1.0f);
  b.vram_row(1, a);
  b.vram_row(2, bb);
  b.vram_row(9, c);
  b.fp_words(0, {bf(0.25f), bf(-2.0f)});
  b.run(R"(
    S_ADDI_INT gp1, gp0, 16
    S_ADDI_INT gp2, gp0, 32
    S_ADDI_INT gp3, gp0, 48
    S_ADDI_INT gp4, gp0, 64
    S_ADDI_INT gp5, gp0, 80
    S_ADDI_INT gp6, gp0, 96
    S_ADDI_INT gp7, gp0, 112
    S_ADDI_INT gp8, gp0, 128
    S_ADDI_INT gp9, gp0, 144
    S_ADDI_INT gp10, gp0, 160
    S_ADDI_INT gp11, gp0, 176
    S_ADDI_INT gp12, gp0, 192
    S_ADDI_INT gp14, gp0, 208
    S_ADDI_INT gp13, gp0, 5
    C_SET_V_MASK_REG gp13           ; heads 0 and 2: elements 0..3 and 8..11
    S_LD_FP f1, gp0, 0              ; 0.25
    S_LD_FP f2, gp0, 1              ; -2.0
    V_ADD_VV gp3, gp1, gp2          ; row 3
    V_SUB_VV gp4, gp1, gp2          ; row 4
    V_MUL_VV gp5, gp1, gp2, 1       ; row 5, masked
    V_ADD_VF gp6, gp1, f1           ; row 6
    V_MUL_VF gp7, gp1, f2           ; row 7
    V_MAX_VF gp8, gp1, f0           ; row 8
    V_MAX_VF gp10, gp9, f0          ; row 10
    V_MIN_VF gp11, gp9, f0          ; row 11
    V_ADD_VF gp12, gp9, f0          ; row 12
    V_ADD_VF gp14, gp1, f1, 7       ; row 13, masked (any non-zero rmask)
  )");
  BOOST_TEST_REQUIRE(b.recs.size() == 27u);
  BOOST_TEST(b.recs[14].regs == (std::vector<RegWrite>{{RegFile::Ctrl, 2, 5}}),
             boost::test_tools::per_element());
  // V_ADD_VV: 1 + 2^-8 is a tie -> even (1.0); 1 + 3*2^-8 a tie -> even (1 + 2^-6).
  std::vector<uint16_t> add = fill(16, bf(2.5f));
  add[0] = kOne;
  add[1] = 0x3F82;
  add[2] = bf(-1.0f);
  BOOST_TEST(b.row(3) == add, boost::test_tools::per_element());
  // V_SUB_VV: 1 - 2^-8 = 255/256 and 1 - 3*2^-8 = 253/256 are exact.
  std::vector<uint16_t> sub = fill(16, bf(-0.5f));
  sub[0] = 0x3F7F;
  sub[1] = 0x3F7D;
  sub[2] = bf(-4.0f);
  BOOST_TEST(b.row(4) == sub, boost::test_tools::per_element());
  // V_MUL_VV masked: selected elements 0..3, 8..11; the others keep A (rs1).
  std::vector<uint16_t> mul = fill(16, kOne);
  mul[0] = 0x3B80;
  mul[1] = 0x3C40;
  mul[2] = bf(-3.75f);
  mul[3] = bf(1.5f);
  for (int e = 8; e < 12; ++e) mul[e] = bf(1.5f);
  BOOST_TEST(b.row(5) == mul, boost::test_tools::per_element());
  std::vector<uint16_t> addf = fill(16, bf(1.25f));
  addf[2] = bf(-2.25f);
  BOOST_TEST(b.row(6) == addf, boost::test_tools::per_element());
  std::vector<uint16_t> mulf = fill(16, bf(-2.0f));
  mulf[2] = bf(5.0f);
  BOOST_TEST(b.row(7) == mulf, boost::test_tools::per_element());
  std::vector<uint16_t> maxf = fill(16, kOne);
  maxf[2] = 0;
  BOOST_TEST(b.row(8) == maxf, boost::test_tools::per_element());
  // NaN -> canonical NaN; max(-0, +0) = +0; min(-0, +0) = -0.
  std::vector<uint16_t> max_c = fill(16, 0);
  max_c[0] = kNaN;
  max_c[2] = bf(3.0f);
  BOOST_TEST(b.row(10) == max_c, boost::test_tools::per_element());
  std::vector<uint16_t> min_c = fill(16, 0);
  min_c[0] = kNaN;
  min_c[1] = 0x8000;
  min_c[3] = bf(-1.0f);
  BOOST_TEST(b.row(11) == min_c, boost::test_tools::per_element());
  // -0 + +0 = +0 under RNE.
  std::vector<uint16_t> add_c = fill(16, 0);
  add_c[0] = kNaN;
  add_c[2] = bf(3.0f);
  add_c[3] = bf(-1.0f);
  BOOST_TEST(b.row(12) == add_c, boost::test_tools::per_element());
  std::vector<uint16_t> addf_m = fill(16, kOne);
  for (int e : {0, 1, 3, 8, 9, 10, 11}) addf_m[e] = bf(1.25f);
  addf_m[2] = bf(-2.25f);
  BOOST_TEST(b.row(13) == addf_m, boost::test_tools::per_element());
  const std::vector<uint64_t> dst_rows{3, 4, 5, 6, 7, 8, 10, 11, 12, 13};
  for (size_t i = 0; i < dst_rows.size(); ++i) {
    BOOST_TEST(b.recs[17 + i].mems ==
                   (std::vector<MemWrite>{{Space::Vram, dst_rows[i], dst_rows[i] + 1, 0}}),
               boost::test_tools::per_element());
    BOOST_TEST(b.recs[17 + i].end_cycle - b.recs[17 + i].start_cycle ==
               static_cast<uint64_t>(b.lat("V_ADD_VV")));
  }
}

BOOST_AUTO_TEST_CASE(vector_exp_reci_red_sum) {
  Bench b;
  // X (row 1): +0, 1, -inf, 2, 3, +0, -0, +inf, non-canonical NaN, then +0.
  std::vector<uint16_t> x = fill(16, 0);
  x[1] = kOne;
  x[2] = kNegInf;
  x[3] = bf(2.0f);
  x[4] = bf(3.0f);
  x[6] = 0x8000;
  x[7] = kInf;
  x[8] = 0x7FC1;
  std::vector<uint16_t> ramp;
  for (int i = 1; i <= 16; ++i) ramp.push_back(bf(static_cast<float>(i)));
  // T (row 5): 2^24, 1, 1, 1, -2^24, 0...: the pairwise tree gives 2, a left-to-right sum 0.
  std::vector<uint16_t> t = fill(16, 0);
  t[0] = 0x4B80;
  t[1] = t[2] = t[3] = kOne;
  t[4] = 0xCB80;
  b.vram_row(1, x);
  b.vram_row(4, ramp);
  b.vram_row(5, t);
  b.fp_words(0, {bf(0.5f)});
  b.run(R"(
    S_ADDI_INT gp1, gp0, 16
    S_ADDI_INT gp2, gp0, 32
    S_ADDI_INT gp3, gp0, 48
    S_ADDI_INT gp4, gp0, 64
    S_ADDI_INT gp5, gp0, 80
    S_ADDI_INT gp6, gp0, 3
    C_SET_V_MASK_REG gp6            ; elements 0..7
    V_EXP_V gp2, gp1                ; row 2
    V_RECI_V gp3, gp1, 1            ; row 3, masked
    S_LD_FP f1, gp0, 0              ; 0.5
    S_LD_FP f2, gp0, 0              ; 0.5
    V_RED_SUM f1, gp4               ; 0.5 + 136
    S_ADDI_INT gp6, gp0, 1
    C_SET_V_MASK_REG gp6            ; elements 0..3
    V_RED_SUM f2, gp4, 1            ; 0.5 + (1+2+3+4)
    V_RED_SUM f3, gp5               ; tree order
    V_RED_SUM f0, gp4               ; f0 stays 0
  )");
  BOOST_TEST_REQUIRE(b.recs.size() == 17u);
  // exp: e^0 = 1, e^1 -> 2.71875, e^-inf = +0, e^2 -> 7.375, e^3 -> 20.125, e^-0 = 1, e^inf = inf.
  std::vector<uint16_t> ex = fill(16, kOne);
  ex[1] = 0x402E;
  ex[2] = 0;
  ex[3] = 0x40EC;
  ex[4] = 0x41A1;
  ex[7] = kInf;
  ex[8] = kNaN;
  BOOST_TEST(b.row(2) == ex, boost::test_tools::per_element());
  // 1/x on elements 0..7: 1/+0 = inf, 1/-inf = -0, 1/3 -> 0x3EAB, 1/-0 = -inf, 1/inf = +0;
  // elements 8..15 keep x (the NaN keeps its payload: it is not an operation result).
  std::vector<uint16_t> re = x;
  re[0] = kInf;
  re[1] = kOne;
  re[2] = 0x8000;
  re[3] = bf(0.5f);
  re[4] = 0x3EAB;
  re[5] = kInf;
  re[6] = kNegInf;
  re[7] = 0;
  BOOST_TEST(b.row(3) == re, boost::test_tools::per_element());
  // 136.5 is a tie between 136 and 137 -> 136 (even).
  BOOST_TEST(b.recs[11].regs == (std::vector<RegWrite>{{RegFile::Fp, 1, 0x4308}}),
             boost::test_tools::per_element());
  BOOST_TEST(b.recs[14].regs == (std::vector<RegWrite>{{RegFile::Fp, 2, bf(10.5f)}}),
             boost::test_tools::per_element());
  BOOST_TEST(b.recs[15].regs == (std::vector<RegWrite>{{RegFile::Fp, 3, bf(2.0f)}}),
             boost::test_tools::per_element());
  BOOST_TEST(b.recs[16].regs.empty());
  BOOST_TEST(b.recs[16].mems.empty());
  const isa::ArchRegs r = b.model.regs();
  BOOST_TEST(r.fp[0] == 0);
  BOOST_TEST(r.fp[1] == 0x4308);
  for (size_t i : {11u, 14u, 15u, 16u}) {
    BOOST_TEST(b.recs[i].end_cycle - b.recs[i].start_cycle ==
               static_cast<uint64_t>(b.lat("V_RED_SUM")));
  }
}

BOOST_AUTO_TEST_CASE(vector_gather_scatter) {
  Bench b;
  // Token rows: block base row 10, token t at row 10 + t holds t + 1.
  for (int t = 0; t < 4; ++t) b.vram_row(10 + t, fill(16, bf(static_cast<float>(t + 1))));
  b.vram_row(21, fill(16, kOne));
  for (int t = 0; t < 4; ++t) b.vram_row(30 + t, fill(16, bf(t == 2 ? 256.0f : 0.5f)));
  b.int_words(5, {3, 1, 2});
  b.run(R"(
    S_ADDI_INT gp1, gp0, 160        ; token block base (row 10)
    S_ADDI_INT gp2, gp0, 320        ; row 20
    S_ADDI_INT gp3, gp0, 5          ; INT[5] = 3
    S_ADDI_INT gp4, gp0, 6          ; INT[6] = 1
    S_ADDI_INT gp7, gp0, 7          ; INT[7] = 2
    S_ADDI_INT gp5, gp0, 480        ; accumulator base (row 30)
    S_ADDI_INT gp6, gp0, 336        ; row 21 (ones)
    V_GATHER gp2, gp1, gp3          ; row 20 = row 13 = 4.0
    V_SCATTER_ADD gp5, gp2, gp3     ; row 33 = 0.5 + 4
    V_SCATTER_ADD gp5, gp2, gp4     ; row 31 = 0.5 + 4
    V_SCATTER_ADD gp5, gp2, gp4     ; row 31 = 4.5 + 4
    V_SCATTER_ADD gp5, gp6, gp7     ; row 32 = 256 + 1: tie -> 256
  )");
  BOOST_TEST_REQUIRE(b.recs.size() == 12u);
  BOOST_TEST(b.row(20) == fill(16, bf(4.0f)), boost::test_tools::per_element());
  BOOST_TEST(b.row(33) == fill(16, bf(4.5f)), boost::test_tools::per_element());
  BOOST_TEST(b.row(31) == fill(16, bf(8.5f)), boost::test_tools::per_element());
  BOOST_TEST(b.row(32) == fill(16, bf(256.0f)), boost::test_tools::per_element());
  BOOST_TEST(b.row(30) == fill(16, bf(0.5f)), boost::test_tools::per_element());
  BOOST_TEST(b.recs[7].mems == (std::vector<MemWrite>{{Space::Vram, 20, 21, 0}}),
             boost::test_tools::per_element());
  BOOST_TEST(b.recs[8].mems == (std::vector<MemWrite>{{Space::Vram, 33, 34, 0}}),
             boost::test_tools::per_element());
  BOOST_TEST(b.recs[11].mems == (std::vector<MemWrite>{{Space::Vram, 32, 33, 0}}),
             boost::test_tools::per_element());
  BOOST_TEST(b.recs[7].end_cycle - b.recs[7].start_cycle ==
             static_cast<uint64_t>(b.lat("V_GATHER")));
  BOOST_TEST(b.recs[8].end_cycle - b.recs[8].start_cycle ==
             static_cast<uint64_t>(b.lat("V_SCATTER_ADD")));
}

BOOST_AUTO_TEST_CASE(vector_traps) {
  Bench b;
  b.int_words(0, {5000, 1});
  // Misaligned destination row.
  b.run("S_ADDI_INT gp1, gp0, 17\nV_ADD_VV gp1, gp0, gp0\n");
  b.check_trap(trap("address_misaligned"), 1);
  // Row 2048 does not exist (VRAM_ROWS = 2048 on tiny).
  b.run("S_ADDI_INT gp1, gp0, 32768\nV_EXP_V gp0, gp1\n");
  b.check_trap(trap("address_out_of_range"), 1);
  // Both causes: address_out_of_range is listed first in isa.yaml, so it wins.
  b.run("S_ADDI_INT gp1, gp0, 32768\nS_ADDI_INT gp2, gp0, 3\nV_ADD_VV gp2, gp1, gp0\n");
  b.check_trap(trap("address_out_of_range"), 2);
  // V_RED_SUM checks its source row only.
  b.run("S_ADDI_INT gp1, gp0, 4\nV_RED_SUM f1, gp1\n");
  b.check_trap(trap("address_misaligned"), 1);
  // Gathered row 0 + 5000 is out of range (the token index is read at issue).
  b.run("V_GATHER gp0, gp0, gp0\n");
  b.check_trap(trap("address_out_of_range"), 0);
  // Index address past INT SRAM.
  b.run("S_ADDI_INT gp1, gp0, 1024\nV_SCATTER_ADD gp0, gp0, gp1\n");
  b.check_trap(trap("address_out_of_range"), 1);
  // Scatter base misaligned (base + t*VLEN keeps the misalignment).
  b.run("S_ADDI_INT gp1, gp0, 1\nS_ADDI_INT gp2, gp0, 1\nV_SCATTER_ADD gp2, gp0, gp1\n");
  b.check_trap(trap("address_misaligned"), 2);
  BOOST_TEST(b.row(1) == fill(16, 0), boost::test_tools::per_element());
}
