// Route traces (docs/route_traces.md) without a simulator: the generator (seeded, skewed as
// stated), the JSON round trip, the validator on malformed files (each error names the token and
// the field), the recorded logits (V_TOPK's softmax over them replays the recorded weights), and
// the builder's recorded layer: the independent reference's V_TOPK selects exactly the recorded
// experts in rank order.
#include <algorithm>
#include <boost/test/unit_test.hpp>
#include <cmath>
#include <ctime>
#include <filesystem>
#include <fstream>

#include "moesim/isa/numerics.hpp"
#include "moesim/workload/builder.hpp"
#include "moesim/workload/reference.hpp"
#include "moesim/workload/route_trace.hpp"

using namespace moesim;
namespace fs = std::filesystem;

namespace {

fs::path work_file(const std::string& name) {
  const fs::path dir = fs::path(MOESIM_TEST_WORK_DIR) / "route_traces";
  fs::create_directories(dir);
  return dir / name;
}

std::string load_error(const std::string& text) {
  const fs::path f = work_file("bad.json");
  std::ofstream(f) << text;
  try {
    workload::load_route_trace(f.string());
  } catch (const UsageError& e) {
    return e.what();
  }
  return "";
}

const std::string kHead =
    R"({"format": "moesim-route-trace", "version": 1, "experts": 8, "top_k": 2, "tokens": [)";
const std::string kGood = R"({"ids": [3, 1], "weights": [0.6, 0.4]})";

void check_refused(const std::string& tokens, const std::string& what) {
  const std::string msg = load_error(kHead + tokens + "]}");
  BOOST_TEST_INFO("message: " << msg);
  BOOST_TEST(msg.find("bad.json: ") != std::string::npos);
  BOOST_TEST(msg.find(what) != std::string::npos);
}

}  // namespace

BOOST_AUTO_TEST_SUITE(route_traces)

BOOST_AUTO_TEST_CASE(validator_names_token_and_field) {
  BOOST_TEST(load_error(kHead + kGood + "]}") == "");
  // Wrong version and format.
  BOOST_TEST(
      load_error(
          R"({"format": "moesim-route-trace", "version": 2, "experts": 8, "top_k": 2, "tokens": [)" +
          kGood + "]}")
          .find("'version': expected 1, got 2") != std::string::npos);
  BOOST_TEST(
      load_error(R"({"format": "other", "version": 1, "experts": 8, "top_k": 2, "tokens": [)" +
                 kGood + "]}")
          .find("'format'") != std::string::npos);
  // ids >= E, duplicate ids, wrong k, non-finite and increasing weights, bad logits.
  check_refused(kGood + R"(, {"ids": [8, 1], "weights": [0.6, 0.4]})",
                "token 1: 'ids'[0]: expert 8 >= experts 8");
  check_refused(kGood + "," + kGood + R"(, {"ids": [2, 2], "weights": [0.6, 0.4]})",
                "token 2: 'ids'[1]: expert 2 selected twice");
  check_refused(R"({"ids": [3, 1, 2], "weights": [0.5, 0.3, 0.2]})",
                "token 0: 'ids': 3 entries, top_k is 2");
  check_refused(R"({"ids": [3, 1], "weights": [0.6]})", "token 0: 'weights': 1 entries");
  check_refused(kGood + R"(, {"ids": [3, 1], "weights": [0.6, "nan"]})",
                "token 1: 'weights'[1]: expected a finite number");
  check_refused(kGood + R"(, {"ids": [3, 1], "weights": [null, 0.4]})",
                "token 1: 'weights'[0]: expected a finite number");
  check_refused(R"({"ids": [3, 1], "weights": [1e999, 0.4]})", "number overflow parsing '1e999'");
  check_refused(R"({"ids": [3, 1], "weights": [0.4, 0.6]})",
                "token 0: 'weights'[1]: 0.6 exceeds the weight of rank 0");
  check_refused(R"({"ids": [3, 1], "weights": [0.6, -0.1]})", "token 0: 'weights'[1]: negative");
  check_refused(R"({"ids": [3, 1], "weights": [0.6, 0.4], "logits": [1, 2]})",
                "token 0: 'logits': expected 8 numbers");
  check_refused(R"({"ids": [3, 1], "weights": [0.6, 0.4], "route": 1})",
                "token 0: unknown key 'route'");
  check_refused(R"({"ids": [3, -1], "weights": [0.6, 0.4]})",
                "token 0: 'ids'[1]: expected an expert id");
  BOOST_TEST(load_error("{not json").find("not valid JSON") != std::string::npos);
}

// The JSON reader is one linear pass: reading a trace four times as long (220,000 tokens, over
// 10 MB, against 55,000) takes under 8 times the CPU (linear: 4; quadratic: 16), a ratio that
// holds on a loaded machine and under the sanitizers, where an absolute time does not. Fails
// with nlohmann's callback parser, which the key check used before: it scans the parent array
// at every object end (1/2/4 MB took 0.4/1.4/5.7 s). A key twice is named at its own line (the
// old check named the second `"ids":` of the whole text, the line of token 1).
BOOST_AUTO_TEST_CASE(reader_is_linear_and_names_the_line_of_a_key_twice) {
  auto cpu_to_read = [](size_t n, const std::string& name) {
    std::string text = kHead + "\n";
    for (size_t i = 0; i < n; ++i)
      text +=
          std::string(i ? "," : "") + R"({"ids": [3, 1], "weights": [0.6123456789, 0.4]})" + "\n";
    text += "]}\n";
    const fs::path f = work_file(name);
    std::ofstream(f) << text;
    const std::clock_t c0 = std::clock();
    const workload::RouteTrace t = workload::load_route_trace(f.string());
    const double cpu_s = static_cast<double>(std::clock() - c0) / CLOCKS_PER_SEC;
    BOOST_TEST(t.tokens.size() == n);
    BOOST_TEST(text.size() > n * 45);
    return cpu_s;
  };
  const double small = cpu_to_read(55000, "short.json");
  const double large = cpu_to_read(220000, "long.json");
  BOOST_TEST_INFO("CPU seconds: " << small << " for 55,000 tokens, " << large << " for 220,000");
  BOOST_TEST(large < 8 * std::max(small, 0.01));

  std::string dup = kHead + "\n";
  for (int i = 0; i < 6; ++i)
    dup += std::string(i ? "," : "") +
           (i == 4 ? R"({"ids": [3, 1], "weights": [0.6, 0.4], "ids": [3, 1]})" : kGood) + "\n";
  dup += "]}\n";
  // Token 4 is on line 6 (the header is line 1).
  BOOST_TEST(load_error(dup).find("bad.json:6: key 'ids' appears twice in one object") !=
             std::string::npos);
}

// The generator refuses, before any work, a trace whose pairs or sampling steps pass its limits
// (E = k = 2^20 was 2^41 steps, hours of work; 2^32 - 1 tokens ran out of memory).
BOOST_AUTO_TEST_CASE(generator_refuses_work_past_its_limits) {
  auto gen_error = [](unsigned e, unsigned k, unsigned tokens) {
    workload::TraceGenOptions o;
    o.experts = e;
    o.top_k = k;
    o.tokens = tokens;
    try {
      workload::generate_route_trace(o);
    } catch (const UsageError& x) {
      return std::string(x.what());
    }
    return std::string();
  };
  BOOST_TEST(gen_error(1u << 20, 1u << 20, 1).find("sampling steps") != std::string::npos);
  BOOST_TEST(gen_error(8, 1, 4294967295u).find("routed pairs") != std::string::npos);
  BOOST_TEST(gen_error(128, 8, 1024) == "");
}

BOOST_AUTO_TEST_CASE(generator_is_seeded_skewed_and_round_trips) {
  workload::TraceGenOptions o;
  o.experts = 64;
  o.top_k = 4;
  o.tokens = 2048;
  o.zipf_s = 1.2;
  o.seed = 7;
  const workload::RouteTrace a = workload::generate_route_trace(o);
  const workload::RouteTrace b = workload::generate_route_trace(o);
  BOOST_TEST(workload::route_trace_json(a) == workload::route_trace_json(b));
  o.seed = 8;
  BOOST_TEST(workload::route_trace_json(a) !=
             workload::route_trace_json(workload::generate_route_trace(o)));
  // Round trip through the file and the validator.
  const fs::path f = work_file("gen.json");
  std::ofstream(f) << workload::route_trace_json(a);
  const workload::RouteTrace c = workload::load_route_trace(f.string());
  BOOST_TEST(c.tokens.size() == 2048u);
  for (size_t i = 0; i < c.tokens.size(); ++i) {
    BOOST_TEST(c.tokens[i].ids == a.tokens[i].ids);
    for (size_t j = 0; j < 4; ++j)
      BOOST_TEST(c.tokens[i].weights[j] == a.tokens[i].weights[j]);  // JSON keeps doubles exact
  }
  // Zipf(1.2) over 64 experts: the hottest expert's share of single draws is
  // 1 / sum_r r^-1.2 (about 0.24); with 4 draws without replacement it is in most tokens, far
  // above the mean of 4/64 of the tokens. Uniform (s = 0) stays near the mean.
  double h = 0;
  for (int r = 1; r <= 64; ++r) h += std::pow(r, -1.2);
  const auto load = workload::expert_load(a, 0, 2048);
  const double mean = 2048.0 * 4 / 64;
  const double hottest = static_cast<double>(*std::max_element(load.begin(), load.end()));
  BOOST_TEST(hottest > 2048.0 / h);  // at least the single-draw share of the tokens
  BOOST_TEST(hottest > 4 * mean);
  o.zipf_s = 0;
  const auto flat = workload::expert_load(workload::generate_route_trace(o), 0, 2048);
  BOOST_TEST(static_cast<double>(*std::max_element(flat.begin(), flat.end())) < 1.5 * mean);
}

// A popularity so skewed that all but the hottest experts underflow to 0 (zipf 1000) still
// gives k distinct experts per token, the hottest ones, and a trace the validator accepts.
BOOST_AUTO_TEST_CASE(generator_with_underflowing_popularity_picks_distinct_experts) {
  workload::TraceGenOptions o;
  o.experts = 8;
  o.top_k = 4;
  o.tokens = 16;
  o.zipf_s = 1000;
  const workload::RouteTrace t = workload::generate_route_trace(o);
  const fs::path f = work_file("zipf1000.json");
  std::ofstream(f) << workload::route_trace_json(t);
  BOOST_CHECK_NO_THROW(workload::load_route_trace(f.string()));
  const auto load = workload::expert_load(t, 0, 16);
  BOOST_TEST(std::count(load.begin(), load.end(), 16u) == 4);  // the same 4 hottest every time
  BOOST_TEST(std::count(load.begin(), load.end(), 0u) == 4);
  o.experts = workload::kRouteTraceMaxExperts + 1;
  o.top_k = 1;
  BOOST_CHECK_THROW(workload::generate_route_trace(o), UsageError);
}

// Weights at the ends of the double range (a ratio that overflows) still give finite, positive,
// strictly decreasing logits.
BOOST_AUTO_TEST_CASE(recorded_logits_of_extreme_weight_ratios_are_finite) {
  workload::RouteToken t;
  t.ids = {0, 1, 2, 3};
  t.weights = {1, 0.5, 0.25, 1e-310};
  const std::vector<uint16_t> l = workload::recorded_logits_bf16(t);
  for (size_t j = 0; j < 4; ++j) {
    BOOST_TEST(std::isfinite(num::bf16_to_f32(l[j])));
    BOOST_TEST(num::bf16_to_f32(l[j]) > 0.0f);
    if (j > 0) BOOST_TEST(num::bf16_to_f32(l[j]) < num::bf16_to_f32(l[j - 1]));
  }
}

BOOST_AUTO_TEST_CASE(recorded_logits_replay_the_weights) {
  workload::RouteToken t;
  t.ids = {5, 2, 9, 1};
  t.weights = {0.5, 0.3, 0.15, 0.05};
  const std::vector<uint16_t> l = workload::recorded_logits_bf16(t);
  double den = 0;
  for (uint16_t b : l) den += std::exp(static_cast<double>(num::bf16_to_f32(b)));
  for (size_t j = 0; j < 4; ++j) {
    BOOST_TEST(num::bf16_to_f32(l[j]) > 0.0f);
    if (j > 0) BOOST_TEST(num::bf16_to_f32(l[j]) < num::bf16_to_f32(l[j - 1]));
    // BF16 logits (8 bits) keep the weight to about 1 %.
    BOOST_TEST(std::exp(static_cast<double>(num::bf16_to_f32(l[j]))) / den == t.weights[j],
               boost::test_tools::tolerance(0.02));
  }
  // Equal weights still give strictly decreasing logits (the recorded rank order).
  t.weights = {0.25, 0.25, 0.25, 0.25};
  const std::vector<uint16_t> e = workload::recorded_logits_bf16(t);
  for (size_t j = 1; j < 4; ++j) BOOST_TEST(num::bf16_to_f32(e[j]) < num::bf16_to_f32(e[j - 1]));
}

BOOST_AUTO_TEST_CASE(reference_selects_the_recorded_experts) {
  workload::TraceGenOptions g;
  g.experts = 128;
  g.top_k = 8;
  g.tokens = 8;
  g.zipf_s = 1.0;
  g.seed = 3;
  const workload::RouteTrace tr = workload::generate_route_trace(g);
  workload::ModelPreset m = workload::find_model("qwen3-30b-a3b");  // softmax 128 / top-8
  workload::BuildOptions o;
  o.model = &m;
  o.tokens = 8;
  o.hidden = 64;
  o.intermediate = 64;
  for (const auto& t : tr.tokens) o.recorded.push_back({t.ids, workload::recorded_logits_bf16(t)});
  const auto& spec = isa::Spec::builtin();
  const workload::BuiltProgram b = workload::build_moe_layer(spec, spec.preset("default"), o);
  const workload::ReferenceResult ref = workload::reference_layer(spec.preset("default"), m, b);
  for (unsigned t = 0; t < 8; ++t)
    for (unsigned j = 0; j < 8; ++j) BOOST_TEST(ref.expert_ids[t * 8 + j] == tr.tokens[t].ids[j]);
  BOOST_TEST(ref.selection_differs == 0u);
  // A recorded layer for a router it cannot replace, and a token count that is not the trace's.
  workload::ModelPreset v3 = workload::find_model("deepseek-v3");
  o.model = &v3;
  BOOST_CHECK_THROW(workload::build_moe_layer(spec, spec.preset("default"), o), UsageError);
  o.model = &m;
  o.tokens = 7;
  BOOST_CHECK_THROW(workload::build_moe_layer(spec, spec.preset("default"), o), UsageError);
}

BOOST_AUTO_TEST_SUITE_END()
