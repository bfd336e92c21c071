// Campaign specs (sim/campaign/src/spec.cpp): the issue's form expands to its cross product, each
// left-out key has the single-run default, explicit entries work, and bad input is refused with
// FILE:LINE:COL.
#include <boost/test/unit_test.hpp>
#include <filesystem>
#include <fstream>
#include <set>

#include "moesim/campaign/spec.hpp"
#include "moesim/isa/usage_error.hpp"
#include "moesim_test/cli.hpp"

using namespace moesim;
using moesim::campaign::Run;

namespace {

std::vector<Run> load_text(const std::string& name, const std::string& yaml,
                           campaign::SpecOptions o = {}) {
  const auto dir = test::workdir("spec_" + name);
  const auto p = dir / "campaign.yaml";
  std::ofstream(p) << yaml;
  return campaign::load_spec(p.string(), isa::Spec::builtin(), o);
}

std::string args_of(const Run& r) {
  std::string s;
  for (const auto& a : r.cosim_args()) s += (s.empty() ? "" : " ") + a;
  return s;
}

}  // namespace

BOOST_AUTO_TEST_CASE(spec_issue_form_expands_to_its_cross_product) {
  const auto runs = load_text("issue", R"(runs:
  - models: [gpt-oss-20b, qwen3-30b-a3b]   # presets or config.json paths
    machines: [default]
    lowerings: [pair, expert]
    shared: [false]
    seeds: [1, 2]
    tokens: [2]
    hidden: [64]
    intermediate: [64]
    windows: 1
)");
  BOOST_TEST(runs.size() == 8u);
  std::set<std::string> ids, args;
  for (const Run& r : runs) {
    ids.insert(r.id);
    args.insert(args_of(r));
    BOOST_TEST(r.where.find("campaign.yaml:2") != std::string::npos, r.where);
  }
  BOOST_TEST(ids.size() == 8u);
  BOOST_TEST(args.size() == 8u);
  BOOST_TEST(args.count("cosim --machine default --model qwen3-30b-a3b --tokens 2 --hidden 64 "
                        "--intermediate 64 --lowering expert --seed 2 --quiet") == 1u);
  BOOST_TEST(ids.count("default.gpt-oss-20b.routed.pair.s1.t2.h64.i64") == 1u);
}

BOOST_AUTO_TEST_CASE(spec_left_out_keys_take_the_single_run_defaults) {
  const auto runs = load_text("defaults", "runs:\n  - {}\n");
  BOOST_TEST_REQUIRE(runs.size() == 1u);
  // moesim cosim's own defaults: gpt-oss-20b, machine default, 4 tokens, the model's H and I.
  BOOST_TEST(args_of(runs[0]) ==
             "cosim --machine default --model gpt-oss-20b --tokens 4 --lowering pair --seed 1 "
             "--quiet");
}

BOOST_AUTO_TEST_CASE(spec_explicit_entries_and_config_json_paths) {
  const std::string models = std::string(MOESIM_SOURCE_DIR) + "/testbenches/models";
  const auto runs = load_text("explicit",
                              "runs:\n"
                              "  - model: qwen1.5-moe-a2.7b\n"
                              "    machine: tiny\n"
                              "    shared: true\n"
                              "    hidden: 32\n"
                              "    reference: true\n"
                              "  - models: [" +
                                  models +
                                  "/mixtral-8x7b.config.json]\n"
                                  "    flip_bit: rtl:hbm:0:0\n");
  BOOST_TEST_REQUIRE(runs.size() == 2u);
  BOOST_TEST(args_of(runs[0]) ==
             "cosim --machine tiny --model qwen1.5-moe-a2.7b --tokens 4 --hidden 32 --shared "
             "--lowering pair --seed 1 --reference --quiet");
  BOOST_TEST(runs[0].where.find(":2") != std::string::npos);
  BOOST_TEST(runs[1].model == models + "/mixtral-8x7b.config.json");
  BOOST_TEST(args_of(runs[1]).find("--flip-bit rtl:hbm:0:0 --quiet") != std::string::npos);
  BOOST_TEST(runs[1].where.find(":7") != std::string::npos);
}

// Hugging Face names every model's file config.json: two different files whose id words would
// be the same get distinct ids (-2 for the second, in spec order); one file named twice is one
// run.
BOOST_AUTO_TEST_CASE(spec_config_files_of_the_same_name_get_distinct_ids) {
  const std::string models = std::string(MOESIM_SOURCE_DIR) + "/testbenches/models";
  const auto dir = test::workdir("spec_same_name");
  for (const char* sub : {"a", "b"}) std::filesystem::create_directories(dir / sub);
  std::filesystem::copy_file(models + "/mixtral-8x7b.config.json", dir / "a" / "cfg.json",
                             std::filesystem::copy_options::overwrite_existing);
  std::filesystem::copy_file(models + "/qwen3-30b-a3b.config.json", dir / "b" / "cfg.json",
                             std::filesystem::copy_options::overwrite_existing);
  std::ofstream(dir / "campaign.yaml") << "runs:\n  - models: [a/cfg.json, b/cfg.json]\n"
                                          "  - model: a/../a/cfg.json\n    seed: 2\n";
  const auto runs = campaign::load_spec((dir / "campaign.yaml").string(), isa::Spec::builtin(), {});
  BOOST_TEST_REQUIRE(runs.size() == 3u);
  BOOST_TEST(runs[0].id == "default.cfg.routed.pair.s1.t4");
  BOOST_TEST(runs[1].id == "default.cfg-2.routed.pair.s1.t4");
  BOOST_TEST(runs[2].id == "default.cfg.routed.pair.s2.t4");  // a/cfg.json again: its word
}

BOOST_AUTO_TEST_CASE(spec_windows_pass_through_only_when_cosim_has_them) {
  const std::string yaml = "runs:\n  - windows: 4\n";
  campaign::SpecOptions with;
  with.windows_supported = true;
  const auto runs = load_text("windows", yaml, with);
  BOOST_TEST_REQUIRE(runs.size() == 1u);
  BOOST_TEST(args_of(runs[0]).find("--windows 4") != std::string::npos);
  BOOST_CHECK_EXCEPTION(load_text("windows_off", yaml), UsageError, [](const UsageError& e) {
    BOOST_TEST_MESSAGE(e.what());
    return std::string(e.what()).find("campaign.yaml:2:14: 'windows: 4'") != std::string::npos;
  });
}

BOOST_AUTO_TEST_CASE(spec_bad_input_names_file_line_and_key) {
  struct Case {
    const char* name;
    const char* yaml;
    const char* expect;  ///< after "campaign.yaml:"
  };
  const Case cases[] = {
      {"unknown_key", "runs:\n  - models: [gpt-oss-20b]\n    seeed: [1]\n",
       "3:5: unknown key 'seeed'"},
      {"unknown_top", "run:\n  - {}\n", "1:1: unknown key 'run'"},
      {"empty_list", "runs:\n  - models: [gpt-oss-20b]\n    seeds: []\n",
       "3:12: empty cross product: 'seeds'"},
      {"no_runs", "runs: []\n", "1:7: empty cross product: 'runs'"},
      {"unknown_model", "runs:\n  - models: [gpt-oss-20b, gpt-5]\n",
       "2:27: 'models': gpt-5: not a model preset"},
      {"missing_config", "runs:\n  - models: [nowhere.config.json]\n", "2:14: 'models': "},
      {"unknown_machine", "runs:\n  - machines: [huge]\n",
       "2:16: 'machines': unknown machine preset 'huge'"},
      {"bad_lowering", "runs:\n  - lowerings: [pair, dense]\n",
       "2:23: 'lowerings': unknown lowering 'dense'"},
      {"bad_seed", "runs:\n  - seeds: [1, x]\n", "2:16: 'seeds': expected an integer"},
      {"negative_tokens", "runs:\n  - tokens: [-2]\n", "2:14: 'tokens': expected an integer"},
      {"zero_tokens", "runs:\n  - tokens: 0\n", "2:13: 'tokens': 0 is out of range"},
      {"shared_without_expert", "runs:\n  - models: [mixtral-8x7b]\n    shared: [true]\n",
       "3:14: 'shared: true': model mixtral-8x7b has no shared expert"},
      {"twice", "runs:\n  - seeds: [1]\n  - seeds: [2, 1]\n", "3:5: run default.gpt-oss-20b"},
      {"both_forms", "runs:\n  - seed: 1\n    seeds: [2]\n", "3:5: 'seeds' given twice"},
      {"yaml_syntax", "runs:\n  - seeds: [1\n", "3:1: "},
      {"not_a_map", "- 1\n", "1:1: expected a mapping"},
      {"entry_not_map", "runs:\n  - 3\n", "2:5: a 'runs' entry must be a mapping"},
      {"random_with_model", "runs:\n  - random: {count: 3}\n    model: olmoe\n",
       "3:5: 'model' does not apply to a 'random' entry"},
      {"random_no_count", "runs:\n  - random: {seed: 3}\n", "2:13: 'random': give count"},
      {"random_unknown_key", "runs:\n  - random: {count: 3, seeds: 1}\n",
       "2:24: unknown key 'seeds' in 'random'"},
      {"random_zero_batch", "runs:\n  - random: {count: 3, batch: 0}\n",
       "2:31: 'random: batch': 0 is out of range"},
      {"random_overlap",
       "runs:\n  - random: {seed: 10, count: 5}\n  - random: {seed: 14, count: 2}\n",
       "3:13: 'random': seeds 14..15 on default overlap the seeds 10..14 of the entry at "},
      {"random_overlap_below",
       "runs:\n  - random: {seed: 10, count: 5}\n  - random: {seed: 5, count: 6}\n",
       "3:13: 'random': seeds 5..10 on default overlap the seeds 10..14"},
      {"random_missing_mix", "runs:\n  - random: {count: 3, mix: none.yaml}\n",
       "2:29: 'random: mix': none.yaml is not a readable file"},
  };
  for (const Case& c : cases) {
    BOOST_TEST_CONTEXT(c.name) {
      std::string msg;
      try {
        load_text(c.name, c.yaml);
      } catch (const UsageError& e) {
        msg = e.what();
      }
      BOOST_TEST(msg.find(std::string("campaign.yaml:") + c.expect) != std::string::npos, msg);
    }
  }
  BOOST_CHECK_THROW(campaign::load_spec("/nonexistent/c.yaml", isa::Spec::builtin()), UsageError);
}

// A `random` entry is batches of `moesim random --cosim` per machine, ids naming their seeds; the
// same seeds on another machine are other programs, not an overlap.
BOOST_AUTO_TEST_CASE(spec_random_entry_expands_to_batches) {
  const auto runs = load_text("random", R"(runs:
  - random: {seed: 100, count: 25, batch: 10}
    machines: [tiny, mx32]
  - random: {seed: 125, count: 1}
    machine: tiny
)");
  BOOST_TEST_REQUIRE(runs.size() == 7u);
  BOOST_TEST(runs[0].id == "tiny.random.s100-109");
  BOOST_TEST(args_of(runs[0]) ==
             "random --cosim --machine tiny --seed 100 --count 10 -o failing --shrink --quiet");
  BOOST_TEST(runs[2].id == "tiny.random.s120-124");
  BOOST_TEST(runs[2].random_count == 5u);
  BOOST_TEST(runs[3].id == "mx32.random.s100-109");
  BOOST_TEST(runs[6].id == "tiny.random.s125-125");
  uint64_t programs = 0;
  for (const Run& r : runs) programs += r.random_count;
  BOOST_TEST(programs == 51u);
}

// testbenches/campaign/matrix.yaml is ctest's co-simulation matrix as a campaign: one run per
// `matrix.<machine>.<model>.<part>.<lowering>` entry of testbenches/cosim/CMakeLists.txt.
BOOST_AUTO_TEST_CASE(spec_matrix_yaml_gives_the_ctest_matrix) {
  const auto runs = campaign::load_spec(
      std::string(MOESIM_SOURCE_DIR) + "/testbenches/campaign/matrix.yaml", isa::Spec::builtin());
  std::set<std::string> from_spec, from_ctest;
  for (const Run& r : runs) {
    BOOST_TEST(r.reference);
    BOOST_TEST(r.tokens == 2u);
    BOOST_TEST(*r.hidden == (r.machine == "tiny" ? 32u : 64u));
    from_spec.insert("matrix." + r.machine + "." + r.model + "." +
                     (r.shared ? "shared" : "routed") + "." + r.lowering);
  }
  std::ifstream in(MOESIM_MATRIX_TESTS);
  for (std::string line; std::getline(in, line);)
    if (!line.empty()) from_ctest.insert(line);
  BOOST_TEST(runs.size() == 68u);
  BOOST_TEST(from_ctest.size() == 68u);
  BOOST_TEST(from_spec == from_ctest, "matrix.yaml and ctest -L matrix differ");
}
