// The constrained-random generator, its coverage model and the shrinker (random/, docs/random.md),
// without engines: programs assemble and fit their preset, every opcode and trap cause of
// isa.yaml is drawn, generation is reproducible, the mix file is checked, and the shrinker
// reduces a program to what a predicate needs.
#define BOOST_TEST_MODULE test_random
#include <boost/test/unit_test.hpp>
#include <filesystem>
#include <fstream>
#include <set>

#include "moesim/isa/geometry.hpp"
#include "moesim/isa/usage_error.hpp"
#include "moesim/random/random_program.hpp"

using namespace moesim;

namespace {

const isa::Spec& spec() { return isa::Spec::builtin(); }

}  // namespace

BOOST_AUTO_TEST_CASE(programs_assemble_and_fit_every_preset) {
  const rnd::Mix mix;
  for (const char* name : {"default", "tiny", "mx32"}) {
    const isa::MachinePreset& P = spec().preset(name);
    for (uint64_t s = 1; s <= 300; ++s) {
      const rnd::RandomProgram p = rnd::generate(spec(), P, s, mix);
      const rnd::Rendered r = rnd::render(spec(), P, p);  // throws on a line that does not assemble
      BOOST_TEST_REQUIRE(r.program.size() > 0u);
      BOOST_TEST(r.program.size() == r.tags.size());
      BOOST_TEST(r.program.size() <= static_cast<uint64_t>(P.get("IMEM_WORDS")));
      // Bounded: every loop count is an immediate and no generated instruction writes a counter.
      BOOST_TEST(rnd::dynamic_bound(p) <= mix.max_dynamic + 100);  // + a trap snippet
      for (const rnd::Region& g : p.regions) {
        const isa::SpaceGeometry geo = isa::space_geometry(g.space, P);
        BOOST_TEST(g.bytes.size() % geo.unit_bytes == 0u);
        BOOST_TEST(g.begin + g.bytes.size() / geo.unit_bytes <= geo.units);
      }
      if (p.budget) BOOST_TEST(*p.budget < rnd::dynamic_bound(p));
    }
  }
}

BOOST_AUTO_TEST_CASE(every_opcode_class_and_trap_is_drawn) {
  const isa::MachinePreset& P = spec().preset("default");
  std::set<std::string> tested, boundary, traps;
  for (uint64_t s = 1; s <= 1500; ++s) {
    const rnd::RandomProgram p = rnd::generate(spec(), P, s);
    traps.insert(p.intended_trap);
    const rnd::Rendered r = rnd::render(spec(), P, p);
    for (const rnd::Tag& t : r.tags) {
      if (t.mnemonic.empty()) continue;
      tested.insert(t.mnemonic);
      if (t.cls == "boundary") boundary.insert(t.mnemonic);
    }
  }
  for (const isa::InstrSpec& I : spec().instructions()) {
    BOOST_TEST(tested.count(I.mnemonic) == 1u, I.mnemonic << " never generated");
    if (I.mnemonic != "C_HADAMARD_TRANSFORM")
      BOOST_TEST(boundary.count(I.mnemonic) == 1u, I.mnemonic << " never with boundary operands");
  }
  for (const isa::TrapSpec& t : spec().traps())
    BOOST_TEST(traps.count(t.name) == 1u, "no program built to end in " << t.name);
}

BOOST_AUTO_TEST_CASE(generation_is_reproducible) {
  const isa::MachinePreset& P = spec().preset("tiny");
  for (uint64_t s : {1ull, 42ull, 18446744073709551615ull}) {
    const rnd::RandomProgram a = rnd::generate(spec(), P, s), b = rnd::generate(spec(), P, s);
    BOOST_TEST(rnd::render(spec(), P, a).asm_text == rnd::render(spec(), P, b).asm_text);
    BOOST_TEST(rnd::case_yaml(P, a, "c") == rnd::case_yaml(P, b, "c"));
  }
  BOOST_TEST(rnd::render(spec(), P, rnd::generate(spec(), P, 1)).asm_text !=
             rnd::render(spec(), P, rnd::generate(spec(), P, 2)).asm_text);
}

BOOST_AUTO_TEST_CASE(case_yaml_has_no_expectation) {
  const isa::MachinePreset& P = spec().preset("default");
  const rnd::RandomProgram p = rnd::generate(spec(), P, 3);
  const std::string y = rnd::case_yaml(P, p, "line one\nline two");
  BOOST_TEST(y.find("# line one\n# line two\nmachine: default\n") == 0u);
  BOOST_TEST(y.find("\nexpect:") == std::string::npos);
  BOOST_TEST(y.find("init:\n  vram:\n    - {row: 0, bf16: [\"0x") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(mix_file_errors_name_the_key) {
  const std::filesystem::path d = std::filesystem::temp_directory_path() / "moesim_test_random_mix";
  std::filesystem::create_directories(d);
  auto expect_error = [&](const std::string& text, const std::string& part) {
    const auto f = d / "mix.yaml";
    std::ofstream(f) << text;
    try {
      rnd::load_mix(spec(), f);
      BOOST_ERROR("accepted: " << text);
    } catch (const UsageError& e) {
      BOOST_TEST(std::string(e.what()).find(part) != std::string::npos, e.what());
    }
  };
  expect_error("trap_shar: 0.5\n", "trap_shar: unknown key");
  expect_error("trap_share: 2\n", "trap_share: 2 is not in");
  expect_error("weights: {V_FOO: 1}\n", "weights.V_FOO: not an instruction");
  expect_error("traps: [address_out_of_range, nope]\n", "traps[1]: unknown trap 'nope'");
  expect_error("min_snippets: 9\nmax_snippets: 3\n", "min_snippets: larger than max_snippets");
  expect_error("trap_share: [1\n", "mix.yaml:");
  const auto f = d / "ok.yaml";
  std::ofstream(f) << "trap_share: 1\ntraps: [loop_underflow]\nweights: {M_BMM: 0}\n";
  const rnd::Mix m = rnd::load_mix(spec(), f);
  BOOST_TEST(m.trap_share == 1.0);
  for (uint64_t s = 1; s <= 20; ++s)
    BOOST_TEST(rnd::generate(spec(), spec().preset("tiny"), s, m).intended_trap ==
               "loop_underflow");
}

BOOST_AUTO_TEST_CASE(shrink_keeps_only_what_the_failure_needs) {
  const isa::MachinePreset& P = spec().preset("default");
  // The failure: "a tested V_RED_SUM runs with FP SRAM initialised" (a stand-in for a
  // divergence that needs one instruction and one memory region).
  uint64_t seed = 0;
  rnd::RandomProgram p;
  for (uint64_t s = 1; s < 2000 && seed == 0; ++s) {
    p = rnd::generate(spec(), P, s);
    for (const rnd::Tag& t : rnd::render(spec(), P, p).tags)
      if (t.tested && t.mnemonic == "V_RED_SUM" && rnd::static_size(p) > 30) seed = s;
  }
  BOOST_TEST_REQUIRE(seed != 0u);
  const auto fails = [&](const rnd::RandomProgram& c) {
    bool red = false, fp = false;
    for (const rnd::Tag& t : rnd::render(spec(), P, c).tags)
      red = red || (t.tested && t.mnemonic == "V_RED_SUM");
    for (const rnd::Region& g : c.regions) fp = fp || g.space == isa::Space::FpSram;
    return red && fp;
  };
  BOOST_TEST_REQUIRE(fails(p));
  rnd::ShrinkStats st;
  const rnd::RandomProgram s = rnd::shrink(p, fails, &st);
  BOOST_TEST(fails(s));
  BOOST_TEST_MESSAGE("seed " << seed << ": " << rnd::static_size(p) << " -> " << rnd::static_size(s)
                             << " instructions, " << st.candidates << " candidates");
  BOOST_TEST(rnd::static_size(s) == 1u);
  BOOST_TEST(s.nodes.size() == 1u);
  BOOST_TEST_REQUIRE(s.regions.size() == 1u);
  BOOST_TEST(s.regions[0].bytes.size() == 2u);  // halved down to one FP SRAM word
  BOOST_TEST(st.accepted > 0u);
}

BOOST_AUTO_TEST_CASE(coverage_counts_only_what_ran) {
  const isa::MachinePreset& P = spec().preset("default");
  rnd::Coverage cov(spec(), P);
  for (const auto& [g, ct] : cov.summary()) BOOST_TEST(ct.first == 0u, g);
  rnd::RandomProgram p;
  p.machine = "default";
  rnd::Node n;
  n.lines.push_back({"S_ADDI_INT gp1, gp0, 5", {"S_ADDI_INT", "boundary", 0, "", "", true}});
  n.lines.push_back({"C_LOOP_END gp1", {"C_LOOP_END", "legal", 0, "", "", true}});
  p.nodes.push_back(n);
  const rnd::Rendered r = rnd::render(spec(), P, p);
  const uint8_t underflow = spec().trap("loop_underflow").code;
  cov.add(r, {{0, std::nullopt}, {1, underflow}});
  std::map<std::string, uint64_t> hits;
  for (const auto& it : cov.items()) hits[it.group + ":" + it.name] = it.hits;
  BOOST_TEST(hits.at("opcode:S_ADDI_INT") == 1u);
  BOOST_TEST(hits.at("class:S_ADDI_INT boundary") == 1u);
  BOOST_TEST(hits.at("class:S_ADDI_INT legal") == 0u);
  BOOST_TEST(hits.at("loop:S_ADDI_INT depth=0") == 1u);
  BOOST_TEST(hits.at("opcode:C_LOOP_END") == 0u);  // it trapped: not retired
  BOOST_TEST(hits.at("trap:C_LOOP_END loop_underflow") == 1u);
  BOOST_TEST(hits.at("trap:any loop_underflow") == 1u);
}
