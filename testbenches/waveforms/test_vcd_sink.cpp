// report::VcdSink: retire records, work items, unit spans and traps mapped to the VCD signals
// (mnemonic by opcode, busy lines named by isa.yaml `units`, trap names), the files written
// beside the VCD, and the files `moesim cosim --vcd` writes for a real co-simulation.
// It links moesim_cosim and so libsystemc.so, which defines main() and calls sc_main: Boost's
// main is disabled and sc_main runs the test tree.
#define BOOST_TEST_MODULE waveforms_sink
#define BOOST_TEST_NO_MAIN
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <boost/test/unit_test.hpp>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <sstream>

#include "moesim/isa/spec.hpp"
#include "moesim/report/vcd_sink.hpp"
#include "moesim/waveforms/vcd.hpp"
#include "moesim_test/dma_programs.hpp"
#include "vcd_reader.hpp"

extern "C" int sc_main(int argc, char** argv) {
  return boost::unit_test::unit_test_main(&init_unit_test, argc, argv);
}

namespace fs = std::filesystem;
using namespace moesim;
using History = std::vector<std::pair<uint64_t, std::string>>;

namespace {

const isa::Spec& spec() { return isa::Spec::builtin(); }

/// A fresh directory for one test case.
fs::path workdir(const std::string& name) {
  const fs::path d =
      fs::temp_directory_path() / ("moesim_vcd_sink_" + std::to_string(getpid())) / name;
  fs::remove_all(d);
  fs::create_directories(d);
  return d;
}

test::VcdData read(const fs::path& p) {
  std::ifstream in(p);
  BOOST_REQUIRE_MESSAGE(in, "cannot read " << p);
  return test::read_vcd_strict(in);
}

/// A word whose opcode field holds `mnemonic`'s opcode (other fields 0).
uint32_t word_of(const std::string& mnemonic) {
  return uint32_t{spec().by_mnemonic(mnemonic)->opcode} << spec().field("opcode").lo;
}

size_t unit_index(const std::string& name) {
  const auto& u = spec().units();
  return static_cast<size_t>(std::find(u.begin(), u.end(), name) - u.begin());
}

isa::RetireRecord record(uint32_t pc, uint32_t word, uint8_t stage, uint64_t start, uint64_t end) {
  isa::RetireRecord r;
  r.index = pc;
  r.pc = pc;
  r.word = word;
  r.stage = stage;
  r.start_cycle = start;
  r.end_cycle = end;
  return r;
}

/// Trace names of a .gtkw file (lines that are not comments, flags, filters or group labels).
std::vector<std::string> gtkw_traces(const fs::path& p) {
  std::ifstream in(p);
  std::vector<std::string> traces;
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || std::string("[*@^-").find(line[0]) != std::string::npos) continue;
    if (line[0] == '+') line = line.substr(line.find("} ") + 2);  // +{alias} name
    traces.push_back(line);
  }
  return traces;
}

/// `path` as GTKWave names it (vector wires get `[msb:0]`).
std::set<std::string> gtkwave_names(const test::VcdData& d) {
  std::set<std::string> names;
  for (const auto& [id, v] : d.vars)
    names.insert(v.type != "string" && v.width > 1
                     ? v.path + "[" + std::to_string(v.width - 1) + ":0]"
                     : v.path);
  return names;
}

}  // namespace

BOOST_AUTO_TEST_CASE(vcd_sink_maps_records_to_signals) {
  const fs::path dir = workdir("map");
  const fs::path vcd = dir / "t.vcd";
  const uint8_t matrix = static_cast<uint8_t>(unit_index("matrix"));
  const uint8_t dma = static_cast<uint8_t>(unit_index("dma"));
  BOOST_REQUIRE(matrix < spec().units().size() && dma < spec().units().size());
  const isa::StageSpec& proj = *spec().stage("expert_projection");
  const isa::TrapSpec& cause = spec().trap("loop_underflow");
  {
    report::VcdSink sink(spec(), vcd, {"golden", "rtl"});
    for (size_t e = 0; e < 2; ++e) {
      sink.instruction(e, record(0, word_of("H_PREFETCH_M"), 6, 0, 10), {});
      sink.unit_busy(e, isa::UnitSpan{dma, 0, 10});
    }
    for (size_t e = 0; e < 2; ++e) {
      sink.instruction(e, record(1, word_of("M_MM"), proj.code, 10, 14), cosim::WorkItem{3, 1, 9});
      sink.unit_busy(e, isa::UnitSpan{matrix, 10, 14});
    }
    auto bad = record(2, 0x3F, 0, 14, 14);  // opcode 63 is not defined (checked below)
    BOOST_REQUIRE(spec().by_opcode(0x3F) == nullptr);
    bad.trap = isa::Trap{cause.code, 2, 0x3F};
    sink.instruction(0, bad, {});
    sink.instruction(1, record(2, word_of("C_LOOP_END"), 0, 14, 15), {});
    sink.mismatch(14);
    sink.finish(15);
  }
  const auto d = read(vcd);
  for (const auto& u : spec().units())
    BOOST_TEST(d.vars.count(d.id_of("golden." + u + "_busy")) == 1u);
  BOOST_TEST((d.history("golden.mnemonic") ==
              History{{0, "H_PREFETCH_M"}, {10, "M_MM"}, {14, "undefined"}}));
  BOOST_TEST((d.history("rtl.mnemonic") ==
              History{{0, "H_PREFETCH_M"}, {10, "M_MM"}, {14, "C_LOOP_END"}}));
  BOOST_TEST(d.value_at("golden.stage", 12) == proj.name);
  BOOST_TEST(d.value_at("golden.stage", 0) == spec().stage_by_code(6)->name);
  BOOST_TEST((d.history("golden.token") == History{{0, "z"}, {10, "11"}, {14, "z"}}));
  BOOST_TEST((d.history("rtl.expert") == History{{0, "z"}, {10, "1001"}, {14, "z"}}));
  BOOST_TEST((d.history("golden.dma_busy") == History{{0, "1"}, {10, "0"}}));
  BOOST_TEST((d.history("rtl.matrix_busy") == History{{0, "0"}, {10, "1"}, {14, "0"}}));
  BOOST_TEST((d.history("golden.trap") == History{{0, "0"}, {14, "1"}}));
  BOOST_TEST((d.history("golden.trap_cause") == History{{0, "none"}, {14, cause.name}}));
  BOOST_TEST((d.history("rtl.trap") == History{{0, "0"}}));
  BOOST_TEST((d.history("mismatch") == History{{0, "0"}, {14, "1"}}));
  // Beside the VCD: the filter and a save file naming only signals of the VCD.
  BOOST_TEST(fs::exists(dir / "t.stages.filter"));
  const auto traces = gtkw_traces(dir / "t.gtkw");
  const auto names = gtkwave_names(d);
  BOOST_TEST(traces.size() == names.size());
  for (const auto& t : traces) BOOST_TEST(names.count(t) == 1u, t << " is not in the VCD");
}

BOOST_AUTO_TEST_CASE(vcd_sink_rejects_unknown_unit) {
  const fs::path dir = workdir("unit");
  report::VcdSink sink(spec(), dir / "t.vcd", {"golden"});
  sink.instruction(0, record(0, word_of("M_MM"), 0, 0, 4), {});
  const auto n = static_cast<uint8_t>(spec().units().size());
  BOOST_CHECK_THROW(sink.unit_busy(0, isa::UnitSpan{n, 0, 4}), std::runtime_error);
}

BOOST_AUTO_TEST_CASE(moesim_cosim_vcd_shows_every_signal) {
  const fs::path dir = workdir("cli");
  const std::string cmd = "cd '" + dir.string() + "' && '" + std::string(MOESIM_BIN) +
                          "' cosim --tokens 2 --hidden 128 --intermediate 128 --vcd t.vcd "
                          ">out.txt 2>&1";
  const int st = std::system(cmd.c_str());
  BOOST_TEST_REQUIRE((WIFEXITED(st) && WEXITSTATUS(st) == 0), "moesim cosim failed: " << cmd);
  const auto d = read(dir / "t.vcd");
  std::set<std::string> mnemonics;
  for (const auto& i : spec().instructions()) mnemonics.insert(i.mnemonic);
  for (const std::string scope : {"golden", "rtl"}) {
    for (const auto& [t, m] : d.history(scope + ".mnemonic"))
      BOOST_TEST((m == "none" || mnemonics.count(m) == 1u), scope << " mnemonic " << m);
    // Every instruction keeps a unit busy, so some line is high at every instruction start.
    for (const auto& [t, pc] : d.history(scope + ".pc")) {
      bool busy = false;
      for (const auto& u : spec().units())
        busy = busy || d.value_at(scope + "." + u + "_busy", t) == "1";
      BOOST_TEST(busy, scope << ": no unit busy at cycle " << t);
    }
    for (const char* u : {"matrix", "dma", "vector"})
      BOOST_TEST(d.history(scope + "." + u + "_busy").size() > 1u,
                 scope << " " << u << " never busy");
    BOOST_TEST(d.value_at(scope + ".trap", d.last_time) == "0");
  }
  // The builder's `; @pair=` tags: both tokens are worked on and the routed experts (read from
  // INT SRAM at retire) show up, the same on both engines.
  for (const std::string scope : {"golden", "rtl"}) {
    std::set<std::string> tokens, experts;
    for (const auto& [t, v] : d.history(scope + ".token")) tokens.insert(v);
    for (const auto& [t, v] : d.history(scope + ".expert")) experts.insert(v);
    BOOST_TEST((tokens == std::set<std::string>{"z", "0", "1"}), scope << " tokens");
    BOOST_TEST(experts.size() > 2u, scope << ": no routed expert shown");
  }
  BOOST_TEST((d.history("golden.expert") == d.history("rtl.expert")));
  // Both engines follow the same timing contract, so their busy lines agree.
  for (const auto& u : spec().units())
    BOOST_TEST((d.history("golden." + u + "_busy") == d.history("rtl." + u + "_busy")),
               u << " busy lines differ between golden and rtl");
  const auto traces = gtkw_traces(dir / "t.gtkw");
  const auto names = gtkwave_names(d);
  BOOST_TEST(traces.size() == names.size());
  for (const auto& t : traces) BOOST_TEST(names.count(t) == 1u, t << " is not in the VCD");
}

BOOST_AUTO_TEST_CASE(moesim_cosim_vcd_marks_the_trap) {
  const fs::path dir = workdir("trap");
  std::ofstream(dir / "trap.asm") << "; @stage=router_topk\nS_ADDI_INT gp1, gp0, 7\n"
                                     "C_LOOP_START gp2, 2\nS_ADDI_INT gp1, gp1, 1\n"
                                     "C_LOOP_END gp2\n; @stage=non_moe\nC_LOOP_END gp2\n";
  const std::string cmd = "cd '" + dir.string() + "' && '" + std::string(MOESIM_BIN) +
                          "' cosim --program trap.asm --vcd t.vcd >out.txt 2>&1";
  const int st = std::system(cmd.c_str());
  BOOST_TEST_REQUIRE((WIFEXITED(st) && WEXITSTATUS(st) == 0), "moesim cosim failed: " << cmd);
  const auto d = read(dir / "t.vcd");
  for (const std::string scope : {"golden", "rtl"}) {
    const auto& trap = d.history(scope + ".trap");
    BOOST_TEST_REQUIRE(trap.size() == 2u, scope << ".trap never set");
    const uint64_t t = trap.back().first;  // the trapping instruction's start cycle
    BOOST_TEST(trap.back().second == "1");
    BOOST_TEST((d.history(scope + ".trap_cause") == History{{0, "none"}, {t, "loop_underflow"}}));
    BOOST_TEST(d.value_at(scope + ".pc", t) == "100");  // pc 4
    BOOST_TEST(d.value_at(scope + ".mnemonic", t) == "C_LOOP_END");
    BOOST_TEST(d.value_at(scope + ".stage", t) == "non_moe");
    BOOST_TEST(d.last_time == t);
  }
}

namespace {

/// Both engines run 12 instructions of 10 cycles, stage code 1 then (from cycle 50) code 4;
/// a divergence at `mismatch` cycles (none if 0).
void run_sink(report::VcdSink& sink, uint64_t mismatch) {
  for (uint32_t i = 0; i < 12; ++i) {
    const uint64_t t = 10 * i;
    if (mismatch != 0 && t > mismatch) break;
    for (size_t e = 0; e < 2; ++e)
      sink.instruction(e, record(i, word_of("S_ADDI_INT"), t < 50 ? 1 : 4, t, t + 10), {});
    if (mismatch != 0 && t == mismatch) sink.mismatch(t);
  }
  sink.finish(mismatch != 0 ? mismatch + 10 : 120);
}

std::string slurp(const fs::path& p) {
  std::ifstream in(p);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

}  // namespace

BOOST_AUTO_TEST_CASE(vcd_sink_gtkw_opens_on_the_divergence) {
  const fs::path dir = workdir("view");
  const std::string s1 = "stage " + spec().stage_by_code(1)->name;
  const std::string s4 = "stage " + spec().stage_by_code(4)->name;
  {
    report::VcdSink sink(spec(), dir / "t.vcd", {"golden", "rtl"});
    run_sink(sink, 100);
    const waveforms::GtkwView v = sink.view(110);
    BOOST_REQUIRE(v.marker.has_value());
    BOOST_TEST(*v.marker == 100u);
    BOOST_REQUIRE(v.markers.size() == 3u);
    BOOST_TEST(v.markers[0].time == 100u);
    BOOST_TEST(v.markers[0].name == "first divergence");
    BOOST_TEST(v.markers[1].time == 0u);
    BOOST_TEST(v.markers[1].name == s1);
    BOOST_TEST(v.markers[2].time == 50u);
    BOOST_TEST(v.markers[2].name == s4);
    // From before the last kRecent instructions (their first starts at cycle 30) past the end of
    // the divergent one (110), not the whole run.
    BOOST_TEST(v.begin <= 30u);
    BOOST_TEST(v.begin > 0u);
    BOOST_TEST(v.end >= 110u);
    BOOST_TEST(v.end < 160u);
  }
  const std::string gtkw = slurp(dir / "t.gtkw");
  BOOST_TEST(gtkw.find("[markername] Afirst divergence\n") != std::string::npos, gtkw);
  BOOST_TEST(gtkw.find("[markername] B" + s1 + "\n") != std::string::npos, gtkw);
  BOOST_TEST(gtkw.find(" 100 100 0 50 -1 ") != std::string::npos, gtkw);  // marker, then A B C

  // Without a divergence: the whole run, stage markers only.
  const fs::path whole = workdir("view_whole");
  uint64_t end = 0;
  {
    report::VcdSink sink(spec(), whole / "t.vcd", {"golden", "rtl"});
    run_sink(sink, 0);
    const waveforms::GtkwView v = sink.view(120);
    BOOST_TEST(v.begin == 0u);
    BOOST_TEST(v.end >= 120u);
    BOOST_TEST(v.end <= 128u);
    end = v.end;
    BOOST_TEST(!v.marker.has_value());
    BOOST_TEST(v.markers.size() == 2u);
  }

  // Stage entries closer than their names' width on the screen are left out (GTKWave would
  // draw the names over each other): stage 4 enters 2 cycles after stage 1 on a 128-cycle view.
  {
    report::VcdSink sink(spec(), workdir("view_crowded") / "t.vcd", {"golden", "rtl"});
    const std::array<std::array<uint64_t, 3>, 3> steps = {{{1, 0, 2}, {4, 2, 60}, {7, 60, 120}}};
    for (uint32_t i = 0; i < steps.size(); ++i)
      for (size_t e = 0; e < 2; ++e)
        sink.instruction(e,
                         record(i, word_of("S_ADDI_INT"), static_cast<uint8_t>(steps[i][0]),
                                steps[i][1], steps[i][2]),
                         {});
    sink.finish(120);
    const waveforms::GtkwView v = sink.view(120);
    BOOST_REQUIRE(v.markers.size() == 2u);
    BOOST_TEST(v.markers[0].time == 0u);
    BOOST_TEST(v.markers[1].time == 60u);
    BOOST_TEST(v.markers[1].name == "stage " + spec().stage_by_code(7)->name);
  }
  const std::string g2 = slurp(whole / "t.gtkw");
  char zoom[64];
  std::snprintf(zoom, sizeof zoom, "*%.6f -1 0 50 -1", waveforms::gtkw_zoom(end));
  BOOST_TEST(g2.find(zoom) != std::string::npos, g2);
  BOOST_TEST(g2.find("[timestart] 0\n") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(gtkw_zoom_fills_the_wave_area) {
  // GTKWave shows 2^-zoom time units per 200 pixels: a span fills kGtkwWavePixels.
  for (uint64_t span : {1u, 57u, 106570u}) {
    const double shown =
        std::pow(2.0, -waveforms::gtkw_zoom(span)) * waveforms::kGtkwWavePixels / 200.0;
    BOOST_TEST(shown == static_cast<double>(span), boost::test_tools::tolerance(1e-9));
  }
}

namespace {

/// A VCD as fst2vcd writes it, reduced to what the tests need: full names (scope.name, no
/// range) of each id, value changes per id with their times, every timestamp.
struct Dump {
  std::map<std::string, std::string> name_of;                                    // id -> TOP.x.y
  std::map<std::string, std::vector<std::pair<uint64_t, std::string>>> changes;  // by name
  std::vector<uint64_t> times;
  std::string timescale;
  std::string value_at(const std::string& name, uint64_t t) const {
    std::string v = "?";
    auto it = changes.find(name);
    if (it == changes.end()) return v;
    for (const auto& [time, value] : it->second)
      if (time <= t) v = value;
    return v;
  }
};

Dump read_dump(const std::string& text) {
  Dump d;
  std::istringstream in(text);
  std::string tok;
  std::vector<std::string> scopes;
  uint64_t now = 0;
  while (in >> tok) {
    if (tok == "$scope") {
      std::string kind, name;
      in >> kind >> name;
      scopes.push_back(name);
    } else if (tok == "$upscope") {
      if (!scopes.empty()) scopes.pop_back();
    } else if (tok == "$timescale") {
      in >> d.timescale;
    } else if (tok == "$var") {
      std::string type, width, id, name;
      in >> type >> width >> id >> name;
      std::string full;
      for (const auto& s : scopes) full += s + ".";
      d.name_of.emplace(id, full + name);
    } else if (tok[0] == '#') {
      now = std::stoull(tok.substr(1));
      d.times.push_back(now);
    } else if (tok[0] == 'b' || tok[0] == 'B') {
      std::string id;
      in >> id;
      const auto [first, last] = d.name_of.equal_range(id);
      for (auto it = first; it != last; ++it) d.changes[it->second].push_back({now, tok.substr(1)});
    } else if (tok.size() >= 2 && std::string("01xzXZ").find(tok[0]) != std::string::npos) {
      const auto [first, last] = d.name_of.equal_range(tok.substr(1));
      for (auto it = first; it != last; ++it)
        d.changes[it->second].push_back({now, tok.substr(0, 1)});
    }
  }
  return d;
}

int run_moesim(const fs::path& dir, const std::string& args) {
  const std::string cmd = "cd '" + dir.string() + "' && '" + std::string(MOESIM_BIN) + "' " + args +
                          " >out.txt 2>err.txt";
  const int st = std::system(cmd.c_str());
  return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

}  // namespace

BOOST_AUTO_TEST_CASE(moesim_trace_window_limits_and_aligns_the_fst) {
  const fs::path dir = workdir("window");
  BOOST_REQUIRE_MESSAGE(std::string(MOESIM_FST2VCD).size() > 0,
                        "fst2vcd not found at configure time: install gtkwave");
  BOOST_REQUIRE(run_moesim(dir,
                           "cosim --tokens 2 --hidden 128 --intermediate 128 --vcd t.vcd "
                           "--trace-rtl t.fst --trace-window 300:700") == 0);
  BOOST_REQUIRE(std::system(("'" + std::string(MOESIM_FST2VCD) + "' '" + (dir / "t.fst").string() +
                             "' > '" + (dir / "t.fst.vcd").string() + "' 2>/dev/null")
                                .c_str()) == 0);
  const Dump f = read_dump(slurp(dir / "t.fst.vcd"));
  // FST time unit 100 ps (Verilator --timescale 1ns/100ps): cycle c is 10 c.
  BOOST_TEST(f.timescale.find("100ps") != std::string::npos, f.timescale);
  BOOST_REQUIRE(!f.times.empty());
  BOOST_TEST(f.times.front() >= 3000u);
  BOOST_TEST(f.times.back() < 7000u);
  // Aligned with the stage VCD: where the VCD's rtl.pc changes to p at cycle c (an instruction
  // issues), the FST shows issue_valid_o = 1 and issue_pc_o = p at c ns.
  const auto v = read(dir / "t.vcd");
  size_t checked = 0;
  for (const auto& [t, pc] : v.history("rtl.pc")) {
    if (t < 310 || t >= 690) continue;
    BOOST_TEST(f.value_at("TOP.issue_valid_o", 10 * t) == "1", "cycle " << t);
    BOOST_TEST(std::stoull(f.value_at("TOP.issue_pc_o", 10 * t), nullptr, 2) ==
                   std::stoull(pc, nullptr, 2),
               "cycle " << t);
    ++checked;
  }
  BOOST_TEST(checked > 2u);
  // The save file beside the FST names signals the FST has.
  std::ifstream g(dir / "t.rtl.gtkw");
  std::string line;
  size_t traces = 0;
  std::set<std::string> names;
  for (const auto& [id, n] : f.name_of) names.insert(n);
  while (std::getline(g, line)) {
    if (line.empty() || std::string("[*@^-+").find(line[0]) != std::string::npos) continue;
    const std::string base = line.substr(0, line.find('['));
    BOOST_TEST(names.count(base) == 1u, line << " is not in the FST");
    ++traces;
  }
  BOOST_TEST(traces >= 10u);
}

BOOST_AUTO_TEST_CASE(moesim_rtl_gtkw_marks_the_first_divergence) {
  // The re-run command of a mismatch (docs/waveforms.md, the screenshot's): its FST save file
  // puts the primary marker and the named marker A on the divergent instruction's first cycle
  // (cycle 50 of this run, the divergence the stage VCD marks too), in FST picoseconds. The run
  // and its cycles are the serial machine's (`serial`, docs/overlap.md section 9).
  const fs::path dir = workdir("rtl_gtkw_marker");
  BOOST_REQUIRE(run_moesim(dir,
                           "cosim --machine serial --tokens 4 --hidden 128 --intermediate 128 "
                           "--flip-bit "
                           "rtl:hbm:453:0 --max-instructions 20 --trace-rtl d.fst "
                           "--trace-window 11:82") == 1);
  const std::string g = slurp(dir / "d.rtl.gtkw");
  BOOST_TEST(g.find("[markername] Afirst divergence\n") != std::string::npos, g);
  BOOST_TEST(g.find(" 50000 50000 -1 ") != std::string::npos, g);  // marker, then A, B unset
}

BOOST_AUTO_TEST_CASE(moesim_trace_window_rejects_bad_windows) {
  const fs::path dir = workdir("window_bad");
  const std::string run = "cosim --tokens 1 --hidden 128 --intermediate 128 ";
  for (const std::string bad :
       {"--trace-rtl t.fst --trace-window 5:3", "--trace-rtl t.fst --trace-window 5",
        "--trace-rtl t.fst --trace-window cycles:1:2", "--trace-window 1:2"}) {
    BOOST_TEST(run_moesim(dir, run + bad) == 2, bad);
    const std::string err = slurp(dir / "err.txt");
    BOOST_TEST(err.find("moesim: error: --trace-window") == 0u, bad << ": " << err);
  }
}

namespace {

/// A program with a DMA queue, run with --dma-queue 2 on default (latencies of the default
/// preset, as in testbenches/cosim/test_overlap_cli.cpp: H_PREFETCH_V 24 + 4 * 2 = 32 cycles,
/// H_STORE_V 24 + 1 + 4 * 2 = 33, V_ADD_VV 2, S_ADDI_INT / C_SET_SCALE_REG / C_LOOP_* 1; VRAM
/// row r is element address 64 r). Derived from docs/overlap.md sections 2 to 5, Q = 2:
///   pc  instruction                         core            transfer
///   0-2 S_ADDI_INT, C_SET_SCALE_REG, ADDI   [0, 3)
///   3   H_PREFETCH_V rows [0, 4)            [3, 4)          T3 [3, 35)
///   4   H_PREFETCH_V rows [8, 12)           [4, 5) (1 of 2  T4 queued from 4, [35, 67) (after
///                                           pending)        T3: FIFO), 31 cycles queued
///   5   S_ADDI_INT gp2 = 1024 (row 16)      [5, 6)
///   6   V_ADD_VV row 16 = row 0 + row 0     ready 6, RAW on T3 (rows 0..3) until 35: stall 29,
///                                           [35, 37)
///   7   C_LOOP_START 12                     [37, 38)
///   8-9 12 x (S_ADDI_INT, C_LOOP_END)       [38, 62)
///   10  V_ADD_VV row 16 = row 8 + row 16    ready 62, RAW on T4 (rows 8..11) until 67: stall
///                                           5, [67, 69)
///   11  H_STORE_V rows [16, 20)             [69, 70)        T11 [69, 102)
/// End: 102 cycles, when T11 completes.
const char* const kQueued = moesim::test::kDmaQueueProgram;

/// "t:value t:value ..." (printable in a failure message).
std::string show(const History& h) {
  std::string out;
  for (const auto& [t, value] : h) out += std::to_string(t) + ":" + value + " ";
  return out;
}

}  // namespace

// The DMA-queue track of both engines, in the VCD and the Perfetto trace, from the table above:
// pending transfers 1 from 3 (T3), 2 from 4 (T4 queued), 1 from 35 (T3 done, T4 in progress), 0
// from 67, 1 from 69 (T11), 0 from 102; the transfer in progress T3 [3, 35), T4 [35, 67), T11
// [69, 102) (dma_pc 3 then 4 at 35: the mnemonic stays H_PREFETCH_V, so it writes no change
// there); the DMA unit busy over [3, 67) and [69, 102); the core stalled (raw) in [6, 35) and
// [62, 67). A serial run's VCD has no such signals.
BOOST_AUTO_TEST_CASE(moesim_dma_queue_track_of_both_engines) {
  const fs::path dir = workdir("dma_queue_track");
  std::ofstream(dir / "q.asm") << kQueued;
  BOOST_REQUIRE(
      run_moesim(dir, "cosim --program q.asm --dma-queue 2 --vcd q.vcd --trace-json q.json") == 0);
  BOOST_TEST(slurp(dir / "out.txt").find("VERDICT: EQUAL") != std::string::npos);
  const auto v = read(dir / "q.vcd");
  const History queue{{0, "0"}, {3, "1"}, {4, "10"}, {35, "1"}, {67, "0"}, {69, "1"}, {102, "0"}};
  const History pc{{0, "z"}, {3, "11"}, {35, "100"}, {67, "z"}, {69, "1011"}, {102, "z"}};
  const History mnemonic{
      {0, "none"}, {3, "H_PREFETCH_V"}, {67, "none"}, {69, "H_STORE_V"}, {102, "none"}};
  const History busy{{0, "0"}, {3, "1"}, {67, "0"}, {69, "1"}, {102, "0"}};
  const History stall{{0, "0"}, {6, "1"}, {35, "0"}, {62, "1"}, {67, "0"}};
  const History cause{{0, "none"}, {6, "raw"}, {35, "none"}, {62, "raw"}, {67, "none"}};
  for (const std::string e : {"golden", "rtl"}) {
    BOOST_TEST_CONTEXT(e) {
      BOOST_TEST(show(v.history(e + ".dma_queue")) == show(queue));
      BOOST_TEST(show(v.history(e + ".dma_pc")) == show(pc));
      BOOST_TEST(show(v.history(e + ".dma_mnemonic")) == show(mnemonic));
      BOOST_TEST(show(v.history(e + ".dma_busy")) == show(busy));
      BOOST_TEST(show(v.history(e + ".stall")) == show(stall));
      BOOST_TEST(show(v.history(e + ".stall_cause")) == show(cause));
    }
  }
  // The trace: per engine (pid 1 golden, 2 rtl) the transfers on the "dma queue" thread, the
  // pending count, and the stalls and the drain on the stages thread.
  std::ifstream in(dir / "q.json");
  const nlohmann::json trace = nlohmann::json::parse(in);
  for (int pid : {1, 2}) {
    BOOST_TEST_CONTEXT("pid " << pid) {
      std::vector<std::string> transfers, counts, stalls, drains;
      bool named = false;
      uint64_t stages_thread = 0;  // cycles of the X slices on the stages thread (tid 1)
      for (const auto& ev : trace.at("traceEvents")) {
        if (ev.at("pid") != pid) continue;
        const std::string ph = ev.at("ph");
        if (ph == "M" && ev.at("name") == "thread_name" && ev.at("args").at("name") == "dma queue")
          named = true;
        const std::string cat = ev.value("cat", "");
        const auto str = [](const nlohmann::json& j) { return j.dump(); };
        if (ph == "X" && cat == "transfer")
          transfers.push_back(str(ev.at("name")) + " " + str(ev.at("ts")) + "+" +
                              str(ev.at("dur")) + " " + str(ev.at("args")));
        if (ph == "C" && ev.at("name") == "dma queue")
          counts.push_back(str(ev.at("ts")) + ":" + str(ev.at("args").at("pending")));
        if (ph == "X" && cat == "stall")
          stalls.push_back(str(ev.at("name")) + " " + str(ev.at("ts")) + "+" + str(ev.at("dur")) +
                           " " + str(ev.at("args")));
        if (ph == "X" && ev.at("tid") == 1) stages_thread += ev.at("dur").get<uint64_t>();
        if (ph == "X" && cat == "drain")
          drains.push_back(str(ev.at("name")) + " " + str(ev.at("ts")) + "+" + str(ev.at("dur")) +
                           " " + str(ev.at("args")));
      }
      BOOST_TEST(named);
      const std::vector<std::string> want_transfers{
          R"("H_PREFETCH_V" 3+32 {"issue_cycle":3,"pc":3,"queued_cycles":0})",
          R"("H_PREFETCH_V" 35+32 {"issue_cycle":4,"pc":4,"queued_cycles":31})",
          R"("H_STORE_V" 69+33 {"issue_cycle":69,"pc":11,"queued_cycles":0})"};
      BOOST_TEST(transfers == want_transfers, boost::test_tools::per_element());
      const std::vector<std::string> want_counts{"3:1", "4:2", "35:1", "67:0", "69:1", "102:0"};
      BOOST_TEST(counts == want_counts, boost::test_tools::per_element());
      const std::vector<std::string> want_stalls{R"("stall raw" 6+29 {"cause":"raw","pc":6})",
                                                 R"("stall raw" 62+5 {"cause":"raw","pc":10})"};
      BOOST_TEST(stalls == want_stalls, boost::test_tools::per_element());
      // The drain: H_STORE_V (stage non_moe) leaves the core in 70, its transfer T11 completes
      // in 102; those 32 cycles are billed to its stage (docs/overlap.md section 7).
      const std::vector<std::string> want_drains{R"("non_moe" 70+32 {"cycles":32,"pc":11})"};
      BOOST_TEST(drains == want_drains, boost::test_tools::per_element());
      // Stage, stall and drain slices tile the run's 102 cycles.
      BOOST_TEST(stages_thread == 102u);
    }
  }
  // Serially (--dma-queue 0) the VCD has no DMA-queue track.
  BOOST_REQUIRE(run_moesim(dir, "cosim --program q.asm --dma-queue 0 --vcd s.vcd") == 0);
  const auto s = read(dir / "s.vcd");
  for (const auto& [id, var] : s.vars) BOOST_TEST(var.path.find("dma_queue") == std::string::npos);
}
