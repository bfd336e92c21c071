// The comparator on scripted engines: equal scripts pass; a change in any one retire-record
// field, an engine stopping early, a final register or a memory byte nobody's record names is
// reported with the right index, field, history and first differing byte. Plus --flip-bit.
#include <array>
#include <boost/test/unit_test.hpp>
#include <map>

#include "moesim/cosim/cosim.hpp"
#include "moesim/cosim/fault.hpp"
#include "moesim/isa/assembler.hpp"
#include "moesim/isa/encoding.hpp"
#include "moesim/isa/format.hpp"
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

BOOST_AUTO_TEST_CASE(comparator_decodes_the_divergent_records) {
  // Record 3 of rtl writes HBM unit 3 = 0x55 instead of 0x04; record 5 rewrites unit 1 in both
  // scripts, and in rtl with 0x66: its previous writer is record 1.
  auto sa = script(), sb = script();
  std::get<2>(sb[3].updates[0]) = 0x55;
  ScriptedEngine a("golden", sa), b("rtl", sb);
  cosim::CosimOptions o;
  o.history = 4;
  o.work.assign(10, isa::WorkTag{});
  o.work[3] = isa::WorkTag{7, 1, 12, -1};
  const auto r = cosim::run_cosim(isa::Spec::builtin(), a, b, o);
  BOOST_REQUIRE(r.divergence.has_value());
  const cosim::Divergence& d = *r.divergence;
  BOOST_TEST(d.index == 3u);
  // S_ADDI_INT gp1, gp0, 3: gp1 held 2 at issue (record 2 wrote it), gp0 0, the immediate 3.
  for (size_t s = 0; s < 2; ++s) {
    BOOST_REQUIRE(d.operands[s].size() == 3u);
    BOOST_TEST(d.operands[s][0].operand == "rd");
    BOOST_TEST(d.operands[s][0].reg == "gp1");
    BOOST_TEST(d.operands[s][0].value == 2u);
    BOOST_TEST(d.operands[s][1].reg == "gp0");
    BOOST_TEST(d.operands[s][1].value == 0u);
    BOOST_TEST(d.operands[s][2].reg.empty());
    BOOST_TEST(d.operands[s][2].value == 3u);
    BOOST_TEST(d.work[s].token == 7);
    BOOST_TEST(d.work[s].slot == 1);
    BOOST_TEST(d.work[s].expert == 12);
  }
  BOOST_REQUIRE(d.mem_diffs.size() == 1u);
  const cosim::MemDiff& m = d.mem_diffs[0];
  BOOST_TEST((m.space == isa::Space::Hbm));
  BOOST_TEST(m.begin == 3u);
  BOOST_TEST(m.end == 4u);
  BOOST_TEST(m.differing_bytes == 1u);
  BOOST_TEST(m.differing_elements == 1u);
  BOOST_REQUIRE(m.elements.size() == 1u);
  BOOST_TEST(m.elements[0].unit == 3u);
  BOOST_TEST(m.elements[0].values[0] == "0x04");
  BOOST_TEST(m.elements[0].values[1] == "0x55");
  BOOST_TEST(!m.previous_writer[0].has_value());  // unit 3 was never written before
  BOOST_TEST(!m.previous_writer[1].has_value());

  // A rewrite: the previous writer is named, and VRAM elements are decoded as BF16.
  auto va = script(), vb = script();
  va[1].record.mems = {{isa::Space::Vram, 1, 2, 0}};
  va[1].updates = {{isa::Space::Vram, 1, 0x80}};
  va[5].record.mems = {{isa::Space::Vram, 1, 2, 0}};
  va[5].updates = {{isa::Space::Vram, 1, 0x40}};
  vb[1] = va[1];
  vb[5] = va[5];
  std::get<2>(vb[5].updates[0]) = 0x41;
  ScriptedEngine c("golden", va), e("rtl", vb);
  const auto rv = cosim::run_cosim(isa::Spec::builtin(), c, e, o);
  BOOST_REQUIRE(rv.divergence.has_value());
  BOOST_REQUIRE(rv.divergence->mem_diffs.size() == 1u);
  const cosim::MemDiff& v = rv.divergence->mem_diffs[0];
  BOOST_TEST((v.space == isa::Space::Vram));
  BOOST_REQUIRE(v.elements.size() == 1u);
  BOOST_TEST(v.elements[0].element == "element 0");
  BOOST_TEST(v.elements[0].values[0] ==
             isa::element_value(isa::Space::Vram, std::array<uint8_t, 2>{0x40, 0}.data(), 0, 0));
  BOOST_TEST(v.elements[0].values[0].rfind("bf16 ", 0) == 0u, v.elements[0].values[0]);
  for (size_t s = 0; s < 2; ++s) {
    BOOST_REQUIRE(v.previous_writer[s].has_value());
    BOOST_TEST(v.previous_writer[s]->index == 1u);
    BOOST_TEST(v.previous_writer[s]->pc == 1u);
  }
}

BOOST_AUTO_TEST_CASE(comparator_separates_outputs_from_unwritten_state) {
  // A byte no record wrote (an input the program never touches): outputs bit-exact, the final
  // state still differs and the run is not equal.
  ScriptedEngine a("golden", script()), b("rtl", script());
  b.mem_[isa::Space::Hbm][2 * 50] = 0x01;
  const auto r = cosim_pair(a, b);
  BOOST_TEST(r.completed);
  BOOST_TEST(r.outputs_bit_exact());
  BOOST_TEST(!r.final_state_equal());
  BOOST_TEST(!r.equal());
  const auto& hbm = r.spaces[static_cast<size_t>(isa::Space::Hbm)];
  BOOST_TEST(hbm.differing_bytes == 1u);
  BOOST_TEST(hbm.unwritten_differing_bytes == 1u);
  BOOST_TEST(!hbm.first_writer[0].has_value());
  BOOST_TEST(!hbm.first_writer[1].has_value());

  // A byte of a unit record 3 wrote (its high byte, preset in rtl): an output (record 3 diverges
  // on it), with its last writer named on both sides in the final comparison.
  ScriptedEngine c("golden", script()), e("rtl", script());
  e.mem_[isa::Space::Hbm][2 * 3 + 1] = 0x09;
  const auto w = cosim_pair(c, e);
  BOOST_TEST(!w.outputs_bit_exact());
  const auto& hw = w.spaces[static_cast<size_t>(isa::Space::Hbm)];
  BOOST_TEST(hw.unwritten_differing_bytes == 0u);
  for (size_t s = 0; s < 2; ++s) {
    BOOST_REQUIRE(hw.first_writer[s].has_value());
    BOOST_TEST(hw.first_writer[s]->index == 3u);
  }
}
