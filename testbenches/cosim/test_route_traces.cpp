// Recorded routing replayed (docs/route_traces.md): the golden model's V_TOPK writes exactly the
// recorded expert ids of every token (read back from INT SRAM, compared with the trace file),
// golden = reference bit for bit; golden vs RTL through the CLI; the CLI's refusals of a bad
// trace or range (exit 2 naming token / field / flag); `route-trace gen | check` and `deploy
// list` as a subprocess.
#include <boost/test/unit_test.hpp>
#include <fstream>
#include <nlohmann/json.hpp>

#include "moesim/cosim/cosim.hpp"
#include "moesim/cosim/engines.hpp"
#include "moesim/isa/engine.hpp"
#include "moesim/isa/spec.hpp"
#include "moesim/workload/builder.hpp"
#include "moesim/workload/reference.hpp"
#include "moesim/workload/route_trace.hpp"
#include "moesim_test/cli.hpp"

using namespace moesim;
using test::moesim_cli;
using test::workdir;

namespace {

workload::RouteTrace synthetic(unsigned experts, unsigned k, unsigned tokens, uint64_t seed) {
  workload::TraceGenOptions g;
  g.experts = experts;
  g.top_k = k;
  g.tokens = tokens;
  g.zipf_s = 1.2;
  g.seed = seed;
  return workload::generate_route_trace(g);
}

}  // namespace

BOOST_AUTO_TEST_CASE(route_trace_golden_topk_selects_the_recorded_experts) {
  const auto& spec = isa::Spec::builtin();
  const isa::MachinePreset& machine = spec.preset("default");
  // The trace goes through its file (what the CLI reads), then into the layer.
  const auto dir = workdir("route_trace_golden");
  const workload::RouteTrace written = synthetic(128, 8, 12, 5);
  std::ofstream(dir / "t.json") << workload::route_trace_json(written);
  const workload::RouteTrace tr = workload::load_route_trace((dir / "t.json").string());
  workload::ModelPreset m = workload::find_model("qwen3-30b-a3b");
  workload::BuildOptions o;
  o.model = &m;
  o.tokens = 12;
  o.hidden = 64;
  o.intermediate = 64;
  for (const auto& t : tr.tokens) o.recorded.push_back({t.ids, workload::recorded_logits_bf16(t)});
  const workload::BuiltProgram b = workload::build_moe_layer(spec, machine, o);
  auto golden = cosim::make_golden_engine(spec, machine);
  golden->load(b.program, b.image);
  const cosim::RunResult r = cosim::run_single(spec, *golden, {});
  BOOST_REQUIRE(!r.trap.has_value());
  const workload::Layout& L = b.layout;
  for (unsigned t = 0; t < 12; ++t)
    for (unsigned j = 0; j < 8; ++j) {
      const std::vector<uint8_t> w =
          golden->read(isa::Space::IntSram, L.int_ids + t * L.topk_select + j, 1);
      const uint32_t id = w[0] | w[1] << 8 | w[2] << 16 | uint32_t{w[3]} << 24;
      BOOST_TEST_CONTEXT("token " << t << " rank " << j) { BOOST_TEST(id == tr.tokens[t].ids[j]); }
    }
  const workload::ReferenceResult ref = workload::reference_layer(machine, m, b);
  const workload::ReferenceCheck c = workload::check_against_reference(
      machine, b, ref, workload::read_layer_output(*golden, machine, b));
  BOOST_TEST(c.ok());
}

BOOST_AUTO_TEST_CASE(route_trace_cli_cosim_and_refusals) {
  const auto dir = workdir("route_trace_cli");
  auto r = moesim_cli(
      "route-trace gen -o t.json --model qwen3-30b-a3b --tokens 40 --zipf 1.2 --seed 2", dir);
  BOOST_TEST(r.code == 0);
  r = moesim_cli("route-trace check t.json", dir);
  BOOST_TEST(r.code == 0);
  BOOST_TEST(r.out.find("valid, version 1, 40 tokens, E = 128, k = 8") != std::string::npos);
  const std::string layer = "--model qwen3-30b-a3b --hidden 64 --intermediate 64 ";
  r = moesim_cli(
      "cosim " + layer + "--route-trace t.json --tokens-from 24 --tokens-to 32 --reference", dir);
  BOOST_TEST(r.code == 0);
  BOOST_TEST(r.out.find("route-trace t.json tokens [24, 32)") != std::string::npos);
  // Refusals: a range outside the trace, a model whose E / k are not the trace's, --tokens.
  r = moesim_cli(
      "run --engine golden " + layer + "--route-trace t.json --tokens-from 8 --tokens-to 41", dir);
  BOOST_TEST(r.code == 2);
  BOOST_TEST(r.err.find("--tokens-to 41: the trace has 40 tokens") != std::string::npos);
  r = moesim_cli(
      "run --engine golden " + layer + "--route-trace t.json --tokens-from 8 --tokens-to 8", dir);
  BOOST_TEST(r.code == 2);
  BOOST_TEST(r.err.find("--tokens-from 8") != std::string::npos);
  r = moesim_cli(
      "run --engine golden --model gpt-oss-20b --hidden 64 --intermediate 64 --route-trace t.json",
      dir);
  BOOST_TEST(r.code == 2);
  BOOST_TEST(r.err.find("'experts' 128, 'top_k' 8 but model gpt-oss-20b has E = 32") !=
             std::string::npos);
  r = moesim_cli("run --engine golden " + layer + "--route-trace t.json --tokens 4", dir);
  BOOST_TEST(r.code == 2);
  // A malformed trace: exit 2 naming the token and the field.
  std::ofstream(dir / "bad.json")
      << R"({"format": "moesim-route-trace", "version": 1, "experts": 128, "top_k": 8, "tokens": [)"
      << R"({"ids": [1, 2, 3, 4, 5, 6, 7, 8], "weights": [8, 7, 6, 5, 4, 3, 2, 1]},)"
      << R"({"ids": [1, 2, 3, 4, 5, 6, 7, 200], "weights": [8, 7, 6, 5, 4, 3, 2, 1]}]})";
  r = moesim_cli("run --engine golden " + layer + "--route-trace bad.json", dir);
  BOOST_TEST(r.code == 2);
  BOOST_TEST(r.err.find("bad.json: token 1: 'ids'[7]: expert 200 >= experts 128") !=
             std::string::npos);
  r = moesim_cli("route-trace check bad.json", dir);
  BOOST_TEST(r.code == 2);
}

BOOST_AUTO_TEST_CASE(deploy_list_cli) {
  const auto dir = workdir("deploy_list_cli");
  auto r = moesim_cli("deploy list", dir);
  BOOST_TEST(r.code == 0);
  BOOST_TEST(r.out.find("kimi-k2-ep8-r64") != std::string::npos);
  std::ofstream(dir / "d.yaml") << "deployments:\n  - name: a\n    model: qwen3-30b-a3b\n"
                                   "    ep: 3\n    max_tokens_per_rank: 8\n";
  r = moesim_cli("deploy list d.yaml", dir);
  BOOST_TEST(r.code == 2);
  BOOST_TEST(r.err.find("moesim: error: d.yaml:4:9: 'ep': 128 physical experts") !=
             std::string::npos);
}

BOOST_AUTO_TEST_CASE(route_trace_replay_report) {
  // A 16-token trace replayed in layers of 8 with a "subset" of all 16 tokens: the stratified
  // subset is then the trace itself, in order, in the same layers, so its golden cycles (from
  // the co-simulation children) must equal the whole-trace golden run's stage by stage, and the
  // prediction error is 0. The load histogram counts every pair.
  const auto dir = workdir("route_trace_replay");
  auto r = moesim_cli("route-trace gen -o t.json --model qwen3-30b-a3b --tokens 16 --seed 4", dir);
  BOOST_REQUIRE(r.code == 0);
  r = moesim_cli(
      "route-trace replay t.json --model qwen3-30b-a3b --hidden 64 --intermediate 64 --batch 8 "
      "--subset 16 --report rep.json --work w",
      dir);
  BOOST_REQUIRE(r.code == 0);
  const nlohmann::json j = nlohmann::json::parse(test::slurp(dir / "rep.json"));
  BOOST_TEST(j["golden"]["layers"] == 2);
  BOOST_TEST(j["subset"]["layers"] == 2);
  BOOST_TEST(j["subset"]["cosim_equal"] == true);
  BOOST_TEST(j["subset"]["tokens"].size() == 16u);
  BOOST_TEST(j["subset"]["total_cycles"] == j["golden"]["total_cycles"]);
  for (const auto& [name, s] : j["golden"]["stages"].items()) BOOST_TEST_CONTEXT(name) {
      BOOST_TEST(s["subset_cycles"] == s["cycles"]);
    }
  uint64_t stage_sum = 0;
  for (const auto& [name, s] : j["golden"]["stages"].items())
    stage_sum += s["cycles"].get<uint64_t>();
  BOOST_TEST(stage_sum > 0u);
  BOOST_TEST(j["golden"]["total_cycles"].get<uint64_t>() == stage_sum);
  uint64_t pairs = 0;
  for (const auto& l : j["expert_load"]["per_expert"]) pairs += l.get<uint64_t>();
  BOOST_TEST(pairs == 16u * 8u);
  // The children's reports are kept in --work; the router ran V_TOPK once per token.
  BOOST_TEST(std::filesystem::exists(dir / "w" / "subset.json"));
  BOOST_TEST(j["golden"]["stages"]["router_topk"]["cycles"].get<uint64_t>() > 0u);
  // The console's stage table is in stages.yaml's order, as every other stage table (it was
  // alphabetical): each stage of the report has a row, after the row of the stage before it.
  size_t at = r.out.find("\nstage ");
  BOOST_REQUIRE(at != std::string::npos);
  unsigned rows = 0;
  for (const isa::StageSpec& st : isa::Spec::builtin().stages()) {
    if (!j["golden"]["stages"].contains(st.name)) continue;
    const size_t row = r.out.find("\n" + st.name + " ", at);
    BOOST_TEST(row != std::string::npos, st.name << " has no row after the previous stage's");
    if (row != std::string::npos) at = row, ++rows;
  }
  BOOST_TEST(rows == j["golden"]["stages"].size());
}
