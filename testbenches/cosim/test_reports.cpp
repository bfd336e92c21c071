// Reports people look at: the JSON / YAML report, the console tables, the self-contained HTML
// report and the Perfetto / Chrome trace JSON, all fed by run_cosim / run_single on fake engines
// (and once on the golden model and the RTL). Checks that stage sums equal the totals everywhere,
// that the chart and the trace show exactly the stages and spans that happened, that the HTML is
// escaped and references nothing outside itself, and that planted memory differences are listed
// exactly.
#include <yaml-cpp/yaml.h>

#include <array>
#include <boost/test/unit_test.hpp>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>

#include "moesim/cosim/cosim.hpp"
#include "moesim/cosim/engines.hpp"
#include "moesim/isa/assembler.hpp"
#include "moesim/isa/encoding.hpp"
#include "moesim/isa/format.hpp"
#include "moesim/report/html_report.hpp"
#include "moesim/report/report.hpp"
#include "moesim/report/trace_json.hpp"
#include "moesim_test/scripted_engine.hpp"

using namespace moesim;
namespace fs = std::filesystem;

namespace {

const isa::Spec& spec() { return isa::Spec::builtin(); }

using test::ScriptedEngine;

struct Step {
  const char* mnemonic;
  uint8_t stage;
  uint64_t latency;
};

/// Stages 1, 1, 4, 4, 4, 7, 1, 1 (four runs of one stage; stage 1 twice), 25 cycles in all.
const std::vector<Step> kSteps = {{"S_ADDI_INT", 1, 2}, {"S_ADDI_INT", 1, 3}, {"V_ADD_VV", 4, 1},
                                  {"V_ADD_VV", 4, 4},   {"S_ADDI_INT", 4, 5}, {"V_ADD_VV", 7, 6},
                                  {"S_ADDI_INT", 1, 2}, {"V_ADD_VV", 1, 2}};
constexpr uint64_t kTotalCycles = 25;

uint32_t word_of(const std::string& mnemonic) {
  const isa::InstrSpec& ins = *spec().by_mnemonic(mnemonic);
  return mnemonic == "S_ADDI_INT" ? isa::encode(spec(), ins, {1, 0, 5})
                                  : isa::encode(spec(), ins, {3, 1, 2});
}

std::vector<isa::RetireRecord> script() {
  std::vector<isa::RetireRecord> s;
  uint64_t t = 0;
  for (size_t i = 0; i < kSteps.size(); ++i) {
    isa::RetireRecord r;
    r.index = i;
    r.pc = static_cast<uint32_t>(i);
    r.word = word_of(kSteps[i].mnemonic);
    r.stage = kSteps[i].stage;
    r.start_cycle = t;
    r.end_cycle = t += kSteps[i].latency;
    s.push_back(r);
  }
  return s;
}

cosim::CosimResult cosim_pair(ScriptedEngine& a, ScriptedEngine& b,
                              std::vector<cosim::TimelineSink*> sinks = {}) {
  cosim::CosimOptions o;
  o.history = 3;
  o.sinks = std::move(sinks);
  return cosim::run_cosim(spec(), a, b, o);
}

fs::path workdir(const std::string& name) {
  const fs::path d = fs::path(MOESIM_TEST_WORK_DIR) / name;
  fs::remove_all(d);
  fs::create_directories(d);
  return d;
}

std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

/// Sum of the HTML stage-table cells of `kind` for `engine`, over rows with data-stage.
uint64_t html_stage_sum(const std::string& html, const std::string& engine,
                        const std::string& kind) {
  static const std::regex row("<tr data-stage=\"[^\"]*\">(.*?)</tr>");
  const std::regex cell("data-engine=\"" + engine + "\" data-kind=\"" + kind + "\">([0-9]+)<");
  uint64_t sum = 0;
  for (auto it = std::sregex_iterator(html.begin(), html.end(), row); it != std::sregex_iterator();
       ++it) {
    const std::string cells = (*it)[1];
    std::smatch m;
    BOOST_REQUIRE(std::regex_search(cells, m, cell));
    sum += std::stoull(m[1]);
  }
  return sum;
}

/// The trace's events of one (pid, tid) in file order.
std::vector<nlohmann::json> track(const nlohmann::json& trace, int pid, int tid) {
  std::vector<nlohmann::json> out;
  for (const auto& e : trace["traceEvents"])
    if (e["ph"] != "M" && e["pid"] == pid && e["tid"] == tid) out.push_back(e);
  return out;
}

std::string metadata_name(const nlohmann::json& trace, const std::string& kind, int pid, int tid) {
  for (const auto& e : trace["traceEvents"])
    if (e["ph"] == "M" && e["name"] == kind && e["pid"] == pid &&
        (kind != "thread_name" || e["tid"] == tid))
      return e["args"]["name"].get<std::string>();
  return "";
}

}  // namespace

BOOST_AUTO_TEST_CASE(reports_stage_sums_equal_totals) {
  const fs::path dir = workdir("reports_stage_sums_equal_totals");
  ScriptedEngine a("golden", script()), b("rtl", script());
  report::TraceJsonSink trace(spec(), dir / "trace.json", {"golden", "rtl"});
  const cosim::CosimResult r = cosim_pair(a, b, {&trace});
  BOOST_REQUIRE(r.equal());
  BOOST_REQUIRE(r.total_cycles[0] == kTotalCycles);

  const nlohmann::json j = report::cosim_json(spec(), r);
  const std::string html = report::html_report(spec(), r, nullptr);
  const nlohmann::json tj = nlohmann::json::parse(slurp(dir / "trace.json"));
  for (size_t e = 0; e < 2; ++e) {
    const std::string& name = r.engines[e];
    BOOST_TEST_CONTEXT("engine " << name) {
      uint64_t json_cycles = 0, json_instructions = 0;
      for (const auto& [stage, row] : j["stages"].items()) {
        json_cycles += row[name + "_cycles"].get<uint64_t>();
        json_instructions += row["instructions"].get<uint64_t>();
      }
      BOOST_TEST(json_cycles == j["total_cycles"][name].get<uint64_t>());
      BOOST_TEST(json_instructions == j["retired"][name].get<uint64_t>());
      BOOST_TEST(html_stage_sum(html, name, "cycles") == r.total_cycles[e]);
      BOOST_TEST(html_stage_sum(html, name, "instructions") == r.retired[e]);
      uint64_t slices = 0;
      for (const auto& ev : track(tj, static_cast<int>(e) + 1, 1))
        if (ev["ph"] == "X") slices += ev["dur"].get<uint64_t>();
      BOOST_TEST(slices == r.total_cycles[e]);
    }
  }

  ScriptedEngine single("golden", script());
  cosim::CosimOptions o;
  const cosim::RunResult rr = cosim::run_single(spec(), single, o);
  const nlohmann::json rj = report::run_json(spec(), rr);
  uint64_t run_cycles = 0;
  for (const auto& [stage, row] : rj["stages"].items()) run_cycles += row["cycles"].get<uint64_t>();
  BOOST_TEST(run_cycles == rj["total_cycles"].get<uint64_t>());
  BOOST_TEST(html_stage_sum(report::html_report(spec(), rr, nullptr), "golden", "cycles") ==
             kTotalCycles);
}

BOOST_AUTO_TEST_CASE(reports_html_chart_has_a_bar_per_stage_that_ran) {
  ScriptedEngine a("golden", script()), b("rtl", script());
  const cosim::CosimResult r = cosim_pair(a, b);
  const std::string html = report::html_report(spec(), r, nullptr);
  std::set<std::string> ran;
  for (const auto& row : r.stages) ran.insert(row.name);
  BOOST_TEST(ran.size() == 3u);
  for (const auto& st : spec().stages()) {
    BOOST_TEST_CONTEXT("stage " << st.name) {
      const std::string group = "<g data-stage-bar=\"" + st.name + "\">";
      BOOST_TEST((html.find(group) != std::string::npos) == (ran.count(st.name) == 1));
    }
  }
  // One bar per engine and stage, each with the stage's cycles.
  const std::regex bar(
      "<rect class=\"bar e[01]\" data-engine=\"([a-z]+)\" data-cycles=\"([0-9]+)\"");
  std::map<std::string, uint64_t> sum;
  size_t bars = 0;
  for (auto it = std::sregex_iterator(html.begin(), html.end(), bar); it != std::sregex_iterator();
       ++it, ++bars)
    sum[(*it)[1]] += std::stoull((*it)[2]);
  BOOST_TEST(bars == 2 * r.stages.size());
  BOOST_TEST(sum["golden"] == kTotalCycles);
  BOOST_TEST(sum["rtl"] == kTotalCycles);
}

BOOST_AUTO_TEST_CASE(reports_html_is_self_contained_and_escaped) {
  auto sb = script();
  sb[5].end_cycle += 1;  // a mismatch, so the divergence section is rendered too
  ScriptedEngine a("golden", script()), b("rtl<b>", sb);
  const cosim::CosimResult r = cosim_pair(a, b);
  BOOST_REQUIRE(r.divergence.has_value());
  const nlohmann::json context = {{"program", {{"name", "prog<x> & \"y\""}}},
                                  {"tool", "moesim cosim"}};
  const std::string html = report::html_report(spec(), r, context);
  for (const char* bad : {"http://", "https://", "<script", "<link", "@import", "url("})
    BOOST_TEST(html.find(bad) == std::string::npos, "HTML contains " << bad);
  BOOST_TEST(html.find("prog<") == std::string::npos);
  BOOST_TEST(html.find("rtl<") == std::string::npos);
  BOOST_TEST(html.find("prog&lt;x&gt; &amp; &quot;y&quot;") != std::string::npos);
  BOOST_TEST(html.find("rtl&lt;b&gt;") != std::string::npos);
  // The divergence: the differing field is marked, both records and the history are there.
  BOOST_TEST(html.find("<tr class=\"diff\"><th>end_cycle</th>") != std::string::npos);
  BOOST_TEST(html.find("<td>V_ADD_VV gp3, gp1, gp2") != std::string::npos);
  BOOST_TEST(html.find("Last 3 retired by rtl&lt;b&gt;") != std::string::npos);
  // The file written is the same document (kept in the work directory to look at).
  const fs::path file = workdir("reports_html_is_self_contained_and_escaped") / "report.html";
  report::write_html_report(file, spec(), r, context);
  BOOST_TEST(slurp(file) == html);
}

BOOST_AUTO_TEST_CASE(reports_trace_json_tracks_and_slices) {
  const fs::path dir = workdir("reports_trace_json_tracks_and_slices");
  ScriptedEngine a("golden", script()), b("rtl", script());
  report::TraceJsonSink trace(spec(), dir / "trace.json", {"golden", "rtl"});
  const cosim::CosimResult r = cosim_pair(a, b, {&trace});
  const nlohmann::json tj = nlohmann::json::parse(slurp(dir / "trace.json"));
  BOOST_TEST(tj["otherData"]["time_unit"].get<std::string>().find("1 us") != std::string::npos);
  for (int pid = 1; pid <= 2; ++pid) {
    BOOST_TEST_CONTEXT("pid " << pid) {
      BOOST_TEST(metadata_name(tj, "process_name", pid, 0) ==
                 r.engines[pid - 1] + report::kTimeMapping);
      BOOST_TEST(metadata_name(tj, "thread_name", pid, 1) == "stages");
      for (size_t u = 0; u < spec().units().size(); ++u)
        BOOST_TEST(metadata_name(tj, "thread_name", pid, 2 + static_cast<int>(u)) ==
                   spec().units()[u]);
      // Stage track: consecutive instructions of one stage form one slice.
      std::vector<std::string> names;
      uint64_t instructions = 0;
      for (const auto& e : track(tj, pid, 1)) {
        names.push_back(e["name"].get<std::string>());
        instructions += e["args"]["instructions"].get<uint64_t>();
        BOOST_TEST(e["args"]["cycles"] == e["dur"]);
      }
      const std::string s1 = spec().stage_by_code(1)->name, s4 = spec().stage_by_code(4)->name,
                        s7 = spec().stage_by_code(7)->name;
      BOOST_TEST(names == (std::vector<std::string>{s1, s4, s7, s1}),
                 boost::test_tools::per_element());
      BOOST_TEST(instructions == kSteps.size());
      // Unit tracks: one slice per span, named after the instruction, non-decreasing ts.
      for (size_t u = 0; u < spec().units().size(); ++u) {
        uint64_t last = 0, busy = 0;
        size_t n = 0;
        for (const auto& e : track(tj, pid, 2 + static_cast<int>(u))) {
          BOOST_TEST(e["ts"].get<uint64_t>() >= last);
          last = e["ts"].get<uint64_t>();
          busy += e["dur"].get<uint64_t>();
          ++n;
          const std::string name = e["name"].get<std::string>();
          BOOST_TEST((name == "S_ADDI_INT" || name == "V_ADD_VV"));
        }
        BOOST_TEST(busy == r.units[u].busy_cycles[static_cast<size_t>(pid - 1)]);
        BOOST_TEST(n == r.units[u].spans[static_cast<size_t>(pid - 1)]);
      }
      uint64_t last = 0;
      for (const auto& e : track(tj, pid, 1)) {
        BOOST_TEST(e["ts"].get<uint64_t>() >= last);
        last = e["ts"].get<uint64_t>();
      }
    }
  }
}

BOOST_AUTO_TEST_CASE(reports_trace_json_trap_and_mismatch_instants) {
  const fs::path dir = workdir("reports_trace_json_trap_and_mismatch_instants");
  auto trapping = script();
  trapping.back().end_cycle = trapping.back().start_cycle;
  trapping.back().trap = isa::Trap{2, trapping.back().pc, trapping.back().word};
  {
    ScriptedEngine e("golden", trapping);
    report::TraceJsonSink trace(spec(), dir / "trap.json", {"golden"});
    cosim::CosimOptions o;
    o.sinks = {&trace};
    cosim::run_single(spec(), e, o);
  }
  const nlohmann::json tt = nlohmann::json::parse(slurp(dir / "trap.json"));
  const auto stages = track(tt, 1, 1);
  BOOST_REQUIRE(!stages.empty());
  BOOST_TEST(stages.back()["ph"] == "i");
  BOOST_TEST(stages.back()["name"] == "trap " + spec().trap_by_code(2)->name);
  BOOST_TEST(stages.back()["ts"] == trapping.back().start_cycle);

  auto sb = script();
  sb[3].regs = {{isa::RegFile::Gp, 3, 7}};
  ScriptedEngine a("golden", script()), b("rtl", sb);
  report::TraceJsonSink trace(spec(), dir / "mismatch.json", {"golden", "rtl"});
  cosim_pair(a, b, {&trace});
  const nlohmann::json tm = nlohmann::json::parse(slurp(dir / "mismatch.json"));
  size_t mismatches = 0;
  for (const auto& e : tm["traceEvents"])
    if (e["name"] == "mismatch") {
      ++mismatches;
      BOOST_TEST(e["ph"] == "i");
      BOOST_TEST(e["s"] == "g");
      BOOST_TEST(e["ts"] == sb[3].start_cycle);
    }
  BOOST_TEST(mismatches == 1u);
  // The instant does not overtake the stage slices still open at the stop: per (pid, tid),
  // timestamps never decrease in file order.
  std::map<std::pair<int, int>, uint64_t> last;
  for (const auto& e : tm["traceEvents"]) {
    if (e["ph"] == "M") continue;
    const std::pair<int, int> track{e["pid"].get<int>(), e["tid"].get<int>()};
    const uint64_t ts = e["ts"].get<uint64_t>();
    BOOST_TEST(ts >= last[track], e.dump());
    last[track] = ts;
  }
}

BOOST_AUTO_TEST_CASE(reports_output_errors_name_the_path) {
  const fs::path missing = fs::path(MOESIM_TEST_WORK_DIR) / "no_such_dir" / "out.json";
  try {
    report::TraceJsonSink trace(spec(), missing, {"golden"});
    BOOST_FAIL("no exception");
  } catch (const std::runtime_error& e) {
    BOOST_TEST(std::string(e.what()).find(missing.string()) != std::string::npos);
  }
  ScriptedEngine a("golden", script()), b("rtl", script());
  const cosim::CosimResult r = cosim_pair(a, b);
  try {
    report::write_html_report(missing, spec(), r, nullptr);
    BOOST_FAIL("no exception");
  } catch (const std::runtime_error& e) {
    BOOST_TEST(std::string(e.what()).find(missing.string()) != std::string::npos);
  }
}

BOOST_AUTO_TEST_CASE(reports_yaml_round_trips) {
  auto sb = script();
  sb[2].end_cycle += 1;
  ScriptedEngine a("golden", script()), b("rtl", sb);
  const cosim::CosimResult r = cosim_pair(a, b);
  nlohmann::json j = report::cosim_json(spec(), r);
  j["verdict"] = report::cosim_verdict(r);
  j["notes"] = nlohmann::json::array();
  const YAML::Node y = YAML::Load(report::report_yaml(j));
  BOOST_TEST(y["verdict"].as<std::string>() == "MISMATCH");
  BOOST_TEST(y["cycles_match"].as<bool>() == false);
  BOOST_TEST(y["total_cycles"]["golden"].as<uint64_t>() ==
             j["total_cycles"]["golden"].get<uint64_t>());
  const std::string s1 = spec().stage_by_code(1)->name;
  BOOST_TEST(y["stages"][s1]["golden_cycles"].as<uint64_t>() == 5u);
  BOOST_TEST(y["units"]["scalar"]["golden_utilisation"].as<double>() ==
             j["units"]["scalar"]["golden_utilisation"].get<double>());
  // Strings that look like numbers stay strings; null stays null; empty sequences stay.
  const YAML::Node word = y["first_divergence"]["word"];
  BOOST_TEST(word.Tag() == "!");  // quoted: a non-plain scalar
  BOOST_TEST(word.as<std::string>() == j["first_divergence"]["word"].get<std::string>());
  BOOST_TEST(y["trap"].IsNull());
  BOOST_TEST(y["notes"].IsSequence());
  BOOST_TEST(y["notes"].size() == 0u);
  BOOST_TEST(y["first_divergence"]["fields"][0].as<std::string>() == "end_cycle");
}

BOOST_AUTO_TEST_CASE(reports_mismatch_lists_planted_byte_ranges) {
  ScriptedEngine a("golden", script()), b("rtl", script());
  // VRAM bytes [10, 13) and [40, 41): units [5, 7) and [20, 21). Registers: f2.
  for (size_t at : {10u, 11u, 12u, 40u}) b.mem_[isa::Space::Vram][at] = 0x5A;
  b.regs_.fp[2] = 0x3F80;
  const cosim::CosimResult r = cosim_pair(a, b);
  BOOST_REQUIRE(!r.outputs_bit_exact());

  const nlohmann::json vram = report::cosim_json(spec(), r)["final_state"]["memories"]["vram"];
  const nlohmann::json want = nlohmann::json::parse(
      R"([{"bytes":[10,13],"units":[5,7]},{"bytes":[40,41],"units":[20,21]}])");
  BOOST_TEST(vram["ranges"] == want, "ranges " << vram["ranges"].dump());
  BOOST_TEST(vram["ranges_complete"] == true);
  BOOST_TEST(vram["differing_bytes"] == 4);

  std::ostringstream console;
  report::print_cosim_details(console, spec(), r);
  const std::string text = console.str();
  BOOST_TEST(
      text.find("    bytes [10, 13) = units [5, 7)\n    bytes [40, 41) = units [20, 21)\n") !=
          std::string::npos,
      text);
  BOOST_TEST(text.find("f2: golden 0x0, rtl 0x3F80") != std::string::npos, text);

  const std::string html = report::html_report(spec(), r, nullptr);
  BOOST_TEST(html.find("<div class=\"range\">bytes [10, 13) = units [5, 7)</div>"
                       "<div class=\"range\">bytes [40, 41) = units [20, 21)</div></td>") !=
             std::string::npos);
  BOOST_TEST(html.find("<td>f2</td>") != std::string::npos);

  // More runs than SpaceDiff::kMaxDiffRanges: the list says it is incomplete.
  ScriptedEngine c("rtl", script());
  for (uint64_t i = 0; i <= cosim::SpaceDiff::kMaxDiffRanges; ++i)
    c.mem_[isa::Space::Hbm][2 * i] = 1;
  ScriptedEngine d("golden", script());
  const cosim::CosimResult many = cosim_pair(d, c);
  const nlohmann::json hbm = report::cosim_json(spec(), many)["final_state"]["memories"]["hbm"];
  BOOST_TEST(hbm["ranges"].size() == cosim::SpaceDiff::kMaxDiffRanges);
  BOOST_TEST(hbm["ranges_complete"] == false);
  std::ostringstream more;
  report::print_cosim_details(more, spec(), many);
  BOOST_TEST(more.str().find("more differing bytes beyond the first 16 ranges") !=
             std::string::npos);
}

BOOST_AUTO_TEST_CASE(reports_unit_tables) {
  ScriptedEngine a("golden", script()), b("rtl", script());
  const cosim::CosimResult r = cosim_pair(a, b);
  const size_t scalar = ScriptedEngine::unit_index(spec().by_mnemonic("S_ADDI_INT")->unit);
  BOOST_REQUIRE(r.units.size() == spec().units().size());
  BOOST_TEST(r.units[scalar].busy_cycles[0] == 12u);  // 2 + 3 + 5 + 2
  std::ostringstream os;
  report::print_unit_table(os, r.units, {"golden", "rtl"}, {r.total_cycles[0], r.total_cycles[1]});
  const std::string text = os.str();
  // "%-26s" name, then per engine " %15llu %8llu %6.1f%%".
  const std::string scalar_row =
      "scalar" + std::string(20 + 14, ' ') + "12" + std::string(8, ' ') + "4" + "   48.0%";
  BOOST_TEST(text.find(scalar_row + std::string(14, ' ') + "12") != std::string::npos, text);
  BOOST_TEST(text.find("NO") == std::string::npos, text);

  const nlohmann::json j = report::cosim_json(spec(), r);
  BOOST_TEST(j["units"]["scalar"]["golden_busy_cycles"] == 12);
  BOOST_TEST(j["units"]["scalar"]["rtl_spans"] == 4);
  BOOST_TEST(j["units"]["scalar"]["golden_utilisation"].get<double>() == 12.0 / 25.0);
  const std::string html = report::html_report(spec(), r, nullptr);
  BOOST_TEST(
      html.find("<tr data-unit=\"scalar\"><td>scalar</td><td class=\"num\" data-engine=\"golden\" "
                "data-kind=\"busy_cycles\">12</td>") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(reports_trace_and_html_of_a_real_cosim) {
  // Golden model and RTL on a small assembled program that loops and then traps.
  const fs::path dir = workdir("reports_trace_and_html_of_a_real_cosim");
  const isa::Program p = isa::assemble(spec(),
                                       "; @stage=router_topk\nS_ADDI_INT gp1, gp0, 7\n"
                                       "C_LOOP_START gp2, 2\nS_ADDI_INT gp1, gp1, 1\n"
                                       "C_LOOP_END gp2\n; @stage=non_moe\nC_LOOP_END gp2\n");
  const isa::MachinePreset& preset = spec().preset(cosim::rtl_built_presets().front());
  auto golden = cosim::make_golden_engine(spec(), preset);
  auto rtl = cosim::make_rtl_engine(spec(), preset);
  golden->load(p, {});
  rtl->load(p, {});
  report::TraceJsonSink trace(spec(), dir / "trace.json", {golden->name(), rtl->name()});
  cosim::CosimOptions o;
  o.sinks = {&trace};
  const cosim::CosimResult r = cosim::run_cosim(spec(), *golden, *rtl, o);
  BOOST_REQUIRE(r.equal());
  BOOST_REQUIRE(r.trap.has_value());

  const nlohmann::json tj = nlohmann::json::parse(slurp(dir / "trace.json"));
  for (int pid = 1; pid <= 2; ++pid) {
    const size_t e = static_cast<size_t>(pid - 1);
    BOOST_TEST_CONTEXT("engine " << r.engines[e]) {
      uint64_t stage_cycles = 0, traps = 0, last = 0;
      for (const auto& ev : track(tj, pid, 1)) {
        BOOST_TEST(ev["ts"].get<uint64_t>() >= last);
        last = ev["ts"].get<uint64_t>();
        if (ev["ph"] == "X") stage_cycles += ev["dur"].get<uint64_t>();
        if (ev["ph"] == "i") ++traps;
      }
      BOOST_TEST(stage_cycles == r.total_cycles[e]);
      BOOST_TEST(traps == 1u);
      for (size_t u = 0; u < spec().units().size(); ++u) {
        uint64_t busy = 0, spans = 0, ts = 0;
        for (const auto& ev : track(tj, pid, 2 + static_cast<int>(u))) {
          BOOST_TEST(ev["ts"].get<uint64_t>() >= ts);
          ts = ev["ts"].get<uint64_t>();
          busy += ev["dur"].get<uint64_t>();
          ++spans;
        }
        BOOST_TEST(busy == r.units[u].busy_cycles[e], "unit " << spec().units()[u]);
        BOOST_TEST(spans == r.units[u].spans[e], "unit " << spec().units()[u]);
      }
    }
  }
  const std::string html = report::html_report(spec(), r, nullptr);
  for (const auto& st : spec().stages()) {
    const bool ran = st.name == "router_topk" || st.name == "non_moe";
    BOOST_TEST((html.find("<g data-stage-bar=\"" + st.name + "\">") != std::string::npos) == ran,
               "stage " << st.name);
  }
}

namespace {

/// Golden and rtl run kSteps with each record writing VRAM row i (low byte i + 1); rtl writes
/// 0x7F into row 4 instead, and the program's work tags name token 3 at pc 4.
cosim::CosimResult decoded_divergence() {
  std::vector<ScriptedEngine::Step> sa, sb;
  for (const isa::RetireRecord& r : script()) {
    ScriptedEngine::Step st{r, {{isa::Space::Vram, r.index, static_cast<uint8_t>(r.index + 1)}}};
    st.record.mems = {{isa::Space::Vram, r.index, r.index + 1, 0}};
    st.record.regs = {{isa::RegFile::Gp, 1, r.index + 40}};
    sa.push_back(st);
    sb.push_back(st);
  }
  std::get<2>(sb[4].updates[0]) = 0x7F;
  ScriptedEngine a("golden", sa), b("rtl", sb);
  cosim::CosimOptions o;
  o.history = 3;
  o.work.assign(kSteps.size(), isa::WorkTag{});
  o.work[4].token = 3;
  return cosim::run_cosim(spec(), a, b, o);
}

}  // namespace

BOOST_AUTO_TEST_CASE(reports_decode_the_divergence_everywhere) {
  const cosim::CosimResult r = decoded_divergence();
  BOOST_REQUIRE(r.divergence.has_value());
  BOOST_REQUIRE(r.divergence->index == 4u);
  const std::string rerun =
      report::rerun_command({"moesim", "cosim", "--tokens", "4"}, *r.divergence);
  // Console: operands with their values at issue, the work item, the cycles, the differing
  // element decoded in BF16 with its count and previous writer, the re-run command.
  std::ostringstream console;
  report::print_cosim_details(console, spec(), r, rerun);
  const std::string text = console.str();
  // Record 4 is S_ADDI_INT gp1, gp0, 5: gp1 held 43 at issue (record 3 wrote it).
  BOOST_TEST(
      text.find("operands at issue: rd=gp1=43 (0x2B), rs1=gp0=0 (0x0), imm=5") != std::string::npos,
      text);
  BOOST_TEST(text.find("cycles 10..15, token 3 slot - expert -") != std::string::npos, text);
  BOOST_TEST(text.find("vram rows [4, 5) written: 1 element differs (1 byte)") != std::string::npos,
             text);
  const std::string golden =
      isa::element_value(isa::Space::Vram, std::array<uint8_t, 2>{5, 0}.data(), 0, 0);
  const std::string rtl =
      isa::element_value(isa::Space::Vram, std::array<uint8_t, 2>{0x7F, 0}.data(), 0, 0);
  BOOST_TEST(text.find("row 4 element 0: golden " + golden + ", rtl " + rtl) != std::string::npos,
             text);
  BOOST_TEST(text.find("previous writer of row 4: golden the initial image (never written); rtl "
                       "the initial image (never written)") != std::string::npos,
             text);
  BOOST_TEST(text.find("re-run just the failing part:\n    " + rerun) != std::string::npos, text);
  // Digests are printed one way: 0x and 16 hex digits, wherever they appear.
  const std::regex digest("#0x([0-9A-F]+)");
  size_t digests = 0;
  for (auto it = std::sregex_iterator(text.begin(), text.end(), digest);
       it != std::sregex_iterator(); ++it, ++digests)
    BOOST_TEST((*it)[1].length() == 16, "digest " << (*it)[0] << " in\n" << text);
  BOOST_TEST(digests >= 4u);

  // JSON: the same facts.
  const nlohmann::json j = report::cosim_json(spec(), r)["first_divergence"];
  const nlohmann::json ops = j["decoded"]["rtl"]["operands_at_issue"];
  BOOST_REQUIRE(ops.size() == 3u);
  BOOST_TEST(ops[0]["reg"] == "gp1");
  BOOST_TEST(ops[0]["value"] == "0x2B");
  BOOST_TEST(j["decoded"]["golden"]["work"]["token"] == 3);
  BOOST_TEST(j["decoded"]["golden"]["cycles"] == nlohmann::json::parse("[10, 15]"));
  BOOST_REQUIRE(j["memory_differences"].size() == 1u);
  const nlohmann::json m = j["memory_differences"][0];
  BOOST_TEST(m["space"] == "vram");
  BOOST_TEST(m["differing_elements"] == 1);
  BOOST_TEST(m["elements"][0]["golden"] == golden);
  BOOST_TEST(m["elements"][0]["rtl"] == rtl);
  BOOST_TEST(m["previous_writer"]["golden"].is_null());

  // HTML: the decoded rows, the element table and the re-run command.
  const std::string html = report::html_report(spec(), r, {{"rerun", rerun}});
  BOOST_TEST(html.find("<th>operands at issue</th><td><div>rd=gp1=43 (0x2B)</div>") !=
             std::string::npos);
  BOOST_TEST(html.find("<td class=\"num\">" + report::html_escape(rtl) + "</td>") !=
             std::string::npos);
  BOOST_TEST(html.find("<pre id=\"rerun\">" + report::html_escape(rerun) + "</pre>") !=
             std::string::npos);
}

BOOST_AUTO_TEST_CASE(reports_show_the_effective_addresses_at_issue) {
  // gp1 = 96, gp2 = 32, SCALE = 4096, a1 = 0x10000, then H_PREFETCH_V gp1, gp2, a1 writes VRAM
  // row 6 differently in the two engines. On the tiny preset (VLEN 16, MX_BLOCK 8) isa.yaml's
  // accesses of H_PREFETCH_V give, worked by hand: codes at a1 + gp2 = 65536 + 32 = 65568
  // (0x10020), scales at a1 + SCALE + gp2 / 8 = 65536 + 4096 + 4 = 69636 (0x11004), VRAM
  // element 96 = row 6.
  const isa::MachinePreset& tiny = spec().preset("tiny");
  auto enc = [](const char* m, std::vector<uint64_t> ops) {
    return isa::encode(spec(), *spec().by_mnemonic(m), ops);
  };
  std::vector<ScriptedEngine::Step> sa;
  auto add = [&](uint32_t word, std::vector<isa::RegWrite> regs) {
    isa::RetireRecord r;
    r.index = sa.size();
    r.pc = static_cast<uint32_t>(sa.size());
    r.word = word;
    r.start_cycle = 2 * sa.size();
    r.end_cycle = r.start_cycle + 2;
    r.regs = std::move(regs);
    sa.push_back({r, {}});
  };
  add(enc("S_ADDI_INT", {1, 0, 96}), {{isa::RegFile::Gp, 1, 96}});
  add(enc("S_ADDI_INT", {2, 0, 32}), {{isa::RegFile::Gp, 2, 32}});
  add(enc("C_SET_SCALE_REG", {3}), {{isa::RegFile::Ctrl, 0, 4096}});
  add(enc("C_SET_ADDR_REG", {1, 0, 4}), {{isa::RegFile::Addr, 1, 0x10000}});
  add(enc("H_PREFETCH_V", {1, 2, 1, 0, 0}), {});
  sa.back().record.mems = {{isa::Space::Vram, 6, 7, 0}};
  sa.back().updates = {{isa::Space::Vram, 6, 0x11}};
  std::vector<ScriptedEngine::Step> sb = sa;
  std::get<2>(sb.back().updates[0]) = 0x12;
  ScriptedEngine a("golden", sa), b("rtl", sb);
  cosim::CosimOptions o;
  o.history = 2;
  const cosim::CosimResult r = cosim::run_cosim(spec(), a, b, o);
  BOOST_REQUIRE(r.divergence.has_value());
  BOOST_REQUIRE(r.divergence->index == 4u);
  const std::vector<std::string> want = {
      "hbm read codes of row 0: 65568 (0x10020) = an + rs1",
      "hbm read scales of row 0: 69636 (0x11004) = an + SCALE + rs1 / MX_BLOCK",
      "vram write first row: 96 (row 6) = rd"};

  std::ostringstream console;
  report::print_cosim_details(console, spec(), r, "", &tiny);
  // Once under each engine's record.
  for (const std::string& line : want) {
    const std::string text = console.str(), needle = "    address: " + line + "\n";
    size_t n = 0;
    for (size_t at = text.find(needle); at != std::string::npos; at = text.find(needle, at + 1))
      ++n;
    BOOST_TEST(n == 2u, line << " in\n" << text);
  }

  const nlohmann::json j = report::cosim_json(spec(), r, &tiny)["first_divergence"]["decoded"];
  for (const char* engine : {"golden", "rtl"}) {
    const nlohmann::json& ad = j[engine]["addresses"];
    BOOST_REQUIRE(ad.size() == 3u);
    BOOST_TEST(ad[0]["space"] == "hbm");
    BOOST_TEST(ad[0]["access"] == "read");
    BOOST_TEST(ad[0]["value"] == 65568);
    BOOST_TEST(ad[1]["value"] == 69636);
    BOOST_TEST(ad[2]["space"] == "vram");
    BOOST_TEST(ad[2]["access"] == "write");
    BOOST_TEST(ad[2]["value"] == 96);
    for (size_t i = 0; i < want.size(); ++i) BOOST_TEST(ad[i]["text"] == want[i]);
  }

  const std::string html = report::html_report(spec(), r, nullptr, &tiny);
  BOOST_TEST(html.find("<tr><th>addresses at issue</th><td><div>" + report::html_escape(want[0]) +
                       "</div><div>" + report::html_escape(want[1]) + "</div><div>" +
                       report::html_escape(want[2]) + "</div></td>") != std::string::npos);

  // Without the machine, a formula that names a machine parameter stays unevaluated and says so.
  const nlohmann::json bare = report::cosim_json(spec(), r)["first_divergence"]["decoded"];
  BOOST_TEST(bare["rtl"]["addresses"][0]["value"] == 65568);
  BOOST_TEST(bare["rtl"]["addresses"][1]["value"].is_null());
  BOOST_TEST(bare["rtl"]["addresses"][1]["text"] ==
             "hbm read scales of row 0: ? = an + SCALE + rs1 / MX_BLOCK (no value for MX_BLOCK)");
  BOOST_TEST(bare["rtl"]["addresses"][2]["text"] == "vram write first row: 96 = rd");
}

BOOST_AUTO_TEST_CASE(reports_rerun_command_replaces_outputs_and_limits) {
  cosim::Divergence d;
  d.index = 19;  // a retire record: 19 retires before it
  d.reach = 19;
  isa::RetireRecord rec;
  rec.start_cycle = 500;
  rec.end_cycle = 540;
  d.records = {rec, rec};
  isa::RetireRecord old;
  old.start_cycle = 420;
  d.history[0] = {old};
  const std::string cmd = report::rerun_command(
      {"/x/moesim", "cosim", "--tokens", "4", "--report", "r.json", "--max-instructions=50",
       "--flip-bit", "rtl:hbm:1:0", "--vcd", "t.vcd", "--model", "my model.json"},
      d);
  BOOST_TEST(cmd ==
                 "/x/moesim cosim --tokens 4 --flip-bit rtl:hbm:1:0 --model 'my model.json' "
                 "--max-instructions 20 --vcd divergence.vcd --trace-rtl divergence.fst "
                 "--trace-window 420:540",
             cmd);
  // A transfer record of retire 19's DMA instruction that arrives after 25 retires: the re-run
  // must run 26 (docs/overlap.md section 9).
  d.reach = 25;
  const std::string transfer = report::rerun_command({"/x/moesim", "cosim"}, d);
  BOOST_TEST(transfer.find(" --max-instructions 26 ") != std::string::npos, transfer);
}

BOOST_AUTO_TEST_CASE(reports_say_when_only_unwritten_state_differs) {
  ScriptedEngine a("golden", script()), b("rtl", script());
  b.mem_[isa::Space::Hbm][9] = 0x10;  // no record writes anything: an input difference
  const cosim::CosimResult r = cosim_pair(a, b);
  BOOST_REQUIRE(r.outputs_bit_exact());
  BOOST_REQUIRE(!r.final_state_equal());
  const nlohmann::json j = report::cosim_json(spec(), r);
  BOOST_TEST(j["outputs_bit_exact"] == true);
  BOOST_TEST(j["final_state_equal"] == false);
  BOOST_TEST(j["final_state"]["memories"]["hbm"]["unwritten_differing_bytes"] == 1);
  BOOST_TEST(j["final_state"]["memories"]["hbm"]["outputs_equal"] == true);
  BOOST_TEST(j["final_state"]["outputs"] == report::kOutputsDefinition);
  std::ostringstream console;
  report::print_cosim_details(console, spec(), r);
  BOOST_TEST(console.str().find("DIFFER: 1 byte (1 never written by the program: not outputs)") !=
                 std::string::npos,
             console.str());
  BOOST_TEST(
      console.str().find("last writer of byte 9: golden the initial image (never written)") !=
          std::string::npos,
      console.str());
  const std::string html = report::html_report(spec(), r, nullptr);
  BOOST_TEST(html.find("Final state differs</a> outside the outputs") != std::string::npos);
  BOOST_TEST(html.find("Outputs bit-exact") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(reports_html_reads_top_down) {
  auto sb = script();
  sb[5].end_cycle += 1;
  ScriptedEngine a("golden", script()), b("rtl", sb);
  const cosim::CosimResult r = cosim_pair(a, b);
  const nlohmann::json context = {{"program", {{"name", "p"}}}, {"preset", {{"hidden", 128}}}};
  const std::string html = report::html_report(spec(), r, context);
  const size_t verdict = html.find("id=\"verdict\""), link = html.find("href=\"#divergence\""),
               divergence = html.find("<h2 id=\"divergence\""),
               chart = html.find("<svg id=\"stage-chart\""),
               stages = html.find("<table id=\"stages\""), units = html.find("<table id=\"units\""),
               settings = html.find("<details id=\"settings\">");
  BOOST_TEST(verdict < link);
  BOOST_TEST(link < divergence);
  BOOST_TEST(divergence < chart);
  BOOST_TEST(chart < stages);
  BOOST_TEST(stages < units);
  BOOST_TEST(units < settings);
  BOOST_TEST(settings != std::string::npos);
  // The settings sit inside the folded <details>.
  BOOST_TEST(html.find("<th>preset.hidden</th>") > settings);
  BOOST_TEST(html.find("</details>") > html.find("<th>preset.hidden</th>"));
  // The chart: a linear axis with tick labels, a log-scale switch and a log bar per bar.
  BOOST_TEST(html.find("<g class=\"axis lin\">") != std::string::npos);
  BOOST_TEST(html.find("<g class=\"axis log\">") != std::string::npos);
  // Log ticks at 0, 10, 100 (the run's longest stage is under 100 cycles), labelled as such
  // (they once read 0, 9, 99: the tick of 10^k sat at 10^k - 1).
  const std::string log_axis = html.substr(html.find("<g class=\"axis log\">"));
  for (const char* tick : {">0</text>", ">10</text>", ">100</text>"})
    BOOST_TEST(log_axis.substr(0, log_axis.find("</g>")).find(tick) != std::string::npos, tick);
  BOOST_TEST(log_axis.substr(0, log_axis.find("</g>")).find(">9</text>") == std::string::npos);
  BOOST_TEST(html.find("<input type=\"checkbox\" id=\"log-scale\">") != std::string::npos);
  const std::regex logbar("<rect class=\"logbar e[01]\"");
  BOOST_TEST(static_cast<size_t>(std::distance(
                 std::sregex_iterator(html.begin(), html.end(), logbar), std::sregex_iterator())) ==
             2 * r.stages.size());
}
