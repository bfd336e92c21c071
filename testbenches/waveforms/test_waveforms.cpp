// moesim_waveforms: streaming VCD writer, stage translate filter, and the strict VCD reader the
// cosim tests use (which must itself reject malformed files, or the VCD checks prove nothing).
#define BOOST_TEST_MODULE cosim_waveforms
#include <algorithm>
#include <boost/test/unit_test.hpp>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "moesim/isa/spec.hpp"
#include "moesim/waveforms/vcd.hpp"
#include "vcd_reader.hpp"

namespace fs = std::filesystem;
using moesim::test::read_vcd_strict;
using moesim::waveforms::VcdWriter;

namespace {

fs::path scratch(const std::string& name) {
  fs::path dir = fs::temp_directory_path() / ("moesim_cosim_waveforms_" + std::to_string(getpid()));
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

/// The final value of `path` in `d`, or the empty string.
std::string last_value(const moesim::test::VcdData& d, const std::string& path) {
  const auto& ch = d.changes.at(d.id_of(path));
  return ch.empty() ? "" : ch.back().second;
}

}  // namespace

BOOST_AUTO_TEST_CASE(vcd_writer_merges_scopes_in_time_order) {
  const fs::path p = scratch("merge.vcd");
  {
    VcdWriter w(p, {"golden", "rtl"}, spec().stages());
    // Lockstep feed: golden then rtl for each instruction; rtl runs 1 cycle late from pc 2 on.
    size_t max_buffered = 0;
    uint64_t tg = 0, tr = 0;
    for (uint32_t pc = 0; pc < 200; ++pc) {
      const uint8_t code = static_cast<uint8_t>(pc / 50 + 1);
      const std::string stage = "s" + std::to_string(code);
      w.instruction(0, tg, code, stage, pc);
      w.instruction(1, tr, code, stage, pc);
      max_buffered = std::max(max_buffered, w.buffered());
      tg += 3;
      tr += pc >= 2 ? 3 : 4;
    }
    w.mismatch(tg);
    w.finish(tg + 3);
    BOOST_TEST(max_buffered <= 4u);  // streaming: never the whole run
  }
  std::ifstream in(p);
  const auto d = read_vcd_strict(in);
  BOOST_TEST(d.timescale == "1ns");
  BOOST_TEST(d.vars.at(d.id_of("golden.stage")).type == "string");
  BOOST_TEST(d.vars.at(d.id_of("rtl.stage_code")).width == stage_code_bits());
  BOOST_TEST(d.vars.at(d.id_of("rtl.pc")).width == 32u);
  BOOST_TEST(last_value(d, "golden.stage") == "s4");
  BOOST_TEST(last_value(d, "golden.stage_code") == "100");
  BOOST_TEST(last_value(d, "rtl.pc") == "11000111");  // 199
  BOOST_TEST(last_value(d, "mismatch") == "1");
  BOOST_TEST(d.changes.at(d.id_of("mismatch")).back().first == 600u);
  BOOST_TEST(d.last_time == 603u);
  // pc changes only where it changes: 199 changes + the $dumpvars value per scope.
  BOOST_TEST(d.changes.at(d.id_of("golden.pc")).size() == 200u);
}

BOOST_AUTO_TEST_CASE(vcd_writer_rejects_time_going_back) {
  const fs::path p = scratch("back.vcd");
  VcdWriter w(p, {"golden"}, spec().stages());
  w.instruction(0, 10, 1, "a", 0);
  BOOST_CHECK_THROW(w.instruction(0, 9, 1, "a", 1), std::invalid_argument);
  BOOST_CHECK_THROW(w.instruction(0, 11, uint8_t(1u << stage_code_bits()), "a", 1),
                    std::invalid_argument);  // wider than stage_code
  BOOST_CHECK_THROW(w.instruction(3, 11, 1, "a", 1), std::invalid_argument);
  BOOST_CHECK_THROW(VcdWriter(scratch("bad.vcd"), {"a b"}, spec().stages()), std::invalid_argument);
}

BOOST_AUTO_TEST_CASE(stage_filter_lists_every_stage_of_stages_yaml) {
  const auto& spec = moesim::isa::Spec::builtin();
  BOOST_TEST(moesim::waveforms::stage_filter_path("dir/t.vcd") == fs::path("dir/t.stages.filter"));
  const fs::path p = scratch("t.stages.filter");
  moesim::waveforms::write_stage_filter(p, spec.stages());
  std::istringstream in(slurp(p));
  std::map<unsigned, std::string> got;
  std::string hex, name;
  while (in >> hex >> name) got[static_cast<unsigned>(std::stoul(hex, nullptr, 16))] = name;
  BOOST_TEST(got.size() == spec.stages().size());
  for (const auto& s : spec.stages()) BOOST_TEST(got[s.code] == s.name);
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
    std::istringstream ok(head + "#0\nb0 !\nsother \"\n#5\nb1 !\n");
    BOOST_CHECK_NO_THROW(read_vcd_strict(ok));
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
  BOOST_TEST(rejects(head + "#0\nsx !\n", "string into a wire"));
  BOOST_TEST(rejects(head + "#0\n$dumpvars\nb1 !\n", "unterminated $dumpvars"));
  BOOST_TEST(rejects(head + "#0\n$dumpvars\nb0 !\n$end\nb1 !\n", "two values at one time"));
  BOOST_TEST(
      rejects("$timescale 1ns $end\n$scope module g $end\n$var wire 1 ! a $end\n"
              "$enddefinitions $end\n#0\n",
              "unclosed scope"));
}
