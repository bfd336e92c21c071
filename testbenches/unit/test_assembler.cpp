// Assembler and disassembler: every instruction of isa.yaml with random operands, stage markers,
// PLENA encodings, and each error with its file:line:col and text.
#define BOOST_TEST_MODULE assembler
#include <boost/test/unit_test.hpp>
#include <random>
#include <string>

#include "moesim/isa/assembler.hpp"
#include "moesim/isa/encoding.hpp"
#include "moesim/isa/spec.hpp"

using namespace moesim::isa;

namespace {

const Spec& spec() { return Spec::builtin(); }

uint32_t asm1(const std::string& line) {
  Program p = assemble(spec(), line, "t.asm");
  BOOST_REQUIRE_EQUAL(p.words.size(), 1u);
  return p.words[0];
}

/// Asserts that assembling `text` fails with exactly `what` ("file:line:col: message").
void expect_error(const std::string& text, const std::string& what) {
  try {
    assemble(spec(), text, "t.asm");
    BOOST_ERROR("no error for: " << text);
  } catch (const AsmError& e) {
    BOOST_TEST(std::string(e.what()) == what);
  }
}

}  // namespace

BOOST_AUTO_TEST_CASE(every_instruction_random_operands_round_trip) {
  std::mt19937_64 rng(42);
  int words = 0;
  for (const InstrSpec& ins : spec().instructions()) {
    for (int iter = 0; iter < 300; ++iter) {
      // Random operand values of the right kind; optional trailing operands sometimes omitted.
      size_t required = 0;
      for (const auto& o : ins.operands) required += o.optional ? 0 : 1;
      size_t n = required + (ins.operands.size() > required ? rng() % 2 : 0);
      std::string text = ins.mnemonic;
      uint32_t expect = ins.opcode;
      for (size_t i = 0; i < n; ++i) {
        const OperandSpec& o = ins.operands[i];
        const Field& f = spec().field(o.field);
        uint64_t v = 0;
        std::string tok;
        switch (o.kind) {
          case OperandKind::Gp:
            v = rng() % 16, tok = "gp" + std::to_string(v);
            break;
          case OperandKind::Fp:
            v = rng() % 8, tok = "f" + std::to_string(v);
            break;
          case OperandKind::Addr:
            v = rng() % 8, tok = "a" + std::to_string(v);
            break;
          case OperandKind::Imm: {
            // Bias towards the edges of the field; only values isa.yaml allows.
            uint64_t max = (uint64_t{1} << f.width()) - 1;
            int pick = static_cast<int>(rng() % 4);
            v = pick == 0 ? 0 : pick == 1 ? max : rng() & max;
            if (!o.allowed.empty()) v = o.allowed[rng() % o.allowed.size()];
            char buf[32];
            std::snprintf(buf, sizeof buf, (rng() & 1) ? "%llu" : "0x%llX",
                          static_cast<unsigned long long>(v));
            tok = buf;
            break;
          }
          case OperandKind::Zero:
            tok = "0";
            break;
        }
        expect |= static_cast<uint32_t>(v) << f.lo;
        text += (i == 0 ? " " : ", ") + tok;
      }
      uint32_t w = asm1(text);
      BOOST_REQUIRE_MESSAGE(w == expect, text << " -> " << std::hex << w << " expected " << expect);
      std::string dis = disassemble(spec(), w);
      BOOST_REQUIRE_MESSAGE(asm1(dis) == w, "disassembly '" << dis << "' of " << text);
      Decoded d = decode(spec(), w);
      BOOST_REQUIRE(d.spec == &ins);
      ++words;
    }
  }
  BOOST_TEST_MESSAGE("round trip: " << spec().instructions().size() << " instructions, " << words
                                    << " words");
}

BOOST_AUTO_TEST_CASE(program_with_stages_round_trips) {
  std::mt19937 rng(3);
  std::string text = "; leading comment\nS_ADDI_INT gp1, gp0, 5\n";
  std::vector<std::string> names;
  for (const auto& st : spec().stages())
    if (st.name != "other") names.push_back(st.name);
  for (int i = 0; i < 400; ++i) {
    if (rng() % 5 == 0) text += "; @stage=" + names[rng() % names.size()] + " pair=3\n";
    if (rng() % 7 == 0) text += "  // plain comment ; @stage=gather (not a marker)\n\n";
    text += "S_ADD_INT gp" + std::to_string(rng() % 16) + ", gp2, gp3 ; trailing\n";
  }
  Program p = assemble(spec(), text, "prog.asm");
  BOOST_TEST(p.stages[0] == 0);  // before the first marker: other
  std::string dis = disassemble(spec(), p);
  Program q = assemble(spec(), dis, "dis.asm");
  BOOST_TEST(q.words == p.words);
  BOOST_TEST(q.stages == p.stages);
  BOOST_TEST(p.lines[0] == 2u);
}

BOOST_AUTO_TEST_CASE(stage_markers) {
  Program p = assemble(spec(),
                       "S_ADD_INT gp1, gp2, gp3\n"
                       ";@stage=gather pairs=8\n"
                       "S_ADD_INT gp1, gp2, gp3\n"
                       "; see @stage=router_topk\n"
                       "S_ADD_INT gp1, gp2, gp3\n"
                       "   ;   @stage=non_moe\n"
                       "S_ADD_INT gp1, gp2, gp3\n");
  BOOST_REQUIRE_EQUAL(p.size(), 4u);
  BOOST_TEST(p.stages[0] == spec().stage("other")->code);
  BOOST_TEST(p.stages[1] == spec().stage("gather")->code);
  BOOST_TEST(p.stages[2] == spec().stage("gather")->code);  // `see @stage=` is no marker
  BOOST_TEST(p.stages[3] == spec().stage("non_moe")->code);
  BOOST_TEST(p.lines[3] == 7u);
}

BOOST_AUTO_TEST_CASE(pair_markers) {
  const std::string add = "S_ADD_INT gp1, gp2, gp3\n";
  Program none = assemble(spec(), add + add);
  BOOST_TEST(none.work.empty());  // no marker: no tags
  Program p = assemble(spec(), add + "; @pair=3,1,int[520]\n" + add + "; @stage=gather\n" + add +
                                   "; @pair=-,-,7\n" + add + "; @pair=-\n" + add);
  BOOST_REQUIRE_EQUAL(p.work.size(), 5u);
  BOOST_TEST((p.work[0] == WorkTag{}));
  BOOST_TEST((p.work[1] == WorkTag{3, 1, -1, 520}));
  BOOST_TEST((p.work[2] == WorkTag{3, 1, -1, 520}));  // sticky across a stage marker
  BOOST_TEST((p.work[3] == WorkTag{-1, -1, 7, -1}));
  BOOST_TEST((p.work[4] == WorkTag{}));
  for (const WorkTag& t : p.work) BOOST_TEST((parse_work_tag(format_work_tag(t)) == t));
  BOOST_TEST(format_work_tag(p.work[1]) == "3,1,int[520]");
  BOOST_TEST(format_work_tag(p.work[3]) == "-,-,7");
  Program q = assemble(spec(), disassemble(spec(), p));
  BOOST_TEST(q.words == p.words);
  BOOST_TEST(q.stages == p.stages);
  BOOST_TEST((q.work == p.work));
}

BOOST_AUTO_TEST_CASE(plena_encodings) {
  BOOST_TEST(asm1("C_SET_TOPK_REG gp7") == 0x000001F8u);
  BOOST_TEST(asm1("M_MM 0, gp1, gp2") == (0x01u | 1u << 10 | 2u << 14));
  // rmask of V_EXP_V sits in [21:18] (PLENA's assembler put it in [17:14]).
  BOOST_TEST(asm1("V_EXP_V gp2, gp1, 1") == (0x13u | 2u << 6 | 1u << 10 | 1u << 18));
  BOOST_TEST(asm1("V_RED_SUM f1, gp4, 3") == (0x15u | 1u << 6 | 4u << 10 | 3u << 18));
  BOOST_TEST(asm1("S_LUI_INT gp1, 0x3FFFFF") == (0x25u | 1u << 6 | 0x3FFFFFu << 10));
  BOOST_TEST(asm1("H_PREFETCH_M gp1, gp2, a3, 1, 0") ==
             (0x28u | 1u << 6 | 2u << 10 | 3u << 14 | 1u << 18));
  BOOST_TEST(asm1("C_SET_ADDR_REG a2, gp0, gp5") == (0x2Bu | 2u << 6 | 5u << 14));
  BOOST_TEST(asm1("V_ADD_VV gp3, gp1, gp2") == asm1("V_ADD_VV gp3, gp1, gp2, 0"));
  BOOST_TEST(asm1("\tS_ADD_INT   gp1 ,gp2,gp3  // c\r") == (0x21u | 1u << 6 | 2u << 10 | 3u << 14));
}

BOOST_AUTO_TEST_CASE(disassembly_text) {
  BOOST_TEST(disassemble(spec(), asm1("V_ADD_VV gp3, gp1, gp2")) == "V_ADD_VV gp3, gp1, gp2, 0");
  BOOST_TEST(disassemble(spec(), asm1("M_MM 0, gp1, gp2")) == "M_MM 0, gp1, gp2");
  BOOST_TEST(disassemble(spec(), 0x00000000u) == ".word 0x00000000");
  BOOST_TEST(disassemble(spec(), 0xFFFFFFFFu) == ".word 0xFFFFFFFF");
  // Words no mnemonic line reproduces (a reserved bit set, a nonzero `zero` field, an undefined
  // opcode) print as .word with the decoding as a comment, and re-assemble to the same word.
  const uint32_t reserved = 0x000001F8u | 1u << 31;
  BOOST_TEST(disassemble(spec(), reserved) ==
             ".word 0x800001F8  ; C_SET_TOPK_REG gp7 with reserved bits or values set");
  for (uint32_t w : {reserved, 0x000000C1u /* M_MM with rd = 3 */, 0x0000003Fu})
    BOOST_TEST(asm1(disassemble(spec(), w)) == w);
  Program bad;
  bad.words = {0x1F8, 0x1F8};
  bad.stages = {spec().stage("gather")->code, 0};
  BOOST_CHECK_THROW(disassemble(spec(), bad), std::invalid_argument);
}

BOOST_AUTO_TEST_CASE(disassembly_of_any_word_reassembles_to_it) {
  // H_STORE_V with precision 3 (reserved): once printed as "H_STORE_V gp1, gp0, a0, 0, 3",
  // which the assembler refuses. A reserved operand value prints as .word.
  const std::string text = disassemble(spec(), 0x00C0006Au);
  BOOST_TEST(text.rfind(".word 0x00C0006A", 0) == 0u, text);
  BOOST_TEST(asm1(text) == 0x00C0006Au);
  // Every word's disassembly assembles back to the same word (about 1 in 2,000 random words
  // carried a reserved value), plain mnemonic text or .word.
  std::mt19937 rng(20261201);
  size_t as_word = 0;
  for (int i = 0; i < 200000; ++i) {
    const uint32_t w = static_cast<uint32_t>(rng());
    const std::string d = disassemble(spec(), w);
    as_word += d.rfind(".word", 0) == 0 ? 1 : 0;
    uint32_t back = 0;
    try {
      back = asm1(d);
    } catch (const std::exception& e) {
      BOOST_ERROR("0x" << std::hex << w << " disassembles to '" << d << "': " << e.what());
      break;
    }
    if (back != w) {
      BOOST_ERROR("0x" << std::hex << w << " -> '" << d << "' -> 0x" << back);
      break;
    }
  }
  BOOST_TEST(as_word > 0u);
  BOOST_TEST(as_word < 200000u);
}

BOOST_AUTO_TEST_CASE(errors_name_file_line_col) {
  expect_error("S_ADD_INT gp1, gp2, gp3\n  V_FOO gp1\n", "t.asm:2:3: unknown mnemonic 'V_FOO'");
  expect_error("s_add_int gp1, gp2, gp3", "t.asm:1:1: unknown mnemonic 's_add_int'");
  expect_error(".wrod 5", "t.asm:1:1: unknown directive (the only one is .word)");
  expect_error(".word 0x100000000", "t.asm:1:7: .word value 0x100000000 does not fit 32 bits");
  expect_error(".word", "t.asm:1:6: .word expects one number");
  expect_error(".word 1, 2", "t.asm:1:8: unexpected ', 2' after .word value");
  const std::string malformed =
      "malformed marker (write `; @stage=NAME` or `; @pair=TOKEN,SLOT,EXPERT`)";
  expect_error("; @stage = gather\n", "t.asm:1:3: " + malformed);
  expect_error(";@stag=gather\n", "t.asm:1:2: " + malformed);
  expect_error("; @pair 1,2,3\n", "t.asm:1:3: " + malformed);
  expect_error("; @pair=1,2\n", "t.asm:1:9: work tag '1,2' must be TOKEN,SLOT,EXPERT or -");
  expect_error("; @pair=1,-2,3\n", "t.asm:1:9: slot '-2' is not a non-negative decimal number");
  expect_error("; @pair=1,2,int[0x10]\n",
               "t.asm:1:9: INT SRAM address '0x10' is not a non-negative decimal number");
  expect_error("; @pair=2147483648,0,0\n", "t.asm:1:9: token 2147483648 is too large");
  expect_error("; @pair=9999999999999999999,0,0\n",
               "t.asm:1:9: token 9999999999999999999 is too large");
  expect_error("; @pair=0,0,int[9223372036854775808]\n",
               "t.asm:1:9: INT SRAM address 9223372036854775808 is too large");
  expect_error("S_ADD_INT gp1, gp2, gp3 ; @pair=1,2,3\n",
               "t.asm:1:25: a marker must be on a line of its own (it applies to the following "
               "instructions)");
  expect_error("S_ADD_INT gp1, gp2, gp3\n\x01X\n", "t.asm:2:1: expected a mnemonic, got '\\x01'");
  expect_error("S_ADD_INT gp1, gp2", "t.asm:1:1: S_ADD_INT expects 3 operands, got 2");
  expect_error("V_ADD_VV gp1, gp2", "t.asm:1:1: V_ADD_VV expects 3 to 4 operands, got 2");
  expect_error("C_LOOP_END gp1, gp2", "t.asm:1:17: C_LOOP_END expects 1 operand, got 2");
  expect_error("V_ADD_VF gp1, gp2, gp3",
               "t.asm:1:20: V_ADD_VF operand fs: expected an f register, got 'gp3'");
  expect_error("V_RED_SUM gp1, gp2",
               "t.asm:1:11: V_RED_SUM operand fd: expected an f register, got 'gp1'");
  expect_error("H_PREFETCH_V gp1, gp2, gp3, 0, 0",
               "t.asm:1:24: H_PREFETCH_V operand an: expected an a register, got 'gp3'");
  expect_error("S_ADD_INT gp16, gp2, gp3",
               "t.asm:1:11: S_ADD_INT operand rd: register 'gp16' does not exist (gp0..gp15)");
  expect_error("S_LD_FP f8, gp1, 0",
               "t.asm:1:9: S_LD_FP operand fd: register 'f8' does not exist (f0..f7)");
  expect_error("C_SET_ADDR_REG a8, gp0, gp1",
               "t.asm:1:16: C_SET_ADDR_REG operand an: register 'a8' does not exist (a0..a7)");
  expect_error("S_ADD_INT gpx, gp2, gp3",
               "t.asm:1:11: S_ADD_INT operand rd: expected a gp register, got 'gpx'");
  expect_error("S_ADD_INT 1, gp2, gp3",
               "t.asm:1:11: S_ADD_INT operand rd: expected a gp register, got '1'");
  expect_error("S_ADDI_INT gp1, gp0, 262144",
               "t.asm:1:22: S_ADDI_INT operand imm: immediate 262144 does not fit field imm18 (18 "
               "bits, max 262143)");
  expect_error("S_ADDI_INT gp1, gp0, 0x40000",
               "t.asm:1:22: S_ADDI_INT operand imm: immediate 0x40000 does not fit field imm18 (18 "
               "bits, max 262143)");
  expect_error(
      "V_ADD_VV gp1, gp2, gp3, 16",
      "t.asm:1:25: V_ADD_VV operand rmask: immediate 16 does not fit field r3 (4 bits, max 15)");
  expect_error("V_TOPK gp1, gp2, gp3, 2",
               "t.asm:1:23: V_TOPK operand rmask: value 2 is reserved (isa.yaml allows 0, 1, 15; "
               "write .word to encode it anyway)");
  expect_error("H_PREFETCH_V gp1, gp2, a0, 0, 1",
               "t.asm:1:31: H_PREFETCH_V operand prec: value 1 is reserved (isa.yaml allows 0; "
               "write .word to encode it anyway)");
  expect_error("H_STORE_V gp1, gp2, a0, 2, 0",
               "t.asm:1:25: H_STORE_V operand rstride: value 2 is reserved (isa.yaml allows 0, 1; "
               "write .word to encode it anyway)");
  expect_error("S_LUI_INT gp1, 4194304",
               "t.asm:1:16: S_LUI_INT operand imm: immediate 4194304 does not fit field imm22 (22 "
               "bits, max 4194303)");
  expect_error("S_ADDI_INT gp1, gp0, 99999999999999999999999",
               "t.asm:1:22: number '99999999999999999999999' is too large");
  expect_error("S_ADDI_INT gp1, gp0, 12a",
               "t.asm:1:22: S_ADDI_INT operand imm: expected an immediate, got '12a'");
  expect_error("S_ADDI_INT gp1, gp0, 0x",
               "t.asm:1:22: S_ADDI_INT operand imm: expected an immediate, got '0x'");
  expect_error("S_ADDI_INT gp1, gp0, -1", "t.asm:1:22: unexpected '-' in operand list");
  expect_error("M_MM 1, gp1, gp2", "t.asm:1:6: M_MM operand rd: must be the literal 0, got '1'");
  expect_error("M_MM 0x0, gp1, gp2",
               "t.asm:1:6: M_MM operand rd: must be the literal 0, got '0x0'");
  expect_error("M_MM gp0, gp1, gp2",
               "t.asm:1:6: M_MM operand rd: expected the literal 0, got 'gp0'");
  expect_error("S_ADD_INT gp1, gp2, gp3 extra", "t.asm:1:25: unexpected 'extra' after operand");
  expect_error("S_ADD_INT gp1, gp2, gp3,", "t.asm:1:25: missing operand after ','");
  expect_error("S_ADD_INT gp1,, gp3", "t.asm:1:15: unexpected ',' in operand list");
  expect_error("S_ADD_INT, gp1", "t.asm:1:10: unexpected ',' after mnemonic S_ADD_INT");
  expect_error("\n\n; @stage=bogus\n", "t.asm:3:10: unknown stage 'bogus' (not in stages.yaml)");
  expect_error(
      "; @stage=other",
      "t.asm:1:10: 'other' is not a marker name (it is the stage before the first marker)");
  expect_error("; @stage=", "t.asm:1:10: empty stage name after @stage=");
  expect_error("S_ADD_INT gp1, gp2, gp3 ; @stage=gather",
               "t.asm:1:25: a marker must be on a line of its own (it applies to the "
               "following instructions)");
  try {
    assemble(spec(), "\nC_LOOP_END gp99\n", "dir/x.asm");
    BOOST_ERROR("no error");
  } catch (const AsmError& e) {
    BOOST_TEST(e.file == "dir/x.asm");
    BOOST_TEST(e.line == 2u);
    BOOST_TEST(e.col == 12u);
  }
}

namespace {

/// Assembles `text` in the PLENA syntax; `warnings` receives its warnings.
Program plena(const std::string& text, std::vector<std::string>& warnings) {
  AsmOptions o;
  o.syntax = Syntax::plena;
  o.warnings = &warnings;
  return assemble(spec(), text, "p.asm", o);
}

uint32_t plena1(const std::string& line) {
  std::vector<std::string> w;
  Program p = plena(line, w);
  BOOST_REQUIRE_EQUAL(p.words.size(), 1u);
  BOOST_TEST(w.empty());
  return p.words[0];
}

}  // namespace

// Each form of isa.yaml `plena:` assembles in the PLENA syntax to the word of moesim's form with
// the same meaning (docs/sources.md, PLENA-compatible syntax).
BOOST_AUTO_TEST_CASE(plena_syntax_forms) {
  BOOST_TEST(plena1("V_RED_SUM f1, gp2, 0, 0") == asm1("V_RED_SUM f1, gp2, 0"));
  BOOST_TEST(plena1("V_EXP_V gp1, gp2, 0, 0") == asm1("V_EXP_V gp1, gp2"));
  BOOST_TEST(plena1("S_SQRT_FP f1, f2, 0") == asm1("S_SQRT_FP f1, f2"));
  BOOST_TEST(plena1("S_RECI_FP f3, f4, 0") == asm1("S_RECI_FP f3, f4"));
  BOOST_TEST(plena1("S_EXP_FP f5, f6, 0") == asm1("S_EXP_FP f5, f6"));
  BOOST_TEST(plena1("V_SHIFT_V gp1, gp2, gp3") == asm1("V_SHFT_V gp1, gp2, gp3"));
  BOOST_TEST(plena1("H_PREFETCH_M gp1, gp2, a3, 1, 1") == asm1("H_PREFETCH_M gp1, gp2, a3, 1, 0"));
  // moesim's own text means the same in both syntaxes.
  for (const char* l : {"V_RED_SUM f1, gp2", "V_EXP_V gp1, gp2, 0", "S_SQRT_FP f1, f2",
                        "V_SHFT_V gp1, gp2, gp3", "H_PREFETCH_M gp1, gp2, a3, 1, 0"})
    BOOST_TEST(plena1(l) == asm1(l), l);
  // The trailing operand of PLENA's form is the literal 0; PLENA's prec 1 is its only alias.
  std::vector<std::string> w;
  for (const char* l : {"S_SQRT_FP f1, f2, 1", "V_RED_SUM f1, gp2, 0, gp3"})
    BOOST_CHECK_THROW(plena(l, w), AsmError);
  BOOST_CHECK_THROW(plena("H_PREFETCH_M gp1, gp2, a3, 1, 2", w), AsmError);
  BOOST_CHECK_THROW(plena("V_SHIFT_V gp1, gp2, gp3, 0", w), AsmError);
}

// Where PLENA's text means something else (a mask PLENA's binary does not carry), the PLENA
// syntax follows PLENA with a warning naming the line; moesim's syntax refuses the trailing-0
// form and says why.
BOOST_AUTO_TEST_CASE(plena_syntax_dropped_masks) {
  std::vector<std::string> w;
  Program p = plena("S_ADD_INT gp1, gp0, gp0\nV_RED_SUM f1, gp2, 1, 0\nV_EXP_V gp1, gp2, 1\n", w);
  BOOST_REQUIRE_EQUAL(p.words.size(), 3u);
  BOOST_TEST(p.words[1] == asm1("V_RED_SUM f1, gp2, 0"));
  BOOST_TEST(p.words[2] == asm1("V_EXP_V gp1, gp2, 0"));
  BOOST_REQUIRE_EQUAL(w.size(), 2u);
  BOOST_TEST(w[0] ==
             "p.asm:2:20: V_RED_SUM rmask 1: PLENA's binary sums the whole row (its assembler "
             "drops rmask); the PLENA syntax follows it and encodes rmask 0");
  BOOST_TEST(w[1].rfind("p.asm:3:19: V_EXP_V rmask 1: PLENA's binary exponentiates", 0) == 0);
  // The same words without a warning when the mask is 0.
  w.clear();
  plena("V_RED_SUM f1, gp2, 0, 0\nV_RED_MAX f1, gp2\n", w);
  BOOST_TEST(w.empty());

  expect_error("\nV_RED_SUM f1, gp2, 1, 0",
               "t.asm:2:20: V_RED_SUM with rmask 1 and a trailing 0 is PLENA's text, and PLENA "
               "means something else by it: its assembler drops rmask, so PLENA's binary sums "
               "the whole row, while moesim's V_RED_SUM honours rmask 1. Assemble with the PLENA "
               "syntax (--syntax plena) to follow PLENA, or drop the trailing 0 for moesim's "
               "meaning");
  expect_error("V_RED_SUM f1, gp2, 0, 0",
               "t.asm:1:23: V_RED_SUM takes 3 operands; a trailing 0 is PLENA's form (PLENA's "
               "assembler ignores it): drop it, or assemble with the PLENA syntax (--syntax "
               "plena)");
  expect_error("S_SQRT_FP f1, f2, 0",
               "t.asm:1:19: S_SQRT_FP takes 2 operands; a trailing 0 is PLENA's form (PLENA's "
               "assembler ignores it): drop it, or assemble with the PLENA syntax (--syntax "
               "plena)");
  expect_error("S_SQRT_FP f1, f2, 1", "t.asm:1:19: S_SQRT_FP expects 2 operands, got 3");
  expect_error("V_SHIFT_V gp1, gp2, gp3",
               "t.asm:1:1: unknown mnemonic 'V_SHIFT_V' (PLENA's name for V_SHFT_V: write "
               "V_SHFT_V, or assemble with the PLENA syntax, --syntax plena)");
  expect_error("H_PREFETCH_M gp1, gp2, a3, 1, 1",
               "t.asm:1:31: H_PREFETCH_M operand prec: value 1 is PLENA's (PLENA's K/V type, the "
               "same MX format as its weights (E4M3, E8M0 scale, block 8) under its settings); "
               "moesim encodes it as 0: write 0, or assemble with the PLENA syntax (--syntax "
               "plena)");
}

// A stage map sets stages from comment lines: any / all / none / after, first rule wins, the
// stage holds until another rule or a marker; a trailing comment is not tried.
BOOST_AUTO_TEST_CASE(stage_map_rules) {
  const uint8_t gather = spec().stage("gather")->code, router = spec().stage("router_topk")->code,
                act = spec().stage("expert_activation")->code, other = spec().stage("other")->code;
  StageMap m;
  StageRule r1;
  r1.stage = router;
  r1.any = {"router dot", "router token"};
  StageRule r2;
  r2.stage = gather;
  r2.all = {"pair", "gather"};
  r2.none = {"padding"};
  StageRule r3;
  r3.stage = act;
  r3.any = {"vram matrix mul"};
  r3.has_after = true;
  r3.after = gather;
  m.rules = {r1, r2, r3};
  AsmOptions o;
  o.stage_map = &m;
  const Program p = assemble(spec(),
                             "S_ADD_INT gp1, gp0, gp0\n"
                             "; ROUTER DOT token 0\n"
                             "S_ADD_INT gp1, gp0, gp0 ; gather pair (trailing: not tried)\n"
                             "; vram matrix mul (not after gather: no change)\n"
                             "S_ADD_INT gp1, gp0, gp0\n"
                             "; gather padding pair (none: no change)\n"
                             "S_ADD_INT gp1, gp0, gp0\n"
                             "; gather pair 1\n"
                             "S_ADD_INT gp1, gp0, gp0\n"
                             "; vram matrix mul\n"
                             "S_ADD_INT gp1, gp0, gp0\n"
                             "; @stage=scatter_combine\n"
                             "S_ADD_INT gp1, gp0, gp0\n",
                             "t.asm", o);
  const std::vector<uint8_t> want = {
      other, router, router, router, gather, act, spec().stage("scatter_combine")->code};
  BOOST_TEST(p.stages == want, boost::test_tools::per_element());
}
