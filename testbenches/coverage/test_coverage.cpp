// The RTL coverage library (moesim/coverage/coverage.hpp): reading and merging Verilator coverage
// files, point names, waivers (stale ones included), thresholds and bad input naming file:line.
#define BOOST_TEST_MODULE coverage
#include <boost/test/unit_test.hpp>
#include <filesystem>
#include <fstream>

#include "moesim/coverage/coverage.hpp"

namespace cov = moesim::coverage;
namespace fs = std::filesystem;

namespace {

/// One `C '<key>' <count>` line as Verilator writes it (\001 before a key, \002 before a value).
std::string point(const std::string& page, const std::string& file, int line,
                  const std::string& comment, const std::string& hier, uint64_t count) {
  return "C '\001f\002" + file + "\001l\002" + std::to_string(line) + "\001n\0025\001page\002" +
         page + "\001o\002" + comment + "\001h\002" + hier + "' " + std::to_string(count) + "\n";
}

const std::string kHeader = "# SystemC::Coverage-3\n";

/// Two runs: run 1 hits the line, the if arm, pc_q[0] and the first cover property; run 2 the
/// else arm and the first property again.
std::string run1() {
  return kHeader +
         point("v_line/moe_fetch_ctrl", "/src/rtl_model/rtl/moe_fetch_ctrl.sv", 10, "block",
               "TOP.moe_top.u_fetch", 3) +
         point("v_branch/moe_fetch_ctrl", "/src/rtl_model/rtl/moe_fetch_ctrl.sv", 12, "if",
               "TOP.moe_top.u_fetch", 1) +
         point("v_branch/moe_fetch_ctrl", "/src/rtl_model/rtl/moe_fetch_ctrl.sv", 12, "else",
               "TOP.moe_top.u_fetch", 0) +
         point("v_toggle/moe_fetch_ctrl", "/src/rtl_model/rtl/moe_fetch_ctrl.sv", 20, "pc_q[0]",
               "TOP.moe_top.u_fetch", 7) +
         point("v_toggle/moe_fetch_ctrl", "/src/rtl_model/rtl/moe_fetch_ctrl.sv", 20, "pc_q[1]",
               "TOP.moe_top.u_fetch", 0) +
         point("v_user/moe_top_cov", "/src/rtl_model/sva/cover/moe_top_cov.sv", 30, "StallRaw_C",
               "TOP.moe_top.u_cov.g_occ__BRA__1__KET__.StallRaw_C", 2) +
         point("v_user/moe_top_cov", "/src/rtl_model/sva/cover/moe_top_cov.sv", 30, "StallRaw_C",
               "TOP.moe_top.u_cov.g_occ__BRA__2__KET__.StallRaw_C", 0);
}

std::string run2() {
  return kHeader +
         point("v_branch/moe_fetch_ctrl", "/src/rtl_model/rtl/moe_fetch_ctrl.sv", 12, "else",
               "TOP.moe_top.u_fetch", 4) +
         point("v_user/moe_top_cov", "/src/rtl_model/sva/cover/moe_top_cov.sv", 30, "StallRaw_C",
               "TOP.moe_top.u_cov.g_occ__BRA__1__KET__.StallRaw_C", 1);
}

fs::path scratch(const std::string& name) {
  const fs::path d = fs::temp_directory_path() / ("moesim_test_coverage_" + name);
  fs::remove_all(d);
  fs::create_directories(d);
  return d;
}

void write(const fs::path& p, const std::string& text) {
  std::ofstream(p, std::ios::binary) << text;
}

std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const cov::InputError& e) {
    return e.what();
  }
  return "(no error)";
}

}  // namespace

BOOST_AUTO_TEST_CASE(merges_runs_and_names_points) {
  cov::Data d;
  d.read_text(run1(), "a.dat");
  d.read_text(run2(), "b.dat");
  BOOST_TEST(d.files() == 2u);
  BOOST_TEST(d.points().size() == 7u);
  std::map<std::string, uint64_t> by_name;
  for (const auto& [key, p] : d.points()) by_name[p.name()] = p.count;
  BOOST_TEST(by_name.at("moe_top.u_cov.g_occ[1].StallRaw_C") == 3u);  // summed
  BOOST_TEST(by_name.at("moe_top.u_cov.g_occ[2].StallRaw_C") == 0u);
  BOOST_TEST(by_name.at("rtl_model/rtl/moe_fetch_ctrl.sv:12 else @moe_top.u_fetch") == 4u);
  BOOST_TEST(by_name.at("moe_top.u_fetch.pc_q[1]") == 0u);
  // The merged file reads back to the same points and counts.
  cov::Data again;
  again.read_text(d.to_text(), "merged.dat");
  BOOST_TEST(again.points().size() == d.points().size());
  for (const auto& [key, p] : d.points()) BOOST_TEST(again.points().at(key).count == p.count);
}

BOOST_AUTO_TEST_CASE(summary_thresholds_and_uncovered_list) {
  cov::Data d;
  d.read_text(run1(), "a.dat");
  d.read_text(run2(), "b.dat");
  cov::Thresholds t;
  const cov::Report r = cov::evaluate(d, {}, t);
  using K = cov::Kind;
  BOOST_TEST(r.kinds[size_t(K::Line)].points == 1u);
  BOOST_TEST(r.kinds[size_t(K::Branch)].hit == 2u);
  BOOST_TEST(r.kinds[size_t(K::Toggle)].hit == 1u);
  BOOST_TEST(r.kinds[size_t(K::Cover)].percent() == 50.0);
  BOOST_TEST(!r.pass());  // toggle 50 % < 98 %, cover 50 % < 100 %
  BOOST_TEST(r.uncovered.size() == 2u);
  BOOST_TEST(r.uncovered[0]->name() == "moe_top.u_fetch.pc_q[1]");
  BOOST_TEST(r.uncovered[1]->name() == "moe_top.u_cov.g_occ[2].StallRaw_C");
  t.min = {0, 0, 50, 50};
  BOOST_TEST(cov::evaluate(d, {}, t).pass());
  t.min = {0, 0, 50.01, 50};
  BOOST_TEST(!cov::evaluate(d, {}, t).pass());
  const std::string text = cov::to_text(r);
  BOOST_TEST(text.find("COVERAGE: FAIL") != std::string::npos);
  BOOST_TEST(text.find("  cover  moe_top.u_cov.g_occ[2].StallRaw_C") != std::string::npos);
  BOOST_TEST(cov::to_json(r).find("\"pass\": false") != std::string::npos);
  BOOST_TEST(cov::to_html(r).find("g_occ[2].StallRaw_C") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(waivers_and_stale_waivers) {
  const fs::path dir = scratch("waivers");
  write(dir / "w.yaml",
        "- {point: \"moe_top.u_fetch.pc_q[*]\", reason: \"upper pc bits\"}\n"
        "- {point: \"moe_top.u_cov.g_occ[2].StallRaw_C\", reason: \"DMA_QUEUE 2 runs only\"}\n");
  cov::Data d;
  d.read_text(run1(), "a.dat");
  d.read_text(run2(), "b.dat");
  const auto w = cov::load_waivers((dir / "w.yaml").string());
  BOOST_TEST(w.size() == 2u);
  cov::Thresholds t;
  cov::Report r = cov::evaluate(d, w, t);
  BOOST_TEST(r.uncovered.empty());
  BOOST_TEST(r.waived.size() == 2u);
  BOOST_TEST(r.stale.empty());
  BOOST_TEST(r.kinds[size_t(cov::Kind::Toggle)].percent() == 100.0);  // 1 of 1 counted
  BOOST_TEST(r.pass());
  // A waiver for a point that is covered (or does not exist) is stale: the report fails.
  write(dir / "stale.yaml",
        "- {point: \"moe_top.u_cov.g_occ[1].StallRaw_C\", reason: \"covered now\"}\n"
        "- {point: \"moe_top.u_cov.NoSuch_C\", reason: \"gone\"}\n");
  r = cov::evaluate(d, cov::load_waivers((dir / "stale.yaml").string()), t);
  BOOST_TEST(r.stale.size() == 2u);
  BOOST_TEST(r.stale[0].source == (dir / "stale.yaml").string() + ":1");
  BOOST_TEST(!r.pass());
  BOOST_TEST(cov::to_text(r).find("stale waiver") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(bad_coverage_files_name_file_and_line) {
  cov::Data d;
  BOOST_TEST(error_of([&] { d.read_text("hello\n", "x.dat"); }).rfind("x.dat:1: not a", 0) == 0);
  BOOST_TEST(error_of([&] { d.read_text("", "e.dat"); }).rfind("e.dat:1: empty", 0) == 0);
  BOOST_TEST(error_of([&] {
               d.read_text(kHeader + "C 'abc 3\n", "y.dat");
             }).rfind("y.dat:2: expected C", 0) == 0);
  BOOST_TEST(error_of([&] {
               d.read_text(kHeader + point("v_line/m", "f.sv", 1, "block", "TOP.m", 1) +
                               "C '\001f\002f.sv\001l\0021' 1x\n",
                           "z.dat");
             }).rfind("z.dat:3: count '1x'", 0) == 0);
  BOOST_TEST(error_of([&] {
               d.read_text(kHeader + point("v_expr/m", "f.sv", 1, "x", "TOP.m", 1), "k.dat");
             }).rfind("k.dat:2: unknown coverage kind 'v_expr'", 0) == 0);
  BOOST_TEST(error_of([&] { d.read_path("/nonexistent/cov"); }).find("no such file") !=
             std::string::npos);
  const fs::path empty = scratch("empty");
  BOOST_TEST(error_of([&] { d.read_path(empty.string()); }).find("holds no .dat") !=
             std::string::npos);
}

BOOST_AUTO_TEST_CASE(bad_waivers_name_file_and_line) {
  const fs::path dir = scratch("badwaivers");
  const auto err = [&](const std::string& text) {
    write(dir / "w.yaml", text);
    return error_of([&] { cov::load_waivers((dir / "w.yaml").string()); });
  };
  const std::string w = (dir / "w.yaml").string();
  BOOST_TEST(err("- {point: a, reason: b}\n- {point: c}\n") ==
             w + ":2: a waiver needs a non-empty 'reason'");
  BOOST_TEST(err("- {point: a, reason: b}\n- {point: a, reason: c}\n") ==
             w + ":2: point 'a' is waived twice");
  BOOST_TEST(err("- {point: a, reason: b, why: c}\n").rfind(w + ":1: unknown key 'why'", 0) == 0);
  BOOST_TEST(err("point: a\n").rfind(w + ":1: expected a list", 0) == 0);
  BOOST_TEST(err("- [unclosed\n").rfind(w + ":", 0) == 0);
  BOOST_TEST(err("[]\n") == "(no error)");
}

BOOST_AUTO_TEST_CASE(glob_patterns) {
  BOOST_TEST(cov::glob_match("a*c", "abbbc"));
  BOOST_TEST(cov::glob_match("*", ""));
  BOOST_TEST(cov::glob_match("moe_top.u_lanes_*.g_lane[*].u_lane.lane_i[15]",
                             "moe_top.u_lanes_hbm_rd.g_lane[3].u_lane.lane_i[15]"));
  BOOST_TEST(!cov::glob_match("a*c", "abcd"));
  BOOST_TEST(!cov::glob_match("abc", "ab"));
}
