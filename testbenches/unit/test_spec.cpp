// The YAML loader (valid spec, every class of error with its file and key path), the latency
// formula evaluator and the word encoder.
#define BOOST_TEST_MODULE spec
#include <unistd.h>

#include <boost/test/unit_test.hpp>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include "moesim/isa/encoding.hpp"
#include "moesim/isa/expr.hpp"
#include "moesim/isa/spec.hpp"
#include "moesim/isa/tables.hpp"
#include "moesim/isa/trace.hpp"

using namespace moesim::isa;
namespace fs = std::filesystem;

namespace {

const fs::path kSpecDir = MOESIM_TEST_SPEC_DIR;

std::string read(const fs::path& p) {
  std::ifstream f(p);
  std::ostringstream s;
  s << f.rdbuf();
  return s.str();
}

/// A scratch copy of the spec directory with one file's text edited (first occurrence of
/// `from` replaced by `to`, which must exist).
class BadSpec {
 public:
  BadSpec(const std::string& file, const std::string& from, const std::string& to) {
    static int n = 0;
    dir_ = fs::temp_directory_path() /
           ("moesim_spec_test_" + std::to_string(::getpid()) + "_" + std::to_string(n++));
    fs::create_directories(dir_);
    for (const char* f : {"isa.yaml", "machine.yaml", "stages.yaml"})
      fs::copy_file(kSpecDir / f, dir_ / f, fs::copy_options::overwrite_existing);
    std::string text = read(dir_ / file);
    size_t at = text.find(from);
    BOOST_REQUIRE_MESSAGE(at != std::string::npos, "'" << from << "' not in " << file);
    text.replace(at, from.size(), to);
    std::ofstream(dir_ / file) << text;
  }
  ~BadSpec() { fs::remove_all(dir_); }
  /// The SpecError message of loading this directory (fails the test if it loads).
  std::string error() const {
    try {
      Spec::load(dir_);
    } catch (const SpecError& e) {
      return e.what();
    }
    BOOST_ERROR("spec loaded without error");
    return "";
  }

 private:
  fs::path dir_;
};

bool contains(const std::string& s, const std::string& part) {
  return s.find(part) != std::string::npos;
}

/// "isa.yaml: instructions[N]" for the entry of `mnemonic` in the unedited spec, so expected
/// messages do not depend on how many entries precede it.
std::string entry(const std::string& mnemonic) {
  static const Spec spec = Spec::load(kSpecDir);
  const auto& all = spec.instructions();
  for (size_t i = 0; i < all.size(); ++i)
    if (all[i].mnemonic == mnemonic) return "isa.yaml: instructions[" + std::to_string(i) + "]";
  BOOST_FAIL("no isa.yaml entry " << mnemonic);
  return "";
}

#define CHECK_ERROR(bad, part)                                                       \
  do {                                                                               \
    std::string msg_ = (bad).error();                                                \
    BOOST_TEST(contains(msg_, part), "message: " << msg_ << "\nwanted: " << (part)); \
  } while (0)

int64_t ev(const std::string& text, const std::map<std::string, int64_t>& vars = {}) {
  return Expr::parse(text).eval([&](const std::string& id) {
    auto it = vars.find(id);
    if (it == vars.end()) throw ExprError("unknown name '" + id + "'");
    return it->second;
  });
}

std::string expr_error(const std::string& text) {
  try {
    ev(text, {{"A", 6}});
  } catch (const ExprError& e) {
    return e.what();
  }
  BOOST_ERROR("no error for " << text);
  return "";
}

}  // namespace

BOOST_AUTO_TEST_CASE(builtin_spec_loads) {
  const Spec& s = Spec::builtin();
  BOOST_TEST(static_cast<int>(s.instructions().size()) == kNumOpcodes);
  BOOST_TEST(s.by_mnemonic("M_MM")->opcode == 0x01);
  BOOST_TEST(s.by_opcode(0x38)->mnemonic == "C_SET_TOPK_REG");
  BOOST_TEST(s.by_opcode(0x00) == nullptr);
  BOOST_TEST(s.by_mnemonic("m_mm") == nullptr);
  BOOST_TEST(s.field("imm22").lo == 10u);
  BOOST_TEST(s.field("imm22").width() == 22u);
  BOOST_CHECK_THROW(s.field("nope"), SpecError);
  BOOST_TEST(s.trap("loop_underflow").code == 7);
  BOOST_TEST(s.trap_by_code(1)->name == "illegal_instruction");
  BOOST_CHECK_THROW(s.trap("nope"), SpecError);
  BOOST_TEST(s.stage("other")->code == 0);
  BOOST_TEST(s.stage_by_code(15)->name == "non_moe");
  BOOST_TEST(s.preset("default").mlen() == 64);
  BOOST_TEST(s.preset("tiny").vlen() == 16);
  BOOST_TEST(s.preset("default").mx_block() == 8);
  BOOST_TEST(s.preset("mx32").mx_block() == 32);
  BOOST_CHECK_THROW(s.preset("default").get("NOPE"), SpecError);
  try {
    s.preset("huge");
    BOOST_ERROR("no error");
  } catch (const SpecError& e) {
    BOOST_TEST(contains(e.what(), "have: bench, default, mx32, serial, tiny"));
  }
  BOOST_TEST(s.operand_kind(OperandKind::Fp).prefix == "f");
  BOOST_TEST(s.operand_kind(OperandKind::Gp).count == 16u);
  BOOST_TEST(s.parameters().front().first == "MLEN");
  BOOST_TEST(s.is_runtime_parameter("INSTRUCTION_BUDGET"));
  BOOST_TEST(!s.is_runtime_parameter("MLEN"));
  BOOST_TEST(s.runtime_max("INSTRUCTION_BUDGET") == 4294967295);
  // The run-time memory sizes; the MRAM the RTL is built with is a parameter.
  BOOST_TEST(s.is_runtime_parameter("MRAM_TILES"));
  BOOST_TEST(s.is_runtime_parameter("HBM_BYTES"));
  BOOST_TEST(!s.is_runtime_parameter("MRAM_TILES_MAX"));
  BOOST_TEST(s.runtime_max("HBM_BYTES") == (int64_t{1} << 40) - 1);
  // The DMA queue depth (docs/overlap.md section 9): run-time; 2 on default, tiny and mx32, 0
  // (the serial machine) on serial and bench.
  BOOST_TEST(s.is_runtime_parameter("DMA_QUEUE"));
  BOOST_TEST(s.runtime_max("DMA_QUEUE") == 3);
  const std::map<std::string, int64_t> want_queue = {
      {"default", 2}, {"tiny", 2}, {"mx32", 2}, {"serial", 0}, {"bench", 0}};
  BOOST_TEST(s.presets().size() == want_queue.size());
  for (const auto& [name, preset] : s.presets())
    BOOST_TEST(preset.get("DMA_QUEUE") == want_queue.at(name), name);
  BOOST_CHECK_THROW(s.runtime_max("MLEN"), SpecError);
  // HBM jitter (isa.yaml hbm_jitter): run-time; no preset jitters (seed 0), the bound is 7 on
  // tiny and 31 elsewhere.
  BOOST_TEST(s.runtime_max("HBM_JITTER_MAX") == 255);
  BOOST_TEST(s.runtime_max("HBM_JITTER_SEED") == 4294967295);
  for (const auto& [name, preset] : s.presets()) {
    BOOST_TEST(preset.get("HBM_JITTER_SEED") == 0, name);
    BOOST_TEST(preset.get("HBM_JITTER_MAX") == (name == "tiny" ? 7 : 31), name);
  }
  BOOST_TEST(s.checked_hbm_jitter_seed(4294967295) == 4294967295u);
  BOOST_CHECK_THROW(s.checked_hbm_jitter_seed(4294967296), std::invalid_argument);
  // Aliased operand lists (&vv / *vv) load like written-out ones.
  const InstrSpec* sub = s.by_mnemonic("V_SUB_VV");
  BOOST_REQUIRE_EQUAL(sub->operands.size(), 4u);
  BOOST_TEST(sub->operands[3].name == "rmask");
  BOOST_TEST(sub->operands[3].optional);
  BOOST_TEST(s.by_mnemonic("C_LOOP_END")->operands.size() == 1u);
}

BOOST_AUTO_TEST_CASE(latencies) {
  const Spec& s = Spec::builtin();
  const MachinePreset& d = s.preset("default");
  const MachinePreset& t = s.preset("tiny");
  BOOST_TEST(s.latency(*s.by_mnemonic("M_MM"), d) == 4 + 64 / 8 + 1);
  BOOST_TEST(s.latency(*s.by_mnemonic("M_MM"), t) == 4 + 16 / 8 + 1);
  // mx32: MX_BLOCK 32, so M_MM walks 64 / 32 K blocks and M_TMM BLEN * 2 block cycles.
  const MachinePreset& m = s.preset("mx32");
  BOOST_TEST(s.latency(*s.by_mnemonic("M_MM"), m) == 4 + 64 / 32 + 1);
  BOOST_TEST(s.latency(*s.by_mnemonic("M_TMM"), m) == 64 + 4 * 64 / 32 + 1);
  BOOST_TEST(s.latency(*s.by_mnemonic("H_PREFETCH_M"), m, {{"rows", 64}, {"len", 64}}) ==
             24 + 64 * (1 + 1));
  BOOST_TEST(s.latency(*s.by_mnemonic("V_RED_SUM"), d) == 6 + 2);
  BOOST_TEST(s.latency(*s.by_mnemonic("V_RED_SUM"), t) == 4 + 2);
  BOOST_TEST(s.latency(*s.by_mnemonic("V_TOPK"), d, {{"E", 32}, {"k", 4}}) == 32 + 2 * 4 + 1);
  BOOST_TEST(s.latency(*s.by_mnemonic("H_PREFETCH_M"), d, {{"rows", 64}, {"len", 64}}) ==
             24 + 64 * (1 + 1));
  BOOST_TEST(s.latency(*s.by_mnemonic("H_PREFETCH_V"), t, {{"rows", 4}, {"len", 16}}) ==
             8 + 4 * (1 + 1));
  try {
    s.latency(*s.by_mnemonic("V_TOPK"), d, {{"E", 32}});
    BOOST_ERROR("no error");
  } catch (const ExprError& e) {
    BOOST_TEST(contains(e.what(), "latency of V_TOPK on preset 'default': no value for 'k'"));
  }
}

BOOST_AUTO_TEST_CASE(expression_evaluator) {
  BOOST_TEST(ev("2 + 3 * 4") == 14);
  BOOST_TEST(ev("(2 + 3) * 4") == 20);
  BOOST_TEST(ev("10 - 2 - 3") == 5);
  BOOST_TEST(ev("64 / 4 / 2") == 8);
  BOOST_TEST(ev("7 / 2") == 3);
  BOOST_TEST(ev("ceil_div(7, 2)") == 4);
  BOOST_TEST(ev("ceil_div(8, 2)") == 4);
  BOOST_TEST(ev("ceil_div(0, 64)") == 0);
  BOOST_TEST(ev("log2(64)") == 6);
  BOOST_TEST(ev("log2(1)") == 0);
  BOOST_TEST(ev("max(3, 9) + min(3, 9)") == 12);
  BOOST_TEST(ev("A * (B + 1)", {{"A", 3}, {"B", 4}}) == 15);
  BOOST_TEST(ev("HBM_LATENCY + rows * (ceil_div(len, BW) + ceil_div(len / 8, BW))",
                {{"HBM_LATENCY", 24}, {"rows", 4}, {"len", 64}, {"BW", 64}}) == 32);
  auto ids = Expr::parse("A + ceil_div(B, log2(C)) * A").identifiers();
  BOOST_TEST((ids == std::set<std::string>{"A", "B", "C"}));

  BOOST_TEST(expr_error("2 +") == "formula '2 +': column 4: unexpected end of formula");
  BOOST_TEST(expr_error("2 3") == "formula '2 3': column 3: unexpected '3'");
  BOOST_TEST(expr_error("foo(1)") == "formula 'foo(1)': column 1: unknown function 'foo'");
  BOOST_TEST(expr_error("max(1)") == "formula 'max(1)': column 6: max() takes 2 arguments, got 1");
  BOOST_TEST(expr_error("(1 + 2") == "formula '(1 + 2': column 7: expected ')'");
  BOOST_TEST(expr_error("2 * -1") == "formula '2 * -1': column 5: unexpected '-'");
  BOOST_TEST(expr_error("12ab") == "formula '12ab': column 3: malformed number");
  BOOST_TEST(expr_error("A / 0") == "formula 'A / 0': division by 0");
  BOOST_TEST(expr_error("log2(A)") == "formula 'log2(A)': log2 of 6, not a power of two");
  BOOST_TEST(expr_error("ceil_div(A, 0)") ==
             "formula 'ceil_div(A, 0)': ceil_div divisor must be > 0");
  BOOST_TEST(expr_error("(0 - A) / 2") == "formula '(0 - A) / 2': '/' needs operands >= 0");
  BOOST_TEST(expr_error("B + 1") == "unknown name 'B'");
  BOOST_TEST(expr_error("9223372036854775808") ==
             "formula '9223372036854775808': column 19: integer too large");
  BOOST_TEST(expr_error("9223372036854775807 + 1") ==
             "formula '9223372036854775807 + 1': overflow in +");
  BOOST_CHECK_THROW(Expr().eval([](const std::string&) { return int64_t{0}; }), ExprError);
}

BOOST_AUTO_TEST_CASE(encoder_checks_operands) {
  const Spec& s = Spec::builtin();
  const InstrSpec& add = *s.by_mnemonic("V_ADD_VV");
  BOOST_TEST(encode(s, add, {3, 1, 2}) == (0x0Du | 3u << 6 | 1u << 10 | 2u << 14));
  BOOST_TEST(encode(s, add, {3, 1, 2, 5}) == (0x0Du | 3u << 6 | 1u << 10 | 2u << 14 | 5u << 18));
  auto msg = [&](const InstrSpec& ins, const std::vector<uint64_t>& ops) -> std::string {
    try {
      encode(s, ins, ops);
    } catch (const std::invalid_argument& e) {
      return e.what();
    }
    return "no error";
  };
  BOOST_TEST(msg(add, {3, 1}) == "V_ADD_VV: 2 operands given, expected 3 to 4");
  BOOST_TEST(msg(add, {16, 1, 2}) ==
             "V_ADD_VV operand rd: register gp16 does not exist (gp0..gp15)");
  BOOST_TEST(msg(add, {1, 1, 2, 16}) ==
             "V_ADD_VV operand rmask: value 16 does not fit field r3 (4 bits)");
  BOOST_TEST(msg(*s.by_mnemonic("M_MM"), {1, 1, 2}) == "M_MM operand rd: must be 0, got 1");
  BOOST_TEST(msg(*s.by_mnemonic("S_LD_FP"), {8, 1, 0}) ==
             "S_LD_FP operand fd: register f8 does not exist (f0..f7)");
  Decoded d = decode(s, 0xFFFFFFFFu);
  BOOST_TEST(d.spec == nullptr);
  BOOST_TEST(d.opcode == 0x3F);
  BOOST_TEST(d.imm18 == 0x3FFFFu);
  BOOST_TEST(d.imm22 == 0x3FFFFFu);
  Decoded e = decode(s, encode(s, *s.by_mnemonic("H_STORE_V"), {1, 2, 3, 1, 9}));
  BOOST_TEST(e.rd == 1);
  BOOST_TEST(e.rs1 == 2);
  BOOST_TEST(e.rs2 == 3);
  BOOST_TEST(e.r3 == 1);
  BOOST_TEST(e.funct == 9);
  BOOST_TEST(e.spec->mnemonic == "H_STORE_V");
}

BOOST_AUTO_TEST_CASE(loader_errors_name_file_and_key_path) {
  CHECK_ERROR(BadSpec("isa.yaml", "opcode: 0x06", "opcode: x6"),
              entry("M_MM_WO") + ".opcode: expected an integer, got 'x6'");
  CHECK_ERROR(BadSpec("isa.yaml", "opcode: 0x0F", "opcode: 0x0D"),
              entry("V_SUB_VV") + ".opcode: opcode 13 already used by V_ADD_VV");
  CHECK_ERROR(BadSpec("isa.yaml", "opcode: 0x06", "opcode: 0x40"),
              entry("M_MM_WO") + ".opcode: value 64 outside [1, 63]");
  CHECK_ERROR(BadSpec("isa.yaml", "mnemonic: V_SUB_VV", "mnemonic: V_ADD_VV"),
              entry("V_SUB_VV") + ".mnemonic: duplicate mnemonic 'V_ADD_VV'");
  CHECK_ERROR(BadSpec("isa.yaml", "imm22: {hi: 31", "imm22: {hi: 32"),
              "isa.yaml: fields.imm22.hi: value 32 outside [0, 31]");
  CHECK_ERROR(BadSpec("isa.yaml", "funct: {hi: 25, lo: 22}", "funct: {hi: 21, lo: 22}"),
              "isa.yaml: fields.funct: lo > hi");
  CHECK_ERROR(BadSpec("isa.yaml", "kind: zero}", "kind: zilch}"),
              entry("M_MM") + ".operands[0].kind: unknown operand kind 'zilch'");
  CHECK_ERROR(BadSpec("isa.yaml", "{name: rs2, field: rs2, kind: gp}]",
                      "{name: rs2, field: rs9, kind: gp}]"),
              entry("M_MM") + ".operands[2].field: unknown field 'rs9'");
  // An error inside an anchored list is reported at the instruction that defines the anchor.
  CHECK_ERROR(BadSpec("isa.yaml", "{name: rmask, field: r3, kind: imm, optional: true}]",
                      "{name: rmask, field: r3, kind: imm, optional: maybe}]"),
              entry("V_ADD_VV") + ".operands[3].optional: expected true or false, got 'maybe'");
  CHECK_ERROR(BadSpec("isa.yaml", "{name: imm, field: imm18, kind: imm}]",
                      "{name: imm, field: imm22, kind: imm}]"),
              entry("M_MM_WO") + ".operands[2].field: field 'imm22' overlaps another operand");
  CHECK_ERROR(
      BadSpec("isa.yaml", "latency: \"BLEN\"", "latency: \"BLENN\""),
      entry("M_MM_WO") + ".latency: unknown name 'BLENN' (not a machine parameter or latency_var)");
  CHECK_ERROR(BadSpec("isa.yaml", "latency: \"BLEN\"", "latency: \"BLEN +\""),
              entry("M_MM_WO") + ".latency: formula 'BLEN +': column 7: unexpected end of formula");
  CHECK_ERROR(BadSpec("isa.yaml", "latency: \"log2(VLEN) + 2\"", "latency: \"log2(BLEN + 1)\""),
              entry("V_RED_SUM") +
                  ".latency: formula 'log2(BLEN + 1)': log2 of 5, not a power of two "
                  "on preset 'bench'");
  CHECK_ERROR(BadSpec("isa.yaml", "    latency: \"BLEN\"", "    latncy: \"BLEN\""),
              entry("M_MM_WO") + ".latncy: unknown key");
  CHECK_ERROR(BadSpec("isa.yaml",
                      "traps: [address_out_of_range, address_misaligned]\n    latency: \"BLEN\"",
                      "traps: [address_out_of_range, bogus_trap]\n    latency: \"BLEN\""),
              entry("M_MM_WO") + ".traps[1]: unknown trap 'bogus_trap'");
  CHECK_ERROR(BadSpec("isa.yaml", "code: 7,", "code: 6,"),
              "isa.yaml: traps[6].code: duplicate trap code 6");
  CHECK_ERROR(BadSpec("isa.yaml", "unit: dma\n    operands: *h", "unit: dmx\n    operands: *h"),
              entry("H_PREFETCH_V") + ".unit: unknown unit 'dmx'");
  CHECK_ERROR(BadSpec("isa.yaml", "word_bits: 32", "word_bits: 64"),
              "isa.yaml: word_bits: value 64 outside [32, 32]");
  CHECK_ERROR(
      BadSpec("isa.yaml", "  zero: {doc:", "  nada: {doc:"),
      "isa.yaml: operand_kinds.nada: unknown operand kind (known: gp, fp, addr, imm, zero)");
  CHECK_ERROR(BadSpec("isa.yaml", "    unit: matrix\n", "    unit: [matrix\n"), "isa.yaml:");
  CHECK_ERROR(
      BadSpec("isa.yaml", "  - mnemonic: M_MM_WO\n    opcode: 0x06\n", "  - mnemonic: M_MM_WO\n"),
      entry("M_MM_WO") + ".opcode: missing required key");
  CHECK_ERROR(BadSpec("stages.yaml", "code: 2,", "code: 1,"),
              "stages.yaml: stages[2].code: duplicate stage code 1");
  CHECK_ERROR(BadSpec("stages.yaml", "name: router_topk", "name: residual_setup"),
              "stages.yaml: stages[2].name: duplicate stage 'residual_setup'");
  CHECK_ERROR(BadSpec("stages.yaml", "group: routed", "group: misc"),
              "stages.yaml: stages[2].group: group must be routed, shared or plumbing");
  CHECK_ERROR(BadSpec("machine.yaml", "    VLEN: 16\n", "    VLEN: 32\n"),
              "machine.yaml: presets.tiny.VLEN: VLEN must equal MLEN");
  CHECK_ERROR(BadSpec("machine.yaml", "    HLEN: 4\n", ""),
              "machine.yaml: presets.tiny: missing parameter 'HLEN'");
  // HLEN divides VLEN, a power of two, so it is one too (the per-head ops need B = MLEN / HLEN).
  CHECK_ERROR(BadSpec("machine.yaml", "    HLEN: 4\n", "    HLEN: 3\n"),
              "machine.yaml: presets.tiny.HLEN: must divide VLEN");
  CHECK_ERROR(BadSpec("machine.yaml", "    MLEN: 16\n    VLEN: 16\n    BLEN: 4\n    HLEN: 4\n",
                      "    MLEN: 512\n    VLEN: 512\n    BLEN: 4\n    HLEN: 512\n"),
              "machine.yaml: presets.tiny.HLEN: must be at most 256 (the per-head dot's tree)");
  CHECK_ERROR(BadSpec("isa.yaml", "{name: BMM_SCALE, value: 0x3E800000",
                      "{name: bmm_scale, value: 0x3E800000"),
              "isa.yaml: fp32_constants[0].name: must be an upper-case identifier");
  CHECK_ERROR(BadSpec("isa.yaml", "{name: BMM_SCALE, value: 0x3E800000",
                      "{name: BMM_SCALE, value: 0x13E800000"),
              "isa.yaml: fp32_constants[0].value: value 5343543296 outside [0, 4294967295]");
  CHECK_ERROR(BadSpec("machine.yaml", "    HLEN: 4\n", "    HLEN: 4\n    HLENX: 4\n"),
              "machine.yaml: presets.tiny.HLENX: not a parameter declared under 'parameters'");
  CHECK_ERROR(BadSpec("machine.yaml", "    MX_BLOCK: 8\n    VRAM_ROWS: 2048",
                      "    MX_BLOCK: 16\n    VRAM_ROWS: 2048"),
              "machine.yaml: presets.tiny.MX_BLOCK: must be 8 or 32");
  CHECK_ERROR(BadSpec("machine.yaml", "    INSTRUCTION_BUDGET: 5000000\n",
                      "    INSTRUCTION_BUDGET: 4294967296\n"),
              "machine.yaml: presets.tiny.INSTRUCTION_BUDGET: value 4294967296 outside [1, "
              "4294967295]");
  CHECK_ERROR(BadSpec("machine.yaml", "    MRAM_TILES: 8\n", "    MRAM_TILES: 9\n"),
              "machine.yaml: presets.tiny.MRAM_TILES: must not exceed MRAM_TILES_MAX (8)");
  CHECK_ERROR(BadSpec("machine.yaml", "    MRAM_TILES: 8\n", "    MRAM_TILES: 256\n"),
              "machine.yaml: presets.tiny.MRAM_TILES: value 256 outside [1, 255]");
  // DMA_QUEUE (runtime `min: 0`) may be 0, the serial machine, but not more than its 2-bit port
  // holds; a `min` other than 0 or 1 is refused, and without `min` 0 is refused as before.
  CHECK_ERROR(BadSpec("machine.yaml", "    IMEM_WORDS: 65536\n    DMA_QUEUE: 2\n",
                      "    IMEM_WORDS: 65536\n    DMA_QUEUE: 4\n"),
              "machine.yaml: presets.default.DMA_QUEUE: value 4 outside [0, 3]");
  CHECK_ERROR(BadSpec("machine.yaml", "  DMA_QUEUE: {bits: 2, min: 0}", "  DMA_QUEUE: {bits: 2}"),
              "machine.yaml: presets.bench.DMA_QUEUE: value 0 outside [1, 3]");
  CHECK_ERROR(
      BadSpec("machine.yaml", "  DMA_QUEUE: {bits: 2, min: 0}", "  DMA_QUEUE: {bits: 2, min: 2}"),
      "machine.yaml: runtime.DMA_QUEUE.min: value 2 outside [0, 1]");
  // HBM_JITTER_MAX and HBM_JITTER_SEED: what their 8-bit and 32-bit ports hold.
  CHECK_ERROR(BadSpec("machine.yaml", "    HBM_JITTER_MAX: 31\n", "    HBM_JITTER_MAX: 256\n"),
              "machine.yaml: presets.default.HBM_JITTER_MAX: value 256 outside [0, 255]");
  CHECK_ERROR(
      BadSpec("machine.yaml", "    HBM_JITTER_SEED: 0\n", "    HBM_JITTER_SEED: 4294967296\n"),
      "machine.yaml: presets.default.HBM_JITTER_SEED: value 4294967296 outside [0, "
      "4294967295]");
  // isa.yaml hbm_jitter: every constant of the function, shifts below 32.
  CHECK_ERROR(BadSpec("isa.yaml", "  - {name: MUL2,", "  - {name: MUL3,"),
              "hbm_jitter: missing constant 'MUL2'");
  CHECK_ERROR(BadSpec("isa.yaml", "  - {name: SHIFT2, value: 13,", "  - {name: SHIFT2, value: 32,"),
              "hbm_jitter: SHIFT2 32 is not a shift (0 to 31)");
  CHECK_ERROR(BadSpec("machine.yaml", "  INSTRUCTION_BUDGET: {bits: 32}", "  BUDGET: {bits: 32}"),
              "machine.yaml: runtime.BUDGET: not a parameter declared under 'parameters'");
  CHECK_ERROR(BadSpec("machine.yaml", "  INSTRUCTION_BUDGET: {bits: 32}",
                      "  INSTRUCTION_BUDGET: {bits: 32, port: x}"),
              "machine.yaml: runtime.INSTRUCTION_BUDGET.port: unknown key");
  CHECK_ERROR(BadSpec("isa.yaml", "  rows: \"rows", "  MLEN: \"rows"),
              "isa.yaml: latency_vars.MLEN: latency variable shadows machine parameter 'MLEN'");
  // Access formulas (`accesses`, the effective addresses of divergence reports) name only the
  // instruction's gp / addr / imm operands, control registers, machine parameters and
  // address_vars, in a known memory space.
  CHECK_ERROR(BadSpec("isa.yaml", "address: \"rd + imm\", what: \"first row, column\"",
                      "address: \"rd + bogus\", what: \"first row, column\""),
              entry("M_MM_WO") +
                  ".accesses[0].address: unknown name 'bogus' (not a gp, addr or imm operand of "
                  "M_MM_WO, a control register, a machine parameter or an address_var)");
  CHECK_ERROR(BadSpec("isa.yaml", "address: \"rs1 + imm\", what: \"word\"}",
                      "address: \"fs + imm\", what: \"word\"}"),
              entry("S_LD_FP") + ".accesses[0].address: unknown name 'fs'");
  CHECK_ERROR(BadSpec("isa.yaml", "{space: mram, access: read, address: \"rs1\"",
                      "{space: dram, access: read, address: \"rs1\""),
              entry("M_MM") + ".accesses[0].space: unknown memory space 'dram'");
  CHECK_ERROR(
      BadSpec("isa.yaml", "{space: mram, access: read, address: \"rs1\"",
              "{space: mram, access: load, address: \"rs1\""),
      entry("M_MM") + ".accesses[0].access: expected read, write or read_write, got 'load'");
  CHECK_ERROR(BadSpec("isa.yaml", "{space: mram, access: read, address: \"rs1\"",
                      "{space: mram, access: read, address: \"rs1 +\""),
              entry("M_MM") + ".accesses[0].address:");
  CHECK_ERROR(BadSpec("isa.yaml", "    latency: \"BLEN\"\n    accesses:",
                      "    latency: \"BLEN\"\n    acceses:"),
              entry("M_MM_WO") + ".acceses: unknown key");
  // Messages carry the YAML line too.
  CHECK_ERROR(BadSpec("isa.yaml", "opcode: 0x06", "opcode: x6"), "(line ");
}

BOOST_AUTO_TEST_CASE(accesses_name_memory_spaces_of_the_engines) {
  // The loader checks `space` against a list of its own (the generator compiles it without
  // trace.hpp); it must be exactly isa::Space's names.
  std::set<std::string> names;
  for (moesim::isa::Space sp : moesim::isa::kAllSpaces) names.insert(moesim::isa::space_name(sp));
  std::set<std::string> used;
  size_t with = 0;
  for (const InstrSpec& i : Spec::builtin().instructions()) {
    with += i.accesses.empty() ? 0 : 1;
    for (const AccessSpec& a : i.accesses) {
      BOOST_TEST(names.count(a.space) == 1u, i.mnemonic << " " << a.space);
      used.insert(a.space);
    }
  }
  BOOST_TEST(used == names);  // every space is some instruction's
  BOOST_TEST(with >= 25u);    // every memory instruction states its accesses
  const InstrSpec* h = Spec::builtin().by_mnemonic("H_PREFETCH_V");
  BOOST_REQUIRE(h->accesses.size() == 3u);
  BOOST_TEST(h->accesses[1].address.text() == "an + SCALE + rs1 / MX_BLOCK");
}

BOOST_AUTO_TEST_CASE(topk_policies_and_allowed_values) {
  const Spec& s = Spec::builtin();
  BOOST_REQUIRE(s.topk_policies().size() == 3u);
  const TopkPolicySpec* p0 = s.topk_policy(0);
  BOOST_REQUIRE(p0 != nullptr);
  BOOST_TEST(p0->hardwired());
  BOOST_TEST(p0->experts == 32u);
  BOOST_TEST(p0->k == 4u);
  BOOST_TEST(s.topk_hardwired(128, 8)->rmask == 1u);
  BOOST_TEST(s.topk_hardwired(128, 4) == nullptr);
  BOOST_TEST(s.topk_register_policy()->rmask == 15u);
  BOOST_TEST(s.topk_register_policy()->reg == "TOPK_POLICY");
  BOOST_TEST(s.topk_policy(2) == nullptr);
  // V_TOPK's rmask takes its allowed values from topk_policies; the H_* operands from `allowed`.
  const OperandSpec& rmask = s.by_mnemonic("V_TOPK")->operands.at(3);
  BOOST_TEST(rmask.allowed == (std::vector<uint32_t>{0, 1, 15}), boost::test_tools::per_element());
  BOOST_TEST(!rmask.permits(2));
  for (const char* m : {"H_PREFETCH_M", "H_PREFETCH_V", "H_STORE_V"}) {
    const InstrSpec& h = *s.by_mnemonic(m);
    BOOST_TEST(h.operands.at(3).name == "rstride");
    BOOST_TEST(h.operands.at(3).allowed == (std::vector<uint32_t>{0, 1}),
               boost::test_tools::per_element());
    BOOST_TEST(h.operands.at(4).name == "prec");
    BOOST_TEST(h.operands.at(4).allowed == (std::vector<uint32_t>{0}),
               boost::test_tools::per_element());
    BOOST_TEST(!h.operands.at(4).permits(1));
  }
  BOOST_TEST(s.by_mnemonic("V_ADD_VV")->operands.at(3).permits(9));  // no list: any value
}

BOOST_AUTO_TEST_CASE(loader_errors_topk_policies_and_allowed_values) {
  const std::string p1 = "{rmask: 1, experts: 128, k: 8}";
  const std::string reg = "{rmask: 15, register: TOPK_POLICY}";
  CHECK_ERROR(BadSpec("isa.yaml", p1, "{rmask: 0, experts: 128, k: 8}"),
              "isa.yaml: topk_policies[1].rmask: rmask 0 has two policies");
  CHECK_ERROR(BadSpec("isa.yaml", p1, "{rmask: 16, experts: 128, k: 8}"),
              "isa.yaml: topk_policies[1].rmask: value 16 outside [0, 15]");
  CHECK_ERROR(BadSpec("isa.yaml", p1, "{rmask: 1, experts: 4, k: 8}"),
              "isa.yaml: topk_policies[1].k: k > experts");
  CHECK_ERROR(BadSpec("isa.yaml", p1, "{rmask: 1, experts: 32, k: 4}"),
              "isa.yaml: topk_policies[1]: (experts, k) = (32, 4) already hardwired for rmask 0");
  CHECK_ERROR(BadSpec("isa.yaml", p1, "{rmask: 1, experts: 128}"),
              "isa.yaml: topk_policies[1].k: missing required key");
  CHECK_ERROR(BadSpec("isa.yaml", reg, "{rmask: 15, register: TOPK_PLCY}"),
              "isa.yaml: topk_policies[2].register: unknown policy register 'TOPK_PLCY'");
  CHECK_ERROR(BadSpec("isa.yaml", reg, "{rmask: 15, experts: 8, register: TOPK_POLICY}"),
              "isa.yaml: topk_policies[2]: a register policy takes (E, k) from the register");
  CHECK_ERROR(BadSpec("isa.yaml", "\n  - " + reg, ""),
              "isa.yaml: topk_policies: needs one register policy");
  CHECK_ERROR(BadSpec("isa.yaml", "{name: rmask, field: r3, kind: imm}]",
                      "{name: rmask, field: r3, kind: imm, allowed: [0]}]"),
              entry("V_TOPK") +
                  ".operands[3].allowed: V_TOPK rmask takes its allowed values "
                  "from topk_policies");
  CHECK_ERROR(BadSpec("isa.yaml", "allowed: [0]}", "allowed: [16]}"),
              entry("H_PREFETCH_M") + ".operands[4].allowed[0]: value 16 outside [0, 15]");
  CHECK_ERROR(BadSpec("isa.yaml", "allowed: [0, 1]}", "allowed: [1, 1]}"),
              entry("H_PREFETCH_M") + ".operands[3].allowed[1]: value 1 listed twice");
  CHECK_ERROR(BadSpec("isa.yaml", "allowed: [0]}", "allowed: []}"),
              entry("H_PREFETCH_M") + ".operands[4].allowed: empty list");
  CHECK_ERROR(BadSpec("isa.yaml", "{name: an, field: rs2, kind: addr}",
                      "{name: an, field: rs2, kind: addr, allowed: [0]}"),
              entry("H_PREFETCH_M") + ".operands[2].allowed: only imm operands take");
}

BOOST_AUTO_TEST_CASE(control_registers_and_their_helpers) {
  const Spec& s = Spec::builtin();
  BOOST_TEST(s.control_registers().size() == static_cast<size_t>(kNumCtrlRegs));
  const CtrlRegSpec& stride = s.control_register("STRIDE");
  BOOST_TEST(stride.index == static_cast<uint8_t>(CtrlReg::Stride));
  BOOST_TEST(stride.reset == kCtrlStrideReset);
  BOOST_TEST(stride.reset == 1u);
  BOOST_TEST(stride.written_by == "C_SET_STRIDE_REG");
  BOOST_CHECK_THROW(s.control_register("NOPE"), SpecError);
  const CtrlRegSpec& tp = s.control_register("TOPK_POLICY");
  BOOST_TEST(tp.index == static_cast<uint8_t>(CtrlReg::TopkPolicy));
  BOOST_TEST(tp.field("E")->lo == kCtrlTopkPolicyELo);
  BOOST_TEST(tp.field("E")->hi == kCtrlTopkPolicyEHi);
  BOOST_TEST(tp.field("k")->lo == kCtrlTopkPolicyKLo);
  BOOST_TEST(tp.field("k")->hi == kCtrlTopkPolicyKHi);
  BOOST_TEST(tp.field("x") == nullptr);
  // (E << 8) | k and back; every preset's MAX_TOPK_EXPERTS fits the 24-bit E field.
  for (const auto& [name, preset] : s.presets()) {
    const auto max_e = static_cast<uint32_t>(preset.get("MAX_TOPK_EXPERTS"));
    BOOST_TEST(topk_policy_e(pack_topk_policy(max_e, 8)) == max_e, name);
    BOOST_TEST(topk_policy_k(pack_topk_policy(max_e, 8)) == 8u, name);
  }
  BOOST_TEST(pack_topk_policy(256, 8) == 0x10008u);
  BOOST_TEST(pack_topk_policy(32, 4) == ((32u << 8) | 4u));
  BOOST_TEST(topk_policy_e(0x10008u) == 256u);
  BOOST_TEST(topk_policy_k(0x10008u) == 8u);
  BOOST_TEST(topk_policy_e(0xFFFFFFFFu) == 0xFFFFFFu);  // E is bits [31:8]
  BOOST_TEST(pack_topk_policy(1, 0x1FF) == 0x1FFu);     // k cut to its 8 bits
  BOOST_TEST(s.operand_kind(OperandKind::Gp).count == kNumGpRegs);
  BOOST_TEST(s.operand_kind(OperandKind::Fp).count == kNumFpRegs);
  BOOST_TEST(s.operand_kind(OperandKind::Addr).count == kNumAddrRegs);
}

BOOST_AUTO_TEST_CASE(loader_errors_control_registers) {
  const std::string stride = "{name: STRIDE, index: 1, reset: 1, written_by: C_SET_STRIDE_REG,";
  CHECK_ERROR(BadSpec("isa.yaml", stride,
                      "{name: STRIDE, index: 2, reset: 1, written_by: C_SET_STRIDE_REG,"),
              "isa.yaml: control_registers[1].index: index 2 of STRIDE: control registers are "
              "numbered 0, 1, ... in file order (expected 1)");
  CHECK_ERROR(BadSpec("isa.yaml", stride,
                      "{name: STRIDE, index: 1, reset: 0x100000000, written_by: C_SET_STRIDE_REG,"),
              "isa.yaml: control_registers[1].reset: value 4294967296 outside [0, 4294967295]");
  CHECK_ERROR(BadSpec("isa.yaml", stride, "{name: STRIDE, index: 1, written_by: C_SET_STRIDE_REG,"),
              "isa.yaml: control_registers[1].reset: missing required key");
  CHECK_ERROR(
      BadSpec("isa.yaml", stride, "{name: STRIDE, index: 1, reset: 1, written_by: C_SET_STRIDE,"),
      "isa.yaml: control_registers[1].written_by: unknown instruction 'C_SET_STRIDE'");
  CHECK_ERROR(BadSpec("isa.yaml", stride, "{name: STRIDE, index: 1, reset: 1, written_by: V_TOPK,"),
              "isa.yaml: control_registers[1].written_by: V_TOPK is not a control-unit "
              "instruction");
  CHECK_ERROR(BadSpec("isa.yaml", stride,
                      "{name: STRIDE, index: 1, reset: 1, written_by: C_SET_SCALE_REG,"),
              "isa.yaml: control_registers[1].written_by: C_SET_SCALE_REG already writes SCALE");
  CHECK_ERROR(BadSpec("isa.yaml", stride,
                      "{name: Stride, index: 1, reset: 1, written_by: C_SET_STRIDE_REG,"),
              "isa.yaml: control_registers[1].name: must be an upper-case identifier");
  CHECK_ERROR(BadSpec("isa.yaml", stride,
                      "{name: SCALE, index: 1, reset: 1, written_by: C_SET_STRIDE_REG,"),
              "isa.yaml: control_registers[1].name: duplicate control register 'SCALE'");
  CHECK_ERROR(
      BadSpec("isa.yaml", stride,
              "{name: STRIDE, index: 1, reset: 1, width: 32, written_by: C_SET_STRIDE_REG,"),
      "isa.yaml: control_registers[1].width: unknown key");
  CHECK_ERROR(BadSpec("isa.yaml", "{name: E, hi: 31, lo: 8,", "{name: E, hi: 31, lo: 7,"),
              "isa.yaml: control_registers[3].fields[1]: field 'k' overlaps another field of "
              "TOPK_POLICY");
  CHECK_ERROR(BadSpec("isa.yaml", "{name: E, hi: 31, lo: 8,", "{name: E, hi: 32, lo: 8,"),
              "isa.yaml: control_registers[3].fields[0].hi: value 32 outside [0, 31]");
  CHECK_ERROR(BadSpec("isa.yaml", "{name: E, hi: 31, lo: 8,", "{name: K, hi: 31, lo: 8,"),
              "isa.yaml: control_registers[3].fields[1].name: duplicate field 'k'");
  CHECK_ERROR(
      BadSpec("isa.yaml", "{rmask: 15, register: TOPK_POLICY}", "{rmask: 15, register: STRIDE}"),
      "isa.yaml: topk_policies[2].register: policy register STRIDE needs fields E and k");
  CHECK_ERROR(BadSpec("isa.yaml", "\ncontrol_registers:", "\ncontrol_regs:"),
              "isa.yaml: control_regs: unknown key");
}

BOOST_AUTO_TEST_CASE(loader_errors_stall_causes) {
  // Stall codes are the values of the RTL's stall_e and of the records' stall field: the loader
  // holds them to 1, 2, ... in file order (0 is "none"), with identifier names used once.
  const std::string raw = "{name: raw, code: 2,";
  CHECK_ERROR(BadSpec("isa.yaml", raw, "{name: raw, code: 3,"),
              "isa.yaml: stall_causes[1].code: stall cause codes are 1, 2, ... in file order "
              "(expected 2)");
  CHECK_ERROR(BadSpec("isa.yaml", raw, "{name: raw, code: 0,"),
              "isa.yaml: stall_causes[1].code: value 0 outside [1, 7]");
  CHECK_ERROR(BadSpec("isa.yaml", raw, "{name: none, code: 2,"),
              "isa.yaml: stall_causes[1].name: 'none' is reserved for code 0");
  CHECK_ERROR(BadSpec("isa.yaml", raw, "{name: queue_full, code: 2,"),
              "isa.yaml: stall_causes[1].name: duplicate stall cause 'queue_full'");
  CHECK_ERROR(BadSpec("isa.yaml", raw, "{name: 2raw, code: 2,"),
              "isa.yaml: stall_causes[1].name: stall cause name must be an identifier");
  CHECK_ERROR(BadSpec("isa.yaml", raw, "{name: raw, code: 2, width: 1,"),
              "isa.yaml: stall_causes[1].width: unknown key");
  CHECK_ERROR(BadSpec("isa.yaml", "{name: raw, code: 2,", "{code: 2,"),
              "isa.yaml: stall_causes[1].name: missing required key");
  CHECK_ERROR(BadSpec("isa.yaml", "\nstall_causes:", "\nstall_cause:"),
              "isa.yaml: stall_cause: unknown key");
}

BOOST_AUTO_TEST_CASE(instruction_budget_range_is_the_runtime_port) {
  const Spec& s = Spec::builtin();
  const auto max = static_cast<uint64_t>(s.runtime_max("INSTRUCTION_BUDGET"));
  BOOST_TEST(s.checked_instruction_budget(1) == 1u);
  BOOST_TEST(s.checked_instruction_budget(max) == max);
  BOOST_CHECK_THROW(s.checked_instruction_budget(0), std::invalid_argument);
  try {
    s.checked_instruction_budget(max + 1);
    BOOST_ERROR("budget past the port accepted");
  } catch (const std::invalid_argument& e) {
    BOOST_TEST(contains(e.what(), "instruction budget 4294967296 outside [1, 4294967295]"));
  }
}

BOOST_AUTO_TEST_CASE(loader_errors_plena_syntax) {
  const std::string alias = "plena: {aliases: [V_SHIFT_V]}";
  CHECK_ERROR(BadSpec("isa.yaml", alias, "plena: {aliases: [V_ADD_VV]}"),
              entry("V_SHFT_V") + ".plena.aliases[0]: alias 'V_ADD_VV' already names");
  CHECK_ERROR(BadSpec("isa.yaml", alias, "plena: {aliases: [V_SHIFT_V, V_SHIFT_V]}"),
              entry("V_SHFT_V") + ".plena.aliases[0]: alias 'V_SHIFT_V' already names");
  CHECK_ERROR(BadSpec("isa.yaml", alias, "plena: {alias: [V_SHIFT_V]}"),
              entry("V_SHFT_V") + ".plena.alias: unknown key");
  CHECK_ERROR(BadSpec("isa.yaml", "{operand: rmask, why: \"its assembler drops rmask\"",
                      "{operand: rs1, why: \"its assembler drops rmask\""),
              entry("V_RED_SUM") +
                  ".plena.unencoded[0].operand: an unencoded operand must be an optional imm");
  CHECK_ERROR(
      BadSpec("isa.yaml", "{operand: prec, value: 1, as: 0,", "{operand: prec, value: 0, as: 0,"),
      entry("H_PREFETCH_M") + ".plena.read_as[0].value: value 0 is already legal");
  CHECK_ERROR(
      BadSpec("isa.yaml", "{operand: prec, value: 1, as: 0,", "{operand: prec, value: 1, as: 2,"),
      entry("H_PREFETCH_M") + ".plena.read_as[0].as: value 2 is reserved");
  CHECK_ERROR(
      BadSpec("isa.yaml", "{operand: prec, value: 1, as: 0,", "{operand: pre, value: 1, as: 0,"),
      entry("H_PREFETCH_M") + ".plena.read_as[0].operand: no operand 'pre'");
}
