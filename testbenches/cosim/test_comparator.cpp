// The comparator on scripted engines: equal scripts pass; a change in any one retire-record
// field, an engine stopping early, a final register or a memory byte nobody's record names is
// reported with the right index, field, history and first differing byte. Plus --flip-bit.
#include <boost/test/unit_test.hpp>
#include <map>

#include "moesim/cosim/cosim.hpp"
#include "moesim/cosim/fault.hpp"
#include "moesim/isa/assembler.hpp"
#include "moesim/isa/encoding.hpp"
#include "moesim/workload/presets.hpp"
#include "moesim_test/scripted_engine.hpp"

using namespace moesim;

namespace {

using test::ScriptedEngine;

uint32_t addi_word(unsigned rd, unsigned imm) {
  const auto& spec = isa::Spec::builtin();
  return isa::encode(spec, *spec.by_mnemonic("S_ADDI_INT"), {rd, 0, imm});
}

/// Ten records: pc i, S_ADDI_INT gp1, gp0, i, stage 1 + i/5, cycles [3i, 3i+3), writes gp1 = i
/// and HBM unit i = i + 1.
std::vector<ScriptedEngine::Step> script() {
  std::vector<ScriptedEngine::Step> s;
  for (uint32_t i = 0; i < 10; ++i) {
    ScriptedEngine::Step st;
    isa::RetireRecord& r = st.record;
    r.index = i;
    r.pc = i;
    r.word = addi_word(1, i);
    r.stage = static_cast<uint8_t>(1 + i / 5);
    r.start_cycle = 3 * i;
    r.end_cycle = 3 * i + 3;
    r.regs = {{isa::RegFile::Gp, 1, i}};
    r.mems = {{isa::Space::Hbm, i, i + 1, 0}};
    st.updates = {{isa::Space::Hbm, i, static_cast<uint8_t>(i + 1)}};
    s.push_back(st);
  }
  return s;
}

cosim::CosimResult cosim_pair(ScriptedEngine& a, ScriptedEngine& b) {
  cosim::CosimOptions o;
  o.history = 4;
  return cosim::run_cosim(isa::Spec::builtin(), a, b, o);
}

bool has(const std::vector<std::string>& v, const std::string& x) {
  return std::find(v.begin(), v.end(), x) != v.end();
}

}  // namespace

BOOST_AUTO_TEST_CASE(comparator_equal_scripts_pass) {
  ScriptedEngine a("golden", script()), b("rtl", script());
  const auto r = cosim_pair(a, b);
  BOOST_TEST(r.completed);
  BOOST_TEST(!r.divergence.has_value());
  BOOST_TEST(r.outputs_bit_exact());
  BOOST_TEST(r.cycles_match());
  BOOST_TEST(r.compared == 10u);
  BOOST_TEST(r.total_cycles[0] == 30u);
  BOOST_REQUIRE(r.stages.size() == 2u);
  BOOST_TEST(r.stages[0].name == isa::Spec::builtin().stage_by_code(1)->name);
  BOOST_TEST(r.stages[0].instructions[0] == 5u);
  BOOST_TEST(r.stages[0].cycles[1] == 15u);
  for (const auto& s : r.spaces) BOOST_TEST(s.equal());
}

BOOST_AUTO_TEST_CASE(comparator_reports_each_record_field) {
  // One mutation of record 6 of engine b per case: the field the comparator must name.
  using Mutation = std::function<void(ScriptedEngine::Step&)>;
  const std::vector<std::pair<std::string, Mutation>> cases = {
      {"pc", [](auto& s) { s.record.pc += 1; }},
      {"word", [](auto& s) { s.record.word = addi_word(2, 6); }},
      {"stage", [](auto& s) { s.record.stage = 9; }},
      {"start_cycle", [](auto& s) { s.record.start_cycle += 1; }},
      {"end_cycle", [](auto& s) { s.record.end_cycle += 1; }},
      {"regs", [](auto& s) { s.record.regs[0].value ^= 0x100; }},
      {"mems", [](auto& s) { std::get<2>(s.updates[0]) ^= 0x10; }},  // same range, other data
      {"mems", [](auto& s) { s.record.mems[0].end += 1; }},          // other range
      {"trap",
       [](auto& s) {
         s.record.trap = isa::Trap{2, 6, s.record.word};
       }},
  };
  for (const auto& [field, mutate] : cases) {
    BOOST_TEST_CONTEXT("field " << field) {
      auto sb = script();
      mutate(sb[6]);
      ScriptedEngine a("golden", script()), b("rtl", sb);
      const auto r = cosim_pair(a, b);
      BOOST_REQUIRE(r.divergence.has_value());
      const auto& d = *r.divergence;
      BOOST_TEST(d.index == 6u);
      BOOST_TEST(d.fields.size() == 1u);
      BOOST_TEST(has(d.fields, field));
      BOOST_TEST(!d.details.empty());
      BOOST_TEST(d.history[0].size() == 4u);  // --history 4: records 2..5
      BOOST_TEST(d.history[1].front().pc == 2u);
      BOOST_REQUIRE(d.records[0].has_value());
      BOOST_REQUIRE(d.records[1].has_value());
      BOOST_TEST(d.records[0]->pc == 6u);
      BOOST_TEST(!r.completed);
      BOOST_TEST(!r.outputs_bit_exact());
      BOOST_TEST(!r.cycles_match());
      BOOST_TEST(r.compared == 6u);
    }
  }
}

BOOST_AUTO_TEST_CASE(comparator_names_first_differing_byte_of_a_range) {
  auto sb = script();
  std::get<2>(sb[3].updates[0]) = 0x55;
  ScriptedEngine a("golden", script()), b("rtl", sb);
  const auto r = cosim_pair(a, b);
  BOOST_REQUIRE(r.divergence.has_value());
  bool named = false;
  for (const auto& line : r.divergence->details)
    named |= line.find("hbm unit 3 byte 0") != std::string::npos &&
             line.find("golden 0x4,") != std::string::npos &&
             line.find("rtl 0x55") != std::string::npos;
  BOOST_TEST(named);
  // The final comparison at the stop sees the same byte.
  const auto& hbm = r.spaces[static_cast<size_t>(isa::Space::Hbm)];
  BOOST_TEST(hbm.differing_bytes == 1u);
  BOOST_TEST(*hbm.first_byte == 6u);
}

BOOST_AUTO_TEST_CASE(comparator_reports_an_engine_stopping_early) {
  auto sb = script();
  sb.resize(7);
  ScriptedEngine a("golden", script()), b("rtl", sb);
  const auto r = cosim_pair(a, b);
  BOOST_REQUIRE(r.divergence.has_value());
  BOOST_TEST(r.divergence->index == 7u);
  BOOST_TEST(has(r.divergence->fields, "retired"));
  BOOST_TEST(r.divergence->records[0].has_value());
  BOOST_TEST(!r.divergence->records[1].has_value());
}

BOOST_AUTO_TEST_CASE(comparator_final_state_catches_unrecorded_writes) {
  ScriptedEngine a("golden", script()), b("rtl", script());
  b.mem_[isa::Space::Vram][37] = 0xAB;  // a write no retire record names
  b.regs_.fp[3] = 0x3F80;
  const auto r = cosim_pair(a, b);
  BOOST_TEST(r.completed);
  BOOST_TEST(!r.divergence.has_value());
  BOOST_TEST(r.cycles_match());
  BOOST_TEST(!r.outputs_bit_exact());
  const auto& vram = r.spaces[static_cast<size_t>(isa::Space::Vram)];
  BOOST_TEST(vram.differing_bytes == 1u);
  BOOST_TEST(*vram.first_byte == 37u);
  BOOST_TEST(vram.first_values[1] == 0xABu);
  BOOST_REQUIRE(r.reg_diffs.size() == 1u);
  BOOST_TEST(r.reg_diffs[0].name == "f3");
}

BOOST_AUTO_TEST_CASE(comparator_requires_equal_stage_profiles) {
  ScriptedEngine a("golden", script()), b("rtl", script());
  const auto same = cosim_pair(a, b);
  BOOST_TEST(same.profiles_match());
  // Stage 1 (records 0..4) wrote HBM units 0..4 (one byte each), stage 2 units 5..9.
  BOOST_REQUIRE(same.stages.size() == 2u);
  BOOST_TEST(same.stages[0].hbm_written[0] == 5u);
  BOOST_TEST(same.stages[1].hbm_written[1] == 5u);
  // One engine reporting HBM bytes the other did not move: outputs and cycles still agree, the
  // profiles do not, and the run is not equal.
  ScriptedEngine c("golden", script()), d("rtl", script());
  d.hbm_read_ = 64;
  const auto r = cosim_pair(c, d);
  BOOST_TEST(r.outputs_bit_exact());
  BOOST_TEST(r.cycles_match());
  BOOST_TEST(!r.profiles_match());
  BOOST_TEST(!r.equal());
  BOOST_TEST(r.stages[0].hbm_read[1] == 64u);
  BOOST_TEST(r.stages[0].hbm_read[0] == 0u);
}

BOOST_AUTO_TEST_CASE(flip_bit_parses_and_applies) {
  const auto f = cosim::parse_bit_flip("rtl:hbm:0x10:3");
  BOOST_TEST(f.engine == "rtl");
  BOOST_TEST(f.byte == 16u);
  BOOST_TEST(f.bit == 3u);
  isa::MemoryImage img;
  img.hbm.push_back({8, std::vector<uint8_t>(16, 0x01)});
  cosim::apply_bit_flip(f, 1024, img);
  BOOST_TEST(img.hbm[0].bytes[8] == 0x09);
  cosim::apply_bit_flip(cosim::parse_bit_flip("golden:hbm:100:0"), 1024, img);  // uncovered byte
  BOOST_REQUIRE(img.hbm.size() == 2u);
  BOOST_TEST(img.hbm[1].base == 100u);
  BOOST_TEST(img.hbm[1].bytes[0] == 0x01);
  for (const char* bad :
       {"rtl:hbm:1", "cpu:hbm:1:0", "rtl:dram:1:0", "rtl:hbm:x:0", "rtl:hbm:1:8", "rtl:hbm:-1:0"})
    BOOST_CHECK_THROW(cosim::parse_bit_flip(bad), UsageError);
  BOOST_CHECK_THROW(cosim::apply_bit_flip(f, 16, img), UsageError);  // outside the space
}
