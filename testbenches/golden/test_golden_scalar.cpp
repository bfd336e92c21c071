// Scalar unit: integer ALU (u32 wrapping, gp0), SRAM loads/stores, S_MAP_V_FP.
#include "golden_test_util.hpp"

using namespace gt;

BOOST_AUTO_TEST_CASE(scalar_integer_alu) {
  Bench b;
  b.run(R"(
    S_ADDI_INT gp1, gp0, 5
    S_ADDI_INT gp2, gp0, 262143     ; largest imm18
    S_LUI_INT gp3, 4194303          ; largest imm22: (0x3FFFFF << 12) mod 2^32 = 0xFFFFF000
    S_ADD_INT gp4, gp3, gp2         ; 0xFFFFF000 + 0x3FFFF wraps to 0x0003EFFF
    S_SUB_INT gp5, gp1, gp2         ; 5 - 262143 = 0xFFFC0006
    S_MUL_INT gp6, gp3, gp1         ; 0xFFFFF000 * 5 = 0x4FFFFB000, low word 0xFFFFB000
    S_ADDI_INT gp0, gp1, 7          ; write to gp0 discarded, not recorded
    S_ADD_INT gp7, gp0, gp1         ; gp0 reads 0
    S_ADDI_INT gp7, gp7, 1          ; 6
  )");
  BOOST_TEST_REQUIRE(b.recs.size() == 9u);
  const std::vector<std::pair<uint8_t, uint32_t>> expect{{1, 5u},          {2, 262143u},
                                                         {3, 0xFFFFF000u}, {4, 0x0003EFFFu},
                                                         {5, 0xFFFC0006u}, {6, 0xFFFFB000u}};
  for (size_t i = 0; i < expect.size(); ++i) {
    const std::vector<RegWrite> want{{RegFile::Gp, expect[i].first, expect[i].second}};
    BOOST_TEST(b.recs[i].regs == want, boost::test_tools::per_element());
    BOOST_TEST(b.recs[i].mems.empty());
  }
  BOOST_TEST(b.recs[6].regs.empty());
  BOOST_TEST(b.recs[7].regs == (std::vector<RegWrite>{{RegFile::Gp, 7, 5}}),
             boost::test_tools::per_element());
  const isa::ArchRegs r = b.model.regs();
  BOOST_TEST(r.gp[0] == 0u);
  BOOST_TEST(r.gp[4] == 0x0003EFFFu);
  BOOST_TEST(r.gp[7] == 6u);
  BOOST_TEST(r.stride == 1u);  // reset value
  for (size_t i = 0; i < b.recs.size(); ++i) {
    BOOST_TEST(b.recs[i].pc == i);
    BOOST_TEST(b.recs[i].stage == 0);  // no marker: `other`
  }
  b.check_timeline({b.lat("S_ADDI_INT"), b.lat("S_ADDI_INT"), b.lat("S_LUI_INT"),
                    b.lat("S_ADD_INT"), b.lat("S_SUB_INT"), b.lat("S_MUL_INT"), b.lat("S_ADDI_INT"),
                    b.lat("S_ADD_INT"), b.lat("S_ADDI_INT")});
  BOOST_TEST(b.model.retired() == 9u);
  BOOST_TEST(b.model.cycles() == b.recs.back().end_cycle);
  BOOST_TEST(b.model.halted());
}

BOOST_AUTO_TEST_CASE(scalar_sram_and_map) {
  Bench b;
  b.int_words(10, {0xDEADBEEFu});
  std::vector<uint16_t> ramp;
  for (int i = 1; i <= 16; ++i) ramp.push_back(bf(static_cast<float>(i)));
  b.fp_words(100, ramp);
  b.run(R"(
    ; @stage=residual_setup
    S_ADDI_INT gp1, gp0, 8
    S_LD_INT gp2, gp1, 2            ; INT[10]
    S_ST_INT gp2, gp1, 12           ; INT[20]
    S_ADDI_INT gp3, gp0, 100
    S_LD_FP f1, gp3, 3              ; FP[103] = 4.0
    ; @stage=gather
    S_ST_FP f1, gp3, 200            ; FP[300]
    S_ADDI_INT gp4, gp0, 32         ; VRAM row 2
    S_MAP_V_FP gp4, gp3, 0          ; row 2 = FP[100..116)
    S_LD_FP f0, gp3, 0              ; f0 stays 0, not recorded
  )");
  BOOST_TEST_REQUIRE(b.recs.size() == 9u);
  BOOST_TEST(b.recs[1].regs == (std::vector<RegWrite>{{RegFile::Gp, 2, 0xDEADBEEFu}}),
             boost::test_tools::per_element());
  BOOST_TEST(b.recs[2].mems == (std::vector<MemWrite>{{Space::IntSram, 20, 21, 0}}),
             boost::test_tools::per_element());
  BOOST_TEST(b.recs[4].regs == (std::vector<RegWrite>{{RegFile::Fp, 1, 0x4080}}),
             boost::test_tools::per_element());
  BOOST_TEST(b.recs[5].mems == (std::vector<MemWrite>{{Space::FpSram, 300, 301, 0}}),
             boost::test_tools::per_element());
  BOOST_TEST(b.recs[7].mems == (std::vector<MemWrite>{{Space::Vram, 2, 3, 0}}),
             boost::test_tools::per_element());
  BOOST_TEST(b.recs[8].regs.empty());
  const uint8_t residual = spec().stage("residual_setup")->code;
  const uint8_t gather = spec().stage("gather")->code;
  for (size_t i = 0; i < 9; ++i) BOOST_TEST(b.recs[i].stage == (i < 5 ? residual : gather));
  BOOST_TEST(b.int_word(20) == 0xDEADBEEFu);
  BOOST_TEST(b.fp(300, 1)[0] == 0x4080);
  BOOST_TEST(b.row(2) == ramp, boost::test_tools::per_element());
  BOOST_TEST(b.model.regs().fp[0] == 0);
  b.check_timeline({b.lat("S_ADDI_INT"), b.lat("S_LD_INT"), b.lat("S_ST_INT"), b.lat("S_ADDI_INT"),
                    b.lat("S_LD_FP"), b.lat("S_ST_FP"), b.lat("S_ADDI_INT"), b.lat("S_MAP_V_FP"),
                    b.lat("S_LD_FP")});
}

BOOST_AUTO_TEST_CASE(scalar_traps) {
  Bench b;
  // FP SRAM has 2048 words (tiny): gp1 + imm = 2048 is past the end.
  b.run("S_ADDI_INT gp1, gp0, 2024\nS_LD_FP f1, gp1, 24\n");
  b.check_trap(trap("address_out_of_range"), 1);
  BOOST_TEST(b.model.retired() == 1u);
  b.run("S_ADDI_INT gp1, gp0, 1023\nS_ST_INT gp1, gp1, 1\n");
  b.check_trap(trap("address_out_of_range"), 1);
  BOOST_TEST(b.int_word(0) == 0u);
  // S_MAP_V_FP reads VLEN = 16 words: [2033, 2049) is past the end.
  b.run("S_ADDI_INT gp1, gp0, 2033\nS_MAP_V_FP gp0, gp1, 0\n");
  b.check_trap(trap("address_out_of_range"), 1);
  // ... and its VRAM row address must be row-aligned.
  b.run("S_ADDI_INT gp1, gp0, 8\nS_MAP_V_FP gp1, gp0, 0\n");
  b.check_trap(trap("address_misaligned"), 1);
  // A large base plus imm does not wrap: gp1 = 0xFFFFF000, + imm 0x3FFFF.
  b.run("S_LUI_INT gp1, 1048575\nS_LD_INT gp2, gp1, 262143\n");
  b.check_trap(trap("address_out_of_range"), 1);
  BOOST_TEST(b.model.regs().gp[2] == 0u);
  // The trap record starts where the previous instruction ended.
  BOOST_TEST(b.recs[1].start_cycle == static_cast<uint64_t>(b.lat("S_LUI_INT")));
  BOOST_TEST(b.model.cycles() == static_cast<uint64_t>(b.lat("S_LUI_INT")));
}
