// Control instructions and the core: control registers, loops and loop traps, illegal words,
// the instruction budget.
#include "golden_test_util.hpp"

using namespace gt;

BOOST_AUTO_TEST_CASE(control_registers) {
  Bench b;
  b.run(R"(
    S_ADDI_INT gp1, gp0, 74565      ; 0x12345
    S_LUI_INT gp2, 912091           ; 0xDEADB << 12
    S_ADDI_INT gp2, gp2, 3823       ; 0xDEADBEEF
    C_SET_ADDR_REG a3, gp1, gp2     ; rs1 high word, rs2 low word
    C_SET_ADDR_REG a0, gp0, gp2
    C_SET_SCALE_REG gp1
    C_SET_STRIDE_REG gp0
    C_SET_V_MASK_REG gp2
    C_SET_TOPK_REG gp1
  )");
  BOOST_TEST_REQUIRE(b.recs.size() == 9u);
  BOOST_TEST(b.recs[3].regs == (std::vector<RegWrite>{{RegFile::Addr, 3, 0x00012345DEADBEEFull}}),
             boost::test_tools::per_element());
  BOOST_TEST(b.recs[4].regs == (std::vector<RegWrite>{{RegFile::Addr, 0, 0xDEADBEEFull}}),
             boost::test_tools::per_element());
  BOOST_TEST(b.recs[5].regs == (std::vector<RegWrite>{{RegFile::Ctrl, 0, 0x12345}}),
             boost::test_tools::per_element());
  BOOST_TEST(b.recs[6].regs == (std::vector<RegWrite>{{RegFile::Ctrl, 1, 0}}),
             boost::test_tools::per_element());
  BOOST_TEST(b.recs[7].regs == (std::vector<RegWrite>{{RegFile::Ctrl, 2, 0xDEADBEEF}}),
             boost::test_tools::per_element());
  BOOST_TEST(b.recs[8].regs == (std::vector<RegWrite>{{RegFile::Ctrl, 3, 0x12345}}),
             boost::test_tools::per_element());
  const isa::ArchRegs r = b.model.regs();
  BOOST_TEST(r.addr[3] == 0x00012345DEADBEEFull);
  BOOST_TEST(r.addr[0] == 0xDEADBEEFull);
  BOOST_TEST(r.scale == 0x12345u);
  BOOST_TEST(r.stride == 0u);
  BOOST_TEST(r.v_mask == 0xDEADBEEFu);
  BOOST_TEST(r.topk_policy == 0x12345u);
  BOOST_TEST(r.topk_valid);
  std::vector<int64_t> lats{b.lat("S_ADDI_INT"), b.lat("S_LUI_INT"), b.lat("S_ADDI_INT")};
  for (const char* m : {"C_SET_ADDR_REG", "C_SET_ADDR_REG", "C_SET_SCALE_REG", "C_SET_STRIDE_REG",
                        "C_SET_V_MASK_REG", "C_SET_TOPK_REG"}) {
    lats.push_back(b.lat(m));
  }
  b.check_timeline(lats);
}

BOOST_AUTO_TEST_CASE(control_loops) {
  Bench b;
  b.run(R"(
    S_ADDI_INT gp5, gp0, 0          ; pc 0
    C_LOOP_START gp1, 3             ; pc 1
    C_LOOP_START gp2, 2             ; pc 2
    S_ADDI_INT gp5, gp5, 1          ; pc 3
    C_LOOP_END gp2                  ; pc 4
    S_ADDI_INT gp6, gp6, 10         ; pc 5
    C_LOOP_END gp1                  ; pc 6
    C_LOOP_START gp0, 5             ; pc 7: counter gp0 reads 0, so the body runs once
    S_ADDI_INT gp7, gp5, 0          ; pc 8
    C_LOOP_END gp0                  ; pc 9
  )");
  const std::vector<uint32_t> inner{2, 3, 4, 3, 4, 5, 6};
  std::vector<uint32_t> want{0, 1};
  for (int i = 0; i < 3; ++i) want.insert(want.end(), inner.begin(), inner.end());
  want.insert(want.end(), {7, 8, 9});
  std::vector<uint32_t> pcs;
  for (const auto& r : b.recs) pcs.push_back(r.pc);
  BOOST_TEST(pcs == want, boost::test_tools::per_element());
  // Loop-end records: counter decremented while > 1, then 0 and fall through.
  BOOST_TEST(b.recs[1].regs == (std::vector<RegWrite>{{RegFile::Gp, 1, 3}}),
             boost::test_tools::per_element());
  BOOST_TEST(b.recs[4].regs == (std::vector<RegWrite>{{RegFile::Gp, 2, 1}}),
             boost::test_tools::per_element());
  BOOST_TEST(b.recs[6].regs == (std::vector<RegWrite>{{RegFile::Gp, 2, 0}}),
             boost::test_tools::per_element());
  BOOST_TEST(b.recs[8].regs == (std::vector<RegWrite>{{RegFile::Gp, 1, 2}}),
             boost::test_tools::per_element());
  BOOST_TEST(b.recs[23].regs.empty());  // C_LOOP_START gp0
  const isa::ArchRegs r = b.model.regs();
  BOOST_TEST(r.gp[5] == 6u);
  BOOST_TEST(r.gp[6] == 30u);
  BOOST_TEST(r.gp[7] == 6u);
  BOOST_TEST(r.gp[1] == 0u);
  BOOST_TEST(r.gp[2] == 0u);
  BOOST_TEST(b.model.retired() == 26u);
  BOOST_TEST(b.model.cycles() == 26u * static_cast<uint64_t>(b.lat("C_LOOP_END")));
  b.check_timeline(std::vector<int64_t>(26, b.lat("S_ADDI_INT")));
}

BOOST_AUTO_TEST_CASE(control_loop_traps) {
  Bench b;
  b.run("S_ADDI_INT gp1, gp0, 1\nC_LOOP_START gp1, 0\n");
  b.check_trap(trap("loop_count_zero"), 1);
  BOOST_TEST(b.model.regs().gp[1] == 1u);  // not written
  b.run(R"(
    C_LOOP_START gp1, 2
    C_LOOP_START gp2, 2
    C_LOOP_START gp3, 2
    C_LOOP_START gp4, 2
    C_LOOP_START gp5, 2
  )");
  b.check_trap(trap("loop_depth_overflow"), 4);
  BOOST_TEST(b.model.regs().gp[5] == 0u);
  // Both causes: loop_count_zero is listed first.
  b.run(R"(
    C_LOOP_START gp1, 2
    C_LOOP_START gp2, 2
    C_LOOP_START gp3, 2
    C_LOOP_START gp4, 2
    C_LOOP_START gp5, 0
  )");
  b.check_trap(trap("loop_count_zero"), 4);
  b.run("C_LOOP_END gp1\n");
  b.check_trap(trap("loop_underflow"), 0);
  // A completed loop leaves the stack empty.
  b.run("C_LOOP_START gp1, 1\nC_LOOP_END gp1\nC_LOOP_END gp1\n");
  b.check_trap(trap("loop_underflow"), 2);
  // The loop stack is reset by load().
  b.run("C_LOOP_START gp1, 2\nC_LOOP_START gp2, 2\nC_LOOP_START gp3, 2\nC_LOOP_START gp4, 2\n");
  BOOST_TEST(!b.recs.back().trap.has_value());
  b.run("C_LOOP_START gp1, 2\n");
  BOOST_TEST(!b.recs.back().trap.has_value());
}

BOOST_AUTO_TEST_CASE(control_illegal_words) {
  Bench b;
  const uint32_t addi = isa::assemble(spec(), "S_ADDI_INT gp1, gp0, 9\n").words.at(0);
  // Undefined opcodes: 0x3F, 0x00 and 0x3B (past the last one defined, 0x3A).
  for (uint32_t word : {0x0000003Fu, 0x00000000u, 0xFFFFFF3Bu}) {
    isa::Program p;
    p.words = {addi, word, addi};
    p.stages = {0, 7, 0};
    b.run(p);
    BOOST_TEST_REQUIRE(b.recs.size() == 2u);
    b.check_trap(trap("illegal_instruction"), 1);
    BOOST_TEST(b.recs[1].word == word);
    BOOST_TEST(b.recs[1].stage == 7);
    BOOST_TEST(b.recs[1].index == 1u);
    BOOST_TEST(b.recs[1].start_cycle == static_cast<uint64_t>(b.lat("S_ADDI_INT")));
    BOOST_TEST(b.model.retired() == 1u);
    BOOST_TEST(b.model.cycles() == static_cast<uint64_t>(b.lat("S_ADDI_INT")));
    isa::RetireRecord r;
    BOOST_TEST(!b.model.step(r));
  }
  // FP register f9 does not exist (4-bit field, 8 registers).
  isa::Program p;
  p.words = {spec().by_mnemonic("S_LD_FP")->opcode | (9u << spec().field("rd").lo)};
  b.run(p);
  b.check_trap(trap("illegal_instruction"), 0);
  // Unused fields are ignored: S_ADD_INT with bits [31:18] set executes normally.
  p.words = {isa::assemble(spec(), "S_ADD_INT gp1, gp0, gp0\n").words.at(0) | 0xFFFC0000u};
  b.run(p);
  BOOST_TEST(!b.recs.back().trap.has_value());
}

BOOST_AUTO_TEST_CASE(control_instruction_budget) {
  isa::MachinePreset small = tiny();
  small.params["INSTRUCTION_BUDGET"] = 5;
  Bench b(small);
  // Five instructions retire; the sixth would exceed the budget and traps at issue.
  b.run("C_LOOP_START gp1, 100\nS_ADDI_INT gp2, gp2, 1\nC_LOOP_END gp1\n");
  BOOST_TEST_REQUIRE(b.recs.size() == 6u);
  b.check_trap(trap("instruction_budget_exceeded"), 1);
  BOOST_TEST(b.model.retired() == 5u);
  BOOST_TEST(b.model.regs().gp[2] == 2u);
  // Exactly INSTRUCTION_BUDGET instructions: no trap.
  b.run(
      "S_ADDI_INT gp1, gp0, 1\nS_ADDI_INT gp1, gp0, 1\nS_ADDI_INT gp1, gp0, 1\n"
      "S_ADDI_INT gp1, gp0, 1\nS_ADDI_INT gp1, gp0, 1\n");
  BOOST_TEST(b.recs.size() == 5u);
  BOOST_TEST(!b.recs.back().trap.has_value());
  // A run-time budget (machine.yaml `runtime`) replaces the preset's from the next load on.
  b.model.set_instruction_budget(2);
  b.run("S_ADDI_INT gp1, gp0, 1\nS_ADDI_INT gp1, gp0, 1\nS_ADDI_INT gp1, gp0, 1\n");
  BOOST_TEST_REQUIRE(b.recs.size() == 3u);
  b.check_trap(trap("instruction_budget_exceeded"), 2);
  BOOST_CHECK_THROW(b.model.set_instruction_budget(0), std::invalid_argument);
  BOOST_CHECK_THROW(b.model.set_instruction_budget(uint64_t{1} << 32), std::invalid_argument);
}
