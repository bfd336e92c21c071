// Programs written in the style PLENA's compiler emits (testbenches/cosim/plena/: its operand
// forms, no stage markers, SRAM tables from an image) run under --syntax plena and co-simulate
// EQUAL without a trap; moesim's syntax refuses them; the dropped-mask form warns, and the mask
// it drops changes the result (docs/images.md, PLENA's compiler output).
#include <algorithm>
#include <boost/test/unit_test.hpp>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "moesim_test/cli.hpp"

namespace fs = std::filesystem;
using moesim::test::moesim_cli;
using moesim::test::slurp;
using moesim::test::workdir;

namespace {

const std::vector<std::string> kPrograms = {"router_topk", "gather_silu", "rmsnorm_softmax"};

/// A work directory holding the programs and their images.
fs::path with_programs(const std::string& name) {
  const fs::path dir = workdir(name);
  for (const auto& e :
       fs::directory_iterator(fs::path(MOESIM_SOURCE_DIR) / "testbenches" / "cosim" / "plena"))
    fs::copy_file(e.path(), dir / e.path().filename());
  return dir;
}

/// The memories of program `p`: seeded random contents, then its tables when it has an image.
std::string image_flags(const fs::path& dir, const std::string& p) {
  return "--random-image 1" + (fs::exists(dir / (p + ".yaml")) ? " --image " + p + ".yaml" : "");
}

bool has(const std::string& s, const std::string& part) {
  return s.find(part) != std::string::npos;
}

}  // namespace

BOOST_AUTO_TEST_CASE(plena_style_programs_cosimulate_equal) {
  const fs::path dir = with_programs("plena_equal");
  for (const std::string& p : kPrograms) {
    const auto r =
        moesim_cli("cosim --program " + p + ".asm --syntax plena " + image_flags(dir, p), dir);
    BOOST_TEST(r.code == 0, p);
    BOOST_TEST(has(r.out, "VERDICT: EQUAL"), p);
    BOOST_TEST(!has(r.out, "trapped"), p);
    // No `; @stage=` marker: the stage table has the one row `other`.
    const size_t head = r.out.find("\nstage "), total = r.out.find("\ntotal ", head);
    BOOST_REQUIRE(total != std::string::npos);
    const std::string rows = r.out.substr(head + 1, total - head);
    BOOST_TEST(std::count(rows.begin(), rows.end(), '\n') == 2, p);
    BOOST_TEST(has(rows, "\nother "), p);
  }
}

BOOST_AUTO_TEST_CASE(plena_style_programs_need_the_plena_syntax) {
  const fs::path dir = with_programs("plena_refused");
  for (const std::string& p : kPrograms) {
    const auto r = moesim_cli("asm " + p + ".asm -o " + p + ".hex", dir);
    BOOST_TEST(r.code == 2, p);
    BOOST_TEST(has(r.err, "moesim: error: " + p + ".asm:"), p);
    BOOST_TEST(has(r.err, "--syntax plena"), p);
    BOOST_TEST(!fs::exists(dir / (p + ".hex")), p);
  }
  // The first PLENA form of the norm is the masked V_RED_SUM, which PLENA means differently.
  const auto r = moesim_cli("asm rmsnorm_softmax.asm", dir);
  BOOST_TEST(has(r.err,
                 "rmsnorm_softmax.asm:13:20: V_RED_SUM with rmask 1 and a trailing 0 is "
                 "PLENA's text, and PLENA means something else by it"));
}

BOOST_AUTO_TEST_CASE(plena_dropped_mask_warns_and_changes_the_result) {
  const fs::path dir = with_programs("plena_mask");
  const std::string img = " " + image_flags(dir, "rmsnorm_softmax");
  const auto r = moesim_cli("asm rmsnorm_softmax.asm --syntax plena -o plena.hex", dir);
  BOOST_TEST(r.code == 0);
  // One warning per masked V_RED_SUM (lines 13 and 24), none for the forms that mean the same.
  const std::string w = "moesim: warning: rmsnorm_softmax.asm:";
  const std::string what = ": V_RED_SUM rmask 1: PLENA's binary sums the whole row";
  BOOST_TEST(r.err.rfind(w + "13:20" + what +
                             " (its assembler drops rmask); the PLENA syntax follows it and "
                             "encodes rmask 0\n" +
                             w + "24:20" + what +
                             " (its assembler drops rmask); the PLENA syntax follows it and "
                             "encodes rmask 0\n" +
                             w.substr(0, w.size() - 1) + ": no instruction has a stage",
                         0) == 0,
             r.err);
  // The other programs mean the same in both syntaxes: their one warning is about stages.
  for (const std::string& p : {std::string("router_topk"), std::string("gather_silu")})
    BOOST_TEST(moesim_cli("asm " + p + ".asm --syntax plena", dir).err ==
                   "moesim: warning: " + p +
                       ".asm: no instruction has a stage (no `; @stage=` marker; give "
                       "--stage-map to set stages from comments): the stage profile bills every "
                       "cycle to `other` (docs/images.md, Stage maps)\n",
               p);

  // moesim's meaning of the same line: the disassembly (moesim syntax) with rmask 1 restored on
  // the two norm sums. The result differs from PLENA's, so the warning is about the output.
  const auto dis = moesim_cli("disasm plena.hex", dir);
  BOOST_REQUIRE(dis.code == 0);
  std::string text = dis.out;
  const std::string dropped = "V_RED_SUM f1, gp5, 0", kept = "V_RED_SUM f1, gp5, 1";
  int restored = 0;
  for (size_t at = text.find(dropped); at != std::string::npos; at = text.find(dropped, at)) {
    text.replace(at, dropped.size(), kept);
    ++restored;
  }
  BOOST_TEST(restored == 2);
  std::ofstream(dir / "masked.asm") << text;
  BOOST_REQUIRE(moesim_cli("asm masked.asm -o masked.hex", dir).code == 0);
  BOOST_REQUIRE(
      moesim_cli("run --engine golden --program plena.hex" + img + " --dump out_plena", dir).code ==
      0);
  BOOST_REQUIRE(
      moesim_cli("run --engine golden --program masked.hex" + img + " --dump out_masked", dir)
          .code == 0);
  BOOST_TEST(slurp(dir / "out_plena" / "vram.bin") != slurp(dir / "out_masked" / "vram.bin"));
}

// A program that repeats a warned form on every line gets the first 20 warnings and a count of
// the rest, not one line per instruction.
BOOST_AUTO_TEST_CASE(plena_warnings_are_capped) {
  const fs::path dir = workdir("plena_warning_cap");
  std::ofstream asm_file(dir / "many.asm");
  asm_file << "; @stage=router_topk\n";
  for (int i = 0; i < 25; ++i) asm_file << "V_RED_SUM f1, gp5, 1\n";
  asm_file.close();
  const auto r = moesim_cli("asm many.asm --syntax plena -o many.hex", dir);
  BOOST_TEST(r.code == 0);
  const std::string w = "moesim: warning: many.asm:";
  BOOST_TEST(std::count(r.err.begin(), r.err.end(), '\n') == 21, r.err);
  BOOST_TEST(has(r.err, w + "21:20: V_RED_SUM rmask 1: PLENA's binary sums the whole row"), r.err);
  BOOST_TEST(!has(r.err, w + "22:"), r.err);
  BOOST_TEST(has(r.err,
                 "moesim: warning: many.asm: 5 more warnings like these not shown (25 in "
                 "all)\n"),
             r.err);
  // Without a stage marker the stage warning still shows, after the count.
  std::string text = slurp(dir / "many.asm");
  text.erase(0, text.find('\n') + 1);
  std::ofstream(dir / "unstaged.asm") << text;
  const auto u = moesim_cli("asm unstaged.asm --syntax plena -o unstaged.hex", dir);
  BOOST_TEST(u.code == 0);
  BOOST_TEST(std::count(u.err.begin(), u.err.end(), '\n') == 22, u.err);
  BOOST_TEST(has(u.err, "(25 in all)\nmoesim: warning: unstaged.asm: no instruction has a stage"),
             u.err);
}

// --stage-map: the comments of an unmarked program give its stage profile, the same on both
// engines; a map that matches no comment and a bad map are reported.
BOOST_AUTO_TEST_CASE(plena_stage_map_attributes_unmarked_programs) {
  const fs::path dir = with_programs("plena_stages");
  auto r = moesim_cli("cosim --program gather_silu.asm --syntax plena --stage-map stage_map.yaml " +
                          image_flags(dir, "gather_silu") + " --report r.json",
                      dir);
  BOOST_TEST(r.code == 0);
  BOOST_TEST(r.err.empty(), r.err);
  // The map is an input of the run: its digest is in the report's provenance.
  const nlohmann::json report = nlohmann::json::parse(slurp(dir / "r.json"));
  BOOST_TEST(report["provenance"]["sha256"].contains("stage map stage_map.yaml"));
  BOOST_TEST(has(r.out, "VERDICT: EQUAL"));
  // Instructions per stage (the first two columns of the stage table).
  for (const char* row :
       {"\nother                               195 ", "\ngather                               25 ",
        "\nexpert_weight_address                11 ", "\nexpert_weight_prefetch                6 ",
        "\nexpert_activation                    28 ", "\nexpert_route_weight                  12 "})
    BOOST_TEST(has(r.out, row), row);

  std::ofstream(dir / "none.yaml") << "rules:\n  - {stage: gather, any: [no such comment]}\n";
  r = moesim_cli("asm router_topk.asm --syntax plena --stage-map none.yaml", dir);
  BOOST_TEST(r.code == 0);
  BOOST_TEST(has(r.err,
                 "router_topk.asm: no instruction has a stage (no `; @stage=` marker, and "
                 "no rule of --stage-map none.yaml matched a comment)"));

  std::ofstream(dir / "bad.yaml") << "rules:\n  - {stage: gather}\n  - {stage: other, any: [x]}\n";
  r = moesim_cli("asm router_topk.asm --stage-map bad.yaml", dir);
  BOOST_TEST(r.code == 2);
  BOOST_TEST(r.err ==
             "moesim: error: --stage-map bad.yaml:2: rules[0]: give 'any' or 'all' (the "
             "substrings it matches)\n");
  r = moesim_cli("asm router_topk.asm --stage-map stage_map.yaml -o stage_map.yaml", dir);
  BOOST_TEST(r.code == 2);
  BOOST_TEST(has(r.err, "stage_map.yaml"));
  BOOST_TEST(has(slurp(dir / "stage_map.yaml"), "rules:"));  // refused before writing
  // An assembled program's stages are its .stages file.
  BOOST_REQUIRE(moesim_cli("asm router_topk.asm --syntax plena", dir).code == 0);
  r = moesim_cli("cosim --program router_topk.hex --stage-map stage_map.yaml", dir);
  BOOST_TEST(r.code == 2);
  BOOST_TEST(has(r.err,
                 "router_topk.hex is an assembled program (.hex), whose stages are its "
                 ".stages file"));
}
