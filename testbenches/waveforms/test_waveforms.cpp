// moesim_waveforms: streaming VCD writer (every signal, streaming bound), stage translate filter,
// GTKWave save file, GTKWave's own vcd2fst / fst2vcd on a written VCD, and the strict VCD reader
// the waveform and cosim tests use (which must itself reject malformed files, or the VCD checks
// prove nothing).
#define BOOST_TEST_MODULE waveforms
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <boost/test/unit_test.hpp>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include "moesim/isa/spec.hpp"
#include "moesim/waveforms/vcd.hpp"
#include "vcd_reader.hpp"

namespace fs = std::filesystem;
using moesim::test::read_vcd_strict;
using moesim::test::VcdData;
using moesim::waveforms::InstructionValues;
using moesim::waveforms::VcdWriter;

namespace {

fs::path scratch(const std::string& name) {
  fs::path dir = fs::temp_directory_path() / ("moesim_waveforms_" + std::to_string(getpid()));
  fs::create_directories(dir);
  return dir / name;
}

const moesim::isa::Spec& spec() { return moesim::isa::Spec::builtin(); }

/// Bits needed for the largest stage code of stages.yaml (the stage_code width).
unsigned stage_code_bits() {
  unsigned max_code = 0, bits = 1;
  for (const auto& st : spec().stages()) max_code = std::max<unsigned>(max_code, st.code);
  while ((max_code >> bits) != 0) ++bits;
  return bits;
}

std::string slurp(const fs::path& p) {
  std::ifstream in(p);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

VcdData read(const fs::path& p) {
  std::ifstream in(p);
  BOOST_REQUIRE_MESSAGE(in, "cannot read " << p);
  return read_vcd_strict(in);
}

/// The final value of `path` in `d`, or the empty string.
std::string last_value(const VcdData& d, const std::string& path) {
  const auto& ch = d.history(path);
  return ch.empty() ? "" : ch.back().second;
}

using History = std::vector<std::pair<uint64_t, std::string>>;

InstructionValues ins(uint8_t code, std::string_view stage, uint32_t pc,
                      std::string_view mnemonic = "S_ADD", int32_t token = -1, int32_t slot = -1,
                      int32_t expert = -1) {
  InstructionValues v;
  v.stage_code = code;
  v.stage = stage;
  v.pc = pc;
  v.mnemonic = mnemonic;
  v.token = token;
  v.slot = slot;
  v.expert = expert;
  return v;
}

/// Runs `cmd` through the shell; returns its exit status (-1 if it did not exit normally).
int run(const std::string& cmd) {
  const int st = std::system(cmd.c_str());
  return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

}  // namespace

BOOST_AUTO_TEST_CASE(vcd_writer_merges_scopes_in_time_order) {
  const fs::path p = scratch("merge.vcd");
  const std::vector<std::string> units{"vector", "dma"};
  {
    VcdWriter w(p, {"golden", "rtl"}, spec().stages(), units);
    // Lockstep feed: golden then rtl for each instruction; rtl runs 1 cycle late from pc 2 on.
    // Every instruction keeps `vector` busy for its whole length, every 10th one starts a DMA
    // span reaching 25 cycles into the future (pending falls).
    size_t max_buffered = 0;
    uint64_t tg = 0, tr = 0;
    for (uint32_t pc = 0; pc < 200; ++pc) {
      const uint8_t code = static_cast<uint8_t>(pc / 50 + 1);
      const std::string stage = "s" + std::to_string(code);
      const uint64_t len_r = pc >= 2 ? 3 : 4;
      w.instruction(0, tg, ins(code, stage, pc));
      w.unit_busy(0, 0, tg, tg + 3);
      if (pc % 10 == 0) w.unit_busy(0, 1, tg, tg + 25);
      w.instruction(1, tr, ins(code, stage, pc));
      w.unit_busy(1, 0, tr, tr + len_r);
      if (pc % 10 == 0) w.unit_busy(1, 1, tr, tr + 25);
      max_buffered = std::max(max_buffered, w.buffered());
      tg += 3;
      tr += len_r;
    }
    w.mismatch(tg);
    w.finish(tg + 3);
    BOOST_TEST_MESSAGE("max buffered events: " << max_buffered);
    BOOST_TEST(max_buffered <= 16u);  // streaming: a few per scope, never the whole run
  }
  const auto d = read(p);
  BOOST_TEST(d.timescale == "1ns");
  BOOST_TEST(d.vars.at(d.id_of("golden.stage")).type == "string");
  BOOST_TEST(d.vars.at(d.id_of("rtl.stage_code")).width == stage_code_bits());
  BOOST_TEST(d.vars.at(d.id_of("rtl.pc")).width == 32u);
  BOOST_TEST(last_value(d, "golden.stage") == "s4");
  BOOST_TEST(last_value(d, "golden.stage_code") == "100");
  BOOST_TEST(last_value(d, "rtl.pc") == "11000111");  // 199
  BOOST_TEST(last_value(d, "mismatch") == "1");
  BOOST_TEST(d.history("mismatch").back().first == 600u);
  BOOST_TEST(d.last_time == 603u);
  // pc changes only where it changes: 199 changes + the $dumpvars value per scope.
  BOOST_TEST(d.history("golden.pc").size() == 200u);
  // Back-to-back vector spans keep the line high: one rise at 0, one fall at the end.
  BOOST_TEST((d.history("golden.vector_busy") == History{{0, "1"}, {600, "0"}}));
  BOOST_TEST((d.history("rtl.vector_busy") == History{{0, "1"}, {602, "0"}}));
  // DMA: [30i, 30i+25) on golden.
  BOOST_TEST(d.value_at("golden.dma_busy", 24) == "1");
  BOOST_TEST(d.value_at("golden.dma_busy", 25) == "0");
  BOOST_TEST(d.value_at("golden.dma_busy", 30) == "1");
  BOOST_TEST(d.history("golden.dma_busy").size() == 1u + 2u * 20u - 1u);
}

BOOST_AUTO_TEST_CASE(vcd_writer_declares_every_signal_per_scope) {
  const fs::path p = scratch("decl.vcd");
  std::vector<std::string> names;
  {
    VcdWriter w(p, {"golden", "rtl"}, spec().stages(), spec().units());
    for (const auto& s : w.signals()) names.push_back(s.gtkwave_name());
    w.finish(1);
  }
  const auto d = read(p);
  BOOST_TEST(d.vars.size() == names.size());
  for (const std::string scope : {"golden", "rtl"}) {
    for (const char* n : {"stage", "mnemonic", "trap_cause"})
      BOOST_TEST(d.vars.at(d.id_of(scope + "." + n)).type == "string");
    for (const char* n : {"pc", "token", "slot", "expert"})
      BOOST_TEST(d.vars.at(d.id_of(scope + "." + n)).width == 32u);
    BOOST_TEST(d.vars.at(d.id_of(scope + ".trap")).width == 1u);
    for (const auto& u : spec().units())
      BOOST_TEST(d.vars.at(d.id_of(scope + "." + u + "_busy")).width == 1u);
    // Initial values.
    BOOST_TEST(d.value_at(scope + ".stage", 0) == spec().stage_by_code(0)->name);
    BOOST_TEST(d.value_at(scope + ".mnemonic", 0) == "none");
    BOOST_TEST(d.value_at(scope + ".token", 0) == "z");
    BOOST_TEST(d.value_at(scope + ".trap", 0) == "0");
    BOOST_TEST(d.value_at(scope + ".trap_cause", 0) == "none");
  }
  BOOST_TEST(d.vars.at(d.id_of("mismatch")).width == 1u);
}

BOOST_AUTO_TEST_CASE(vcd_work_items_are_z_when_none) {
  const fs::path p = scratch("work.vcd");
  {
    VcdWriter w(p, {"golden"}, spec().stages(), spec().units());
    w.instruction(0, 0, ins(1, "a", 0, "S_ADD"));
    w.instruction(0, 4, ins(4, "gather", 1, "V_GATHER", 5, 1, -1));
    w.instruction(0, 9, ins(7, "proj", 2, "M_MM", 5, 1, 17));
    w.instruction(0, 12, ins(7, "proj", 3, "M_MM", -1, -1, -1));
    w.finish(15);
  }
  const auto d = read(p);
  BOOST_TEST((d.history("golden.token") == History{{0, "z"}, {4, "101"}, {12, "z"}}));
  BOOST_TEST((d.history("golden.slot") == History{{0, "z"}, {4, "1"}, {12, "z"}}));
  BOOST_TEST((d.history("golden.expert") == History{{0, "z"}, {9, "10001"}, {12, "z"}}));
  BOOST_TEST((d.history("golden.mnemonic") == History{{0, "S_ADD"}, {4, "V_GATHER"}, {9, "M_MM"}}));
  BOOST_TEST((d.history("golden.stage") == History{{0, "a"}, {4, "gather"}, {9, "proj"}}));
}

BOOST_AUTO_TEST_CASE(vcd_busy_lines_follow_spans_without_glitches) {
  const fs::path p = scratch("busy.vcd");
  {
    VcdWriter w(p, {"golden", "rtl"}, spec().stages(), {"scalar", "matrix", "dma"});
    w.instruction(0, 0, ins(0, "other", 0));
    w.unit_busy(0, 0, 0, 2);  // busy from time 0: in $dumpvars
    w.instruction(1, 0, ins(0, "other", 0));
    w.instruction(0, 2, ins(0, "other", 1));
    w.unit_busy(0, 1, 2, 6);
    w.unit_busy(0, 2, 2, 20);  // falls long after the next instructions
    w.instruction(1, 2, ins(0, "other", 1));
    w.instruction(0, 6, ins(0, "other", 2));
    w.unit_busy(0, 1, 6, 9);   // fall and rise at 6: no change written
    w.unit_busy(0, 2, 6, 10);  // overlaps the open DMA span
    w.instruction(1, 6, ins(0, "other", 2));
    w.instruction(0, 9, ins(0, "other", 3));
    w.instruction(1, 9, ins(0, "other", 3));
    w.finish(25);
  }
  const auto d = read(p);  // the reader rejects two values for one signal at one time
  BOOST_TEST((d.history("golden.scalar_busy") == History{{0, "1"}, {2, "0"}}));
  BOOST_TEST((d.history("golden.matrix_busy") == History{{0, "0"}, {2, "1"}, {9, "0"}}));
  BOOST_TEST((d.history("golden.dma_busy") == History{{0, "0"}, {2, "1"}, {20, "0"}}));
  BOOST_TEST((d.history("rtl.matrix_busy") == History{{0, "0"}}));
  BOOST_TEST(d.last_time == 25u);
}

BOOST_AUTO_TEST_CASE(vcd_trap_sets_trap_and_cause) {
  const fs::path p = scratch("trap.vcd");
  {
    VcdWriter w(p, {"golden", "rtl"}, spec().stages(), spec().units());
    w.instruction(0, 0, ins(0, "other", 0));
    w.instruction(1, 0, ins(0, "other", 0));
    w.instruction(0, 7, ins(0, "other", 1, "V_TOPK"));
    w.trap(0, 7, "topk_policy_unset");
    w.instruction(1, 7, ins(0, "other", 1, "V_TOPK"));
    w.finish(7);
  }
  const auto d = read(p);
  BOOST_TEST((d.history("golden.trap") == History{{0, "0"}, {7, "1"}}));
  BOOST_TEST((d.history("golden.trap_cause") == History{{0, "none"}, {7, "topk_policy_unset"}}));
  BOOST_TEST((d.history("rtl.trap") == History{{0, "0"}}));
  BOOST_TEST(d.last_time == 7u);
}

BOOST_AUTO_TEST_CASE(vcd_writer_rejects_time_going_back) {
  const fs::path p = scratch("back.vcd");
  VcdWriter w(p, {"golden"}, spec().stages(), {"dma"});
  w.instruction(0, 10, ins(1, "a", 0));
  BOOST_CHECK_THROW(w.instruction(0, 9, ins(1, "a", 1)), std::invalid_argument);
  BOOST_CHECK_THROW(w.instruction(0, 11, ins(uint8_t(1u << stage_code_bits()), "a", 1)),
                    std::invalid_argument);  // wider than stage_code
  BOOST_CHECK_THROW(w.instruction(3, 11, ins(1, "a", 1)), std::invalid_argument);
  BOOST_CHECK_THROW(w.instruction(0, 11, ins(1, "a", 1, "two words")), std::invalid_argument);
  BOOST_CHECK_THROW(w.unit_busy(0, 0, 9, 12), std::invalid_argument);   // before pc 0's start
  BOOST_CHECK_THROW(w.unit_busy(0, 0, 12, 12), std::invalid_argument);  // empty
  BOOST_CHECK_THROW(w.unit_busy(0, 1, 12, 13), std::invalid_argument);  // no such unit
  BOOST_CHECK_THROW(w.trap(0, 9, "x"), std::invalid_argument);
  BOOST_CHECK_THROW(VcdWriter(scratch("bad.vcd"), {"a b"}, spec().stages(), {}),
                    std::invalid_argument);
  BOOST_CHECK_THROW(VcdWriter(scratch("bad.vcd"), {"a"}, spec().stages(), {"u", "u"}),
                    std::invalid_argument);
}

BOOST_AUTO_TEST_CASE(stage_filter_lists_every_stage_of_stages_yaml) {
  BOOST_TEST(moesim::waveforms::stage_filter_path("dir/t.vcd") == fs::path("dir/t.stages.filter"));
  const fs::path p = scratch("t.stages.filter");
  moesim::waveforms::write_stage_filter(p, spec().stages());
  std::istringstream in(slurp(p));
  std::map<unsigned, std::string> got;
  std::string hex, name;
  while (in >> hex >> name) got[static_cast<unsigned>(std::stoul(hex, nullptr, 16))] = name;
  BOOST_TEST(got.size() == spec().stages().size());
  for (const auto& s : spec().stages()) BOOST_TEST(got[s.code] == s.name);
}

BOOST_AUTO_TEST_CASE(gtkw_names_only_signals_of_the_vcd) {
  namespace wf = moesim::waveforms;
  BOOST_TEST(wf::gtkw_path("dir/t.vcd") == fs::path("dir/t.gtkw"));
  const fs::path vcd = scratch("layout.vcd");
  const fs::path filter = wf::stage_filter_path(vcd);
  std::vector<std::string> returned;
  {
    VcdWriter w(vcd, {"golden", "rtl"}, spec().stages(), spec().units());
    wf::write_stage_filter(filter, spec().stages());
    returned = wf::write_gtkw(wf::gtkw_path(vcd), vcd, filter, w.signals());
    w.finish(1);
  }
  const auto d = read(vcd);
  std::map<std::string, unsigned> widths;  // GTKWave name -> width
  for (const auto& [id, v] : d.vars) {
    const bool vec = v.type != "string" && v.width > 1;
    widths[vec ? v.path + "[" + std::to_string(v.width - 1) + ":0]" : v.path] = v.width;
  }
  // Parse the save file: trace lines, the filter attached to the next trace, groups.
  std::istringstream in(slurp(wf::gtkw_path(vcd)));
  std::string line, pending_filter, dumpfile;
  std::vector<std::string> traces, groups;
  std::map<std::string, std::string> filter_of;
  unsigned open_groups = 0;
  std::string flags;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '[' || line[0] == '*') {
      if (line.rfind("[dumpfile] ", 0) == 0) dumpfile = line.substr(11);
    } else if (line[0] == '@') {
      flags = line.substr(1);
    } else if (line[0] == '^') {
      BOOST_TEST(line.rfind("^1 ", 0) == 0u);
      pending_filter = line.substr(3);
    } else if (line[0] == '-') {
      const unsigned long f = std::stoul(flags, nullptr, 16);
      if (f & 0x800000) {
        groups.push_back(line.substr(1));
        ++open_groups;
      } else if (f & 0x1000000) {
        BOOST_TEST(open_groups > 0u);
        --open_groups;
      }
    } else {
      if (line[0] == '+') {  // +{alias} name: the alias is "scope name"
        std::string alias = line.substr(2, line.find('}') - 2);
        line = line.substr(line.find("} ") + 2);
        alias[alias.find(' ')] = '.';
        BOOST_TEST(line.rfind(alias, 0) == 0u, alias << " is not the name of " << line);
      }
      traces.push_back(line);
      if (!pending_filter.empty()) filter_of[line] = pending_filter;
      pending_filter.clear();
    }
  }
  BOOST_TEST(open_groups == 0u);
  BOOST_TEST(groups.empty());
  // Golden and RTL signals of the same kind are adjacent: mismatch, then golden.x, rtl.x, ...
  BOOST_REQUIRE(traces.size() % 2 == 1u);
  BOOST_TEST(traces[0] == "mismatch");
  for (size_t i = 1; i + 1 < traces.size(); i += 2) {
    BOOST_TEST(traces[i].rfind("golden.", 0) == 0u, traces[i]);
    BOOST_TEST(traces[i + 1] == "rtl." + traces[i].substr(7));
  }
  BOOST_TEST(dumpfile == "\"" + fs::absolute(vcd).string() + "\"");
  BOOST_TEST(traces == returned);
  for (const auto& t : traces)
    BOOST_TEST(widths.count(t) == 1u,
               "the .gtkw names " << t << ", which the VCD does not declare");
  // Every VCD signal is laid out exactly once.
  BOOST_TEST(std::set<std::string>(traces.begin(), traces.end()).size() == traces.size());
  BOOST_TEST(traces.size() == widths.size());
  const std::string code = "[" + std::to_string(stage_code_bits() - 1) + ":0]";
  BOOST_TEST(filter_of.size() == 2u);
  for (const std::string scope : {"golden", "rtl"})
    BOOST_TEST(filter_of[scope + ".stage_code" + code] == fs::absolute(filter).string());
  BOOST_TEST(fs::exists(filter));
}

BOOST_AUTO_TEST_CASE(gtkwave_vcd2fst_reads_written_vcd) {
  const std::string vcd2fst = MOESIM_VCD2FST, fst2vcd = MOESIM_FST2VCD;
  BOOST_REQUIRE_MESSAGE(!vcd2fst.empty() && !fst2vcd.empty(),
                        "vcd2fst / fst2vcd not found at configure time: install gtkwave "
                        "(scripts/setup.sh) and re-run cmake");
  const fs::path vcd = scratch("tool.vcd"), fst = scratch("tool.fst"), back = scratch("back.vcd");
  {
    VcdWriter w(vcd, {"golden", "rtl"}, spec().stages(), spec().units());
    for (uint32_t pc = 0; pc < 20; ++pc) {
      for (size_t e = 0; e < 2; ++e) {
        w.instruction(e, pc * 4,
                      ins(static_cast<uint8_t>(pc % 16), "st" + std::to_string(pc % 3), pc,
                          pc % 2 ? "M_MM" : "V_ADD", pc % 5 ? int32_t(pc) : -1));
        w.unit_busy(e, pc % spec().units().size(), pc * 4, pc * 4 + 4);
      }
    }
    w.trap(1, 76, "loop_underflow");
    w.mismatch(76);
    w.finish(80);
  }
  fs::remove(fst);
  const std::string log = scratch("tool.log").string();
  BOOST_TEST_REQUIRE(run("'" + vcd2fst + "' '" + vcd.string() + "' '" + fst.string() + "' >'" +
                         log + "' 2>&1") == 0,
                     "vcd2fst failed: " << slurp(log));
  BOOST_TEST_REQUIRE(fs::exists(fst));
  BOOST_TEST(fs::file_size(fst) > 0u);
  BOOST_TEST_REQUIRE(run("'" + fst2vcd + "' -f '" + fst.string() + "' -o '" + back.string() +
                         "' >'" + log + "' 2>&1") == 0,
                     "fst2vcd failed: " << slurp(log));
  const auto a = read(vcd), b = read(back);
  std::set<std::string> names_a, names_b;
  for (const auto& [id, v] : a.vars) names_a.insert(v.path);
  for (const auto& [id, v] : b.vars) names_b.insert(v.path);
  BOOST_TEST(names_a == names_b);
  BOOST_TEST(b.last_time == a.last_time);
  BOOST_TEST(b.value_at("rtl.trap_cause", 80) == "loop_underflow");
  BOOST_TEST(b.value_at("golden.mnemonic", 5) == "M_MM");
}

BOOST_AUTO_TEST_CASE(strict_reader_rejects_malformed_vcd) {
  const std::string head =
      "$timescale 1ns $end\n$scope module g $end\n$var wire 4 ! c $end\n"
      "$var string 1 \" s $end\n$upscope $end\n$enddefinitions $end\n";
  auto rejects = [](const std::string& text, const std::string& why) {
    std::istringstream in(text);
    try {
      read_vcd_strict(in);
    } catch (const std::runtime_error& e) {
      BOOST_TEST_MESSAGE("rejected (" << why << "): " << e.what());
      return true;
    }
    return false;
  };
  {
    std::istringstream ok(head + "#0\nb0 !\nsother \"\n#5\nb1 !\n#6\nbx !\n");
    const auto d = read_vcd_strict(ok);
    BOOST_TEST(d.value_at("g.c", 6) == "x");
    BOOST_TEST(d.value_at("g.s", 6) == "other");
  }
  {
    std::istringstream ok(
        "$timescale 1ns $end\n$var string 0 ! s $end\n$var wire 8 \" w [7:0] $end\n"
        "$enddefinitions $end\n#0\nsa !\nb1 \"\n");
    BOOST_CHECK_NO_THROW(read_vcd_strict(ok));  // fst2vcd's string width and a bit range
  }
  BOOST_TEST(rejects("$timescale 1ns $end\n$var wire 1 ! a $end\n#0\n0!\n", "no $enddefinitions"));
  BOOST_TEST(
      rejects("$scope module g $end\n$var wire 1 ! a $end\n$upscope $end\n"
              "$enddefinitions $end\n#0\n0!\n",
              "no timescale"));
  BOOST_TEST(rejects(head + "#5\nb1 !\n#5\nb0 !\n", "time not increasing"));
  BOOST_TEST(rejects(head + "#5\nb1 !\n#4\nb0 !\n", "time going back"));
  BOOST_TEST(rejects(head + "#0\nb1 %\n", "undeclared id"));
  BOOST_TEST(rejects(head + "b1 !\n#0\n", "change before a timestamp"));
  BOOST_TEST(rejects(head + "#0\nb11111 !\n", "too wide"));
  BOOST_TEST(rejects(head + "#0\nb1 \"\n", "binary into a string"));
  BOOST_TEST(rejects(head + "#0\nx\"\n", "x into a string"));
  BOOST_TEST(rejects(head + "#0\nsx !\n", "string into a wire"));
  BOOST_TEST(rejects(head + "#0\nb2 !\n", "bad binary digit"));
  BOOST_TEST(rejects(head + "#0\n$dumpvars\nb1 !\n", "unterminated $dumpvars"));
  BOOST_TEST(rejects(head + "#0\n$dumpvars\nb0 !\n$end\nb1 !\n", "two values at one time"));
  BOOST_TEST(rejects(head + "#0\nsa \"\nsb \"\n", "two strings at one time"));
  BOOST_TEST(
      rejects("$timescale 1ns $end\n$scope module g $end\n$var wire 1 ! a $end\n"
              "$enddefinitions $end\n#0\n",
              "unclosed scope"));
  BOOST_TEST(
      rejects("$timescale 1ns $end\n$var wire 1 ! a $end\n$var wire 1 \" a $end\n"
              "$enddefinitions $end\n#0\n",
              "one name declared twice"));
  BOOST_TEST(rejects("$timescale 1ns $end\n$var wire 8 ! a [3:0] $end\n$enddefinitions $end\n#0\n",
                     "range not matching the width"));
  BOOST_TEST(rejects("$timescale 1ns $end\n$var wire 0 ! a $end\n$enddefinitions $end\n#0\n",
                     "wire of width 0"));
}
