// Top-k unit: hardwired shapes (rmask 0, 1), TOPK_POLICY (rmask 15), selection order, softmax
// rounding, degenerate sums, and every V_TOPK trap.
#include "golden_test_util.hpp"
#include "moesim/isa/tables.hpp"

using namespace gt;

BOOST_AUTO_TEST_CASE(topk_hardwired_32_4) {
  Bench b;
  // 32 logits in rows 4..5: NaN at 0 (counts as -inf), 2.0 at 7, 1.0 at 3, 20 and 31
  // (tie: lower index first), -4.0 elsewhere.
  std::vector<uint16_t> logits = fill(32, bf(-4.0f));
  logits[0] = 0x7FC0;
  logits[7] = bf(2.0f);
  logits[3] = logits[20] = logits[31] = bf(1.0f);
  b.vram_row(4, {logits.begin(), logits.begin() + 16});
  b.vram_row(5, {logits.begin() + 16, logits.end()});
  b.run(R"(
    ; @stage=router_topk
    S_ADDI_INT gp1, gp0, 64         ; logits at row 4
    S_ADDI_INT gp2, gp0, 50         ; weights to FP[50..54)
    S_ADDI_INT gp3, gp0, 60         ; ids to INT[60..64)
    V_TOPK gp2, gp1, gp3, 0
  )");
  BOOST_TEST_REQUIRE(b.recs.size() == 4u);
  for (uint32_t j = 0; j < 4; ++j)
    BOOST_TEST(b.int_word(60 + j) == (std::vector<uint32_t>{7, 3, 20, 31}[j]));
  // m = 2; d = 0, -1, -1, -1; e = 1, EXP_BF16(-1) = 0.3671875 (0x3EBC);
  // s = 1 + 3 * 0.3671875 = 2.1015625 -> BF16 2.09375 (a tie, to even);
  // r = RECI_BF16(2.09375) = 0.478515625 (0x3EF5); w0 = r; w = 0.3671875 * r = 0.17570..
  // -> 0.17578125 (0x3E34).
  BOOST_TEST(b.fp(50, 4) == (std::vector<uint16_t>{0x3EF5, 0x3E34, 0x3E34, 0x3E34}),
             boost::test_tools::per_element());
  BOOST_TEST(b.recs[3].mems ==
                 (std::vector<MemWrite>{{Space::FpSram, 50, 54, 0}, {Space::IntSram, 60, 64, 0}}),
             boost::test_tools::per_element());
  BOOST_TEST(b.recs[3].regs.empty());
  BOOST_TEST(b.recs[3].stage == spec().stage("router_topk")->code);
  const int64_t l = b.lat("V_TOPK", {{"E", 32}, {"k", 4}});
  BOOST_TEST(b.recs[3].end_cycle - b.recs[3].start_cycle == static_cast<uint64_t>(l));
}

BOOST_AUTO_TEST_CASE(topk_hardwired_128_8) {
  Bench b;
  // 128 zero logits (VRAM is cleared): all tie, ids 0..7; e = 1, s = 8, r = 0.125.
  b.run("S_ADDI_INT gp2, gp0, 7\nV_TOPK gp2, gp0, gp2, 1\n");
  BOOST_TEST_REQUIRE(b.recs.size() == 2u);
  for (uint32_t j = 0; j < 8; ++j) BOOST_TEST(b.int_word(7 + j) == j);
  BOOST_TEST(b.fp(7, 8) == fill(8, bf(0.125f)), boost::test_tools::per_element());
  BOOST_TEST(b.recs[1].end_cycle - b.recs[1].start_cycle ==
             static_cast<uint64_t>(b.lat("V_TOPK", {{"E", 128}, {"k", 8}})));
}

BOOST_AUTO_TEST_CASE(topk_policy) {
  Bench b;
  b.vram_row(0, {bf(-1.0f), bf(3.0f), bf(3.0f), 0x7FC0, bf(0.5f)});  // E = 5, k = 2
  b.vram_row(1, {0x7FC0, 0xFFC0});                                   // E = 2, k = 1: all NaN
  b.vram_row(2, {bf(1.0f), 0xFF80, 0xFF80});                         // E = 3, k = 2
  b.run(R"(
    S_ADDI_INT gp1, gp0, 1282       ; (5 << 8) | 2
    C_SET_TOPK_REG gp1
    S_ADDI_INT gp2, gp0, 100
    V_TOPK gp2, gp0, gp2, 15        ; ids INT[100..102), weights FP[100..102)
    S_ADDI_INT gp1, gp0, 513        ; (2 << 8) | 1
    C_SET_TOPK_REG gp1
    S_ADDI_INT gp3, gp0, 16
    S_ADDI_INT gp4, gp0, 200
    V_TOPK gp4, gp3, gp4, 15
    S_ADDI_INT gp1, gp0, 770        ; (3 << 8) | 2
    C_SET_TOPK_REG gp1
    S_ADDI_INT gp3, gp0, 32
    S_ADDI_INT gp4, gp0, 300
    V_TOPK gp4, gp3, gp4, 15
  )");
  BOOST_TEST_REQUIRE(b.recs.size() == 14u);
  BOOST_TEST(b.recs[1].regs == (std::vector<RegWrite>{{RegFile::Ctrl, 3, 1282}}),
             boost::test_tools::per_element());
  // Ties 3.0 / 3.0 -> ids 1, 2; d = 0, 0; e = 1, 1; s = 2; r = 0.5; w = 0.5, 0.5.
  BOOST_TEST(b.int_word(100) == 1u);
  BOOST_TEST(b.int_word(101) == 2u);
  BOOST_TEST(b.fp(100, 2) == fill(2, bf(0.5f)), boost::test_tools::per_element());
  // All NaN: expert 0 is selected; m = -inf, so d = NaN, s is NaN and every weight is +0.
  BOOST_TEST(b.int_word(200) == 0u);
  BOOST_TEST(b.fp(200, 1)[0] == 0);
  BOOST_TEST(b.recs[8].mems == (std::vector<MemWrite>{{Space::FpSram, 200, 201, 0},
                                                      {Space::IntSram, 200, 201, 0}}),
             boost::test_tools::per_element());
  // 1.0, -inf, -inf: ids 0, 1 (tie at -inf to the lower index); e = 1, EXP(-inf) = 0; s = 1.
  BOOST_TEST(b.int_word(300) == 0u);
  BOOST_TEST(b.int_word(301) == 1u);
  BOOST_TEST(b.fp(300, 2) == (std::vector<uint16_t>{bf(1.0f), 0}),
             boost::test_tools::per_element());
  BOOST_TEST(b.recs[3].end_cycle - b.recs[3].start_cycle ==
             static_cast<uint64_t>(b.lat("V_TOPK", {{"E", 5}, {"k", 2}})));
  BOOST_TEST(b.recs[8].end_cycle - b.recs[8].start_cycle ==
             static_cast<uint64_t>(b.lat("V_TOPK", {{"E", 2}, {"k", 1}})));
  const isa::ArchRegs r = b.model.regs();
  BOOST_TEST(r.topk_policy == 770u);
  BOOST_TEST(r.topk_valid);
}

BOOST_AUTO_TEST_CASE(topk_traps) {
  Bench b;
  b.run("V_TOPK gp0, gp0, gp0, 15\n");
  b.check_trap(trap("topk_policy_unset"), 0);
  BOOST_TEST(b.recs[0].start_cycle == 0u);
  b.run(".word 0x00080037\n");  // V_TOPK gp0, gp0, gp0 with the reserved rmask 2
  b.check_trap(trap("illegal_instruction"), 0);
  b.run("S_ADDI_INT gp1, gp0, 1280\nC_SET_TOPK_REG gp1\nV_TOPK gp0, gp0, gp0, 15\n");  // k = 0
  b.check_trap(trap("topk_policy_invalid"), 2);
  b.run("S_ADDI_INT gp1, gp0, 515\nC_SET_TOPK_REG gp1\nV_TOPK gp0, gp0, gp0, 15\n");  // k > E
  b.check_trap(trap("topk_policy_invalid"), 2);
  // E = MAX_TOPK_EXPERTS + 1 (the preset's) is invalid; E = MAX_TOPK_EXPERTS is allowed
  // (MAX_TOPK_EXPERTS / VLEN rows from row 0).
  const auto max_e = static_cast<uint32_t>(b.preset.get("MAX_TOPK_EXPERTS"));
  auto set_policy = [](uint32_t e) {
    return "S_ADDI_INT gp1, gp0, " + std::to_string(isa::pack_topk_policy(e, 1)) +
           "\nC_SET_TOPK_REG gp1\nV_TOPK gp0, gp0, gp0, 15\n";
  };
  b.run(set_policy(max_e + 1));
  b.check_trap(trap("topk_policy_invalid"), 2);
  b.run(set_policy(max_e));
  BOOST_TEST(!b.recs.back().trap.has_value());
  // Logits rows 2047..2048 (E = 32 needs two rows).
  b.run("S_ADDI_INT gp1, gp0, 32752\nV_TOPK gp0, gp1, gp0, 0\n");
  b.check_trap(trap("address_out_of_range"), 1);
  b.run("S_ADDI_INT gp1, gp0, 8\nV_TOPK gp0, gp1, gp0, 0\n");
  b.check_trap(trap("address_misaligned"), 1);
  // ids INT[1022..1026) and weights FP[2045..2053) run past the end (1024 and 2048 words).
  b.run("S_ADDI_INT gp1, gp0, 1022\nV_TOPK gp0, gp0, gp1, 0\n");
  b.check_trap(trap("address_out_of_range"), 1);
  b.run("S_ADDI_INT gp1, gp0, 2045\nV_TOPK gp1, gp0, gp0, 1\n");
  b.check_trap(trap("address_out_of_range"), 1);
  // Unset policy and a misaligned logit address: topk_policy_unset is listed first.
  b.run("S_ADDI_INT gp1, gp0, 8\nV_TOPK gp0, gp1, gp0, 15\n");
  b.check_trap(trap("topk_policy_unset"), 1);
  BOOST_TEST(b.int_word(0) == 0u);
}

BOOST_AUTO_TEST_CASE(topk_selected_nan_reads_as_minus_inf) {
  Bench b;
  // E = 2, k = 2: 1.0 and NaN. NaN is read as -inf for the softmax too: m = 1; d = 0, -inf;
  // e = 1, EXP(-inf) = +0; s = 1; r = 1; w = 1.0, +0. (Were the NaN kept, s would be NaN and
  // both weights +0.)
  b.vram_row(0, {bf(1.0f), 0x7FC0});
  b.run(R"(
    S_ADDI_INT gp1, gp0, 514        ; (2 << 8) | 2
    C_SET_TOPK_REG gp1
    S_ADDI_INT gp2, gp0, 10
    V_TOPK gp2, gp0, gp2, 15        ; ids INT[10..12), weights FP[10..12)
  )");
  BOOST_TEST_REQUIRE(b.recs.size() == 4u);
  BOOST_TEST(b.int_word(10) == 0u);
  BOOST_TEST(b.int_word(11) == 1u);
  BOOST_TEST(b.fp(10, 2) == (std::vector<uint16_t>{bf(1.0f), 0}), boost::test_tools::per_element());
}
