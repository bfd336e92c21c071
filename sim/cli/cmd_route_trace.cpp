// `moesim route-trace gen|check|replay` (docs/route_traces.md): synthetic skewed route traces,
// their validator, and the replay of a whole trace on golden (one `moesim run --route-trace`
// child per batch of tokens) with the per-trace report: expert load histogram, cycles and HBM
// bytes per stage, and a stratified token subset co-simulated on both engines (`moesim cosim
// --route-trace` children) whose per-stage cycles predict the full golden run.
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>

#include "cli_output.hpp"
#include "command.hpp"
#include "moesim/campaign/process.hpp"
#include "moesim/isa/file_output.hpp"
#include "moesim/workload/builder.hpp"
#include "moesim/workload/presets.hpp"
#include "moesim/workload/route_trace.hpp"
#include "path_guard.hpp"

namespace moesim::cli {

namespace fs = std::filesystem;
using Json = nlohmann::json;

namespace {

struct GenFlags {
  std::string out, model;
  unsigned experts = 128, top_k = 8, tokens = 1024;
  double zipf = 1.0;
  uint64_t seed = 1;
};

int cmd_gen(const GenFlags& f, const CLI::App& app) {
  workload::TraceGenOptions o;
  o.experts = f.experts;
  o.top_k = f.top_k;
  o.tokens = f.tokens;
  o.zipf_s = f.zipf;
  o.seed = f.seed;
  std::string model_name;
  if (!f.model.empty()) {
    if (app.count("--experts") != 0 || app.count("--top-k") != 0)
      throw UsageError("--model: gives E and k; leave out --experts / --top-k");
    const workload::ModelPreset m = workload::resolve_model(f.model);
    workload::check_model_routing(m);  // its k and E, named by the model's keys
    o.experts = m.experts;
    o.top_k = m.top_k;
    model_name = m.name;
  }
  check_output_path("-o", f.out);
  PathGuard guard;
  guard.output("-o " + f.out, f.out);
  if (!f.model.empty() &&
      (fs::path(f.model).extension() == ".json" || fs::is_regular_file(f.model)))
    guard.input("--model", f.model);
  guard.check();
  workload::RouteTrace t = workload::generate_route_trace(o);  // bounded: refuses before work
  t.model = model_name;
  bad_input_of<std::exception>("-o " + f.out + ": ",
                               [&] { isa::write_file(f.out, workload::route_trace_json(t)); });
  std::cout << f.out << ": " << count_of(t.tokens.size(), "token") << ", E = " << t.experts
            << ", k = " << t.top_k << " (" << t.source << ")\n";
  return kExitEqual;
}

/// The load histogram: per expert pairs, summarised, and the hottest experts.
Json load_summary(const workload::RouteTrace& t, std::ostream& os) {
  const std::vector<uint64_t> load =
      workload::expert_load(t, 0, static_cast<unsigned>(t.tokens.size()));
  const uint64_t pairs = t.tokens.size() * uint64_t{t.top_k};
  const double mean = static_cast<double>(pairs) / t.experts;
  std::vector<uint32_t> order(t.experts);
  for (uint32_t e = 0; e < t.experts; ++e) order[e] = e;
  std::stable_sort(order.begin(), order.end(),
                   [&](uint32_t a, uint32_t b) { return load[a] > load[b]; });
  const uint64_t max = load[order.front()], min = load[order.back()];
  uint64_t idle = 0;
  for (uint64_t l : load) idle += l == 0 ? 1 : 0;
  char line[200];
  std::snprintf(line, sizeof line,
                "expert load: %llu pairs over %u experts, mean %.1f, max %llu (%.2f x mean, expert "
                "%u), min %llu, %llu experts idle\n",
                static_cast<unsigned long long>(pairs), t.experts, mean,
                static_cast<unsigned long long>(max), max / mean, order.front(),
                static_cast<unsigned long long>(min), static_cast<unsigned long long>(idle));
  os << line;
  // Histogram of loads relative to the mean, in bins of 0.25 x mean up to 4 x (then open).
  std::vector<uint64_t> bins(17, 0);
  for (uint64_t l : load) bins[std::min<size_t>(16, static_cast<size_t>(l / mean / 0.25))]++;
  os << "  load / mean   experts\n";
  for (size_t b = 0; b < bins.size(); ++b) {
    if (bins[b] == 0) continue;
    if (b < 16)
      std::snprintf(line, sizeof line, "  [%.2f, %.2f)  %5llu  ", b * 0.25, (b + 1) * 0.25,
                    static_cast<unsigned long long>(bins[b]));
    else
      std::snprintf(line, sizeof line, "  [4.00, inf)   %5llu  ",
                    static_cast<unsigned long long>(bins[b]));
    os << line << std::string(std::min<uint64_t>(60, bins[b]), '#') << '\n';
  }
  os << "  hottest:";
  Json hot = Json::array();
  for (size_t i = 0; i < std::min<size_t>(8, order.size()); ++i) {
    os << ' ' << order[i] << ':' << load[order[i]];
    hot.push_back({{"expert", order[i]}, {"pairs", load[order[i]]}});
  }
  os << '\n';
  return {{"pairs", pairs},       {"mean", mean},       {"max", max},    {"min", min},
          {"idle_experts", idle}, {"per_expert", load}, {"hottest", hot}};
}

int cmd_check(const std::string& path) {
  const workload::RouteTrace t = workload::load_route_trace(path);
  std::cout << path << ": valid, version " << workload::kRouteTraceVersion << ", "
            << count_of(t.tokens.size(), "token") << ", E = " << t.experts << ", k = " << t.top_k;
  if (!t.model.empty()) std::cout << ", model " << t.model;
  std::cout << '\n';
  if (!t.source.empty()) std::cout << "source: " << t.source << '\n';
  load_summary(t, std::cout);
  return kExitEqual;
}

struct ReplayFlags {
  std::string trace, model, machine, lowering, topk_policy, report, work;
  unsigned hidden = 0, intermediate = 0, batch = 16, subset = 64;
  uint64_t seed = 1;
  bool shared = false;
};

/// Stratified subset of about n tokens: a token's routing pattern is how many of its k experts
/// are hot (the ceil(E/4) most loaded of the trace); each pattern gets its share of n (largest
/// remainder) and its tokens are taken evenly spaced. Returned in trace order.
std::vector<unsigned> stratified_subset(const workload::RouteTrace& t, unsigned n, Json& strata) {
  const auto N = static_cast<unsigned>(t.tokens.size());
  const std::vector<uint64_t> load = workload::expert_load(t, 0, N);
  std::vector<uint32_t> order(t.experts);
  for (uint32_t e = 0; e < t.experts; ++e) order[e] = e;
  std::stable_sort(order.begin(), order.end(),
                   [&](uint32_t a, uint32_t b) { return load[a] > load[b]; });
  std::vector<bool> hot(t.experts, false);
  for (uint32_t i = 0; i < (t.experts + 3) / 4; ++i) hot[order[i]] = true;
  std::map<unsigned, std::vector<unsigned>> by_pattern;
  for (unsigned i = 0; i < N; ++i) {
    unsigned h = 0;
    for (uint32_t id : t.tokens[i].ids) h += hot[id] ? 1 : 0;
    by_pattern[h].push_back(i);
  }
  std::vector<std::pair<unsigned, double>> share;  // pattern, exact share
  unsigned given = 0;
  std::map<unsigned, unsigned> take;
  for (const auto& [p, toks] : by_pattern) {
    const double s = static_cast<double>(n) * toks.size() / N;
    take[p] = static_cast<unsigned>(std::floor(s));
    given += take[p];
    share.emplace_back(p, s - std::floor(s));
  }
  std::stable_sort(share.begin(), share.end(),
                   [](auto& a, auto& b) { return a.second > b.second; });
  for (size_t i = 0; given < n && i < share.size(); ++i, ++given) take[share[i].first]++;
  std::vector<unsigned> out;
  strata = Json::array();
  for (const auto& [p, toks] : by_pattern) {
    const unsigned m = std::min<unsigned>(take[p], static_cast<unsigned>(toks.size()));
    for (unsigned i = 0; i < m; ++i)
      out.push_back(toks[static_cast<size_t>((i + 0.5) * toks.size() / m)]);
    strata.push_back({{"hot_experts", p}, {"tokens", toks.size()}, {"taken", m}});
  }
  std::sort(out.begin(), out.end());
  return out;
}

struct StageSums {
  std::map<std::string, uint64_t> cycles, hbm_read, hbm_written, instructions;
  uint64_t total_cycles = 0, layers = 0;
  void add(const Json& stages, uint64_t total) {
    for (const auto& [name, s] : stages.items()) {
      cycles[name] += s.at("cycles").get<uint64_t>();
      hbm_read[name] += s.at("hbm_bytes_read").get<uint64_t>();
      hbm_written[name] += s.at("hbm_bytes_written").get<uint64_t>();
      instructions[name] += s.at("instructions").get<uint64_t>();
    }
    total_cycles += total;
    ++layers;
  }
};

/// Runs one child and returns its --report JSON; a failed child fails the replay.
Json run_child(const std::vector<std::string>& argv, const std::string& report, bool allow_mismatch,
               int& status) {
  const campaign::Captured c = campaign::run_captured(argv);
  status = c.status;
  std::string cmd;
  for (const auto& a : argv) cmd += (cmd.empty() ? "" : " ") + a;
  if (c.status == kExitUsage) {
    std::string line = c.err.substr(0, c.err.find('\n'));
    const std::string prefix = "moesim: error: ";
    if (line.rfind(prefix, 0) == 0) line = line.substr(prefix.size());
    throw UsageError(line + " (in: " + cmd + ")");
  }
  if (c.status != 0 && !(allow_mismatch && c.status == kExitMismatch))
    throw std::runtime_error("child exited " + std::to_string(c.status) + ": " + cmd + "\n" +
                             c.err);
  std::ifstream in(report);
  if (!in) throw std::runtime_error("child wrote no report: " + cmd);
  return Json::parse(in);
}

/// The golden per-stage table of a child's report: `moesim run` (stages with cycles, ...;
/// total_cycles a number) or `moesim cosim` (golden_cycles, ...; total_cycles per engine).
Json golden_stages(const Json& r, uint64_t& total) {
  const bool cosim = r.at("total_cycles").is_object();
  total =
      cosim ? r["total_cycles"].at("golden").get<uint64_t>() : r["total_cycles"].get<uint64_t>();
  const std::string p = cosim ? "golden_" : "";
  Json out = Json::object();
  for (const auto& [name, s] : r.at("stages").items())
    out[name] = {{"cycles", s.at(p + "cycles")},
                 {"hbm_bytes_read", s.at(p + "hbm_bytes_read")},
                 {"hbm_bytes_written", s.at(p + "hbm_bytes_written")},
                 {"instructions", s.at("instructions")}};
  return out;
}

int cmd_replay(const isa::Spec& spec, const ReplayFlags& f, const CLI::App& app) {
  const workload::RouteTrace t = workload::load_route_trace(f.trace);
  const auto N = static_cast<unsigned>(t.tokens.size());
  if (f.batch == 0) throw UsageError("--batch must be at least 1");
  // --subset defaults to 64 tokens, or the whole trace when it is shorter.
  const unsigned subset_n = app.count("--subset") != 0 ? f.subset : std::min(f.subset, N);
  if (subset_n == 0 || subset_n > N)
    throw UsageError("--subset " + std::to_string(subset_n) + ": must be in 1.." +
                     std::to_string(N) + " (the tokens of " + f.trace + ")");
  // Outputs never overwrite inputs, nor each other: the report before anything is written, and
  // each file the replay writes in --work before it is written.
  const bool model_file = fs::path(f.model).extension() == ".json" || fs::is_regular_file(f.model);
  auto check_output = [&](const std::string& what, const std::string& path) {
    PathGuard guard;
    guard.input("", f.trace);
    if (model_file) guard.input("--model", f.model);
    guard.output_dir("--work " + f.work, f.work);
    guard.output(what, path);
    if (what.rfind("--report ", 0) != 0) guard.output("--report " + f.report, f.report);
    guard.check();
  };
  if (!f.report.empty()) check_output_path("--report", f.report);
  check_output("--report " + f.report, f.report);
  if (!f.work.empty() && fs::exists(f.work) && !fs::is_directory(f.work))
    throw UsageError("--work " + f.work + ": exists and is not a directory");
  const std::string exe = fs::read_symlink("/proc/self/exe").string();
  const fs::path work =
      f.work.empty() ? fs::temp_directory_path() / ("moesim-replay-" + std::to_string(::getpid()))
                     : fs::path(f.work);
  std::error_code ec;
  fs::create_directories(work, ec);
  if (ec) throw UsageError("--work " + work.string() + ": cannot create it: " + ec.message());
  // The temporary work folder goes whether the replay ends well or not.
  struct RemoveWork {
    fs::path dir;
    ~RemoveWork() {
      std::error_code e;
      if (!dir.empty()) fs::remove_all(dir, e);
    }
  } remove_work{f.work.empty() ? work : fs::path()};
  std::vector<std::string> common = {"--model", f.model};
  auto pass = [&](const char* flag, const std::string& v) {
    if (app.count(flag) != 0) {
      common.push_back(flag);
      common.push_back(v);
    }
  };
  pass("--machine", f.machine);
  pass("--hidden", std::to_string(f.hidden));
  pass("--intermediate", std::to_string(f.intermediate));
  pass("--lowering", f.lowering);
  pass("--topk-policy", f.topk_policy);
  pass("--seed", std::to_string(f.seed));
  if (f.shared) common.push_back("--shared");

  std::cout << "route trace " << f.trace << ": " << count_of(N, "token") << ", E = " << t.experts
            << ", k = " << t.top_k << '\n';
  Json report = {{"trace", f.trace}, {"tokens", N},        {"experts", t.experts},
                 {"top_k", t.top_k}, {"source", t.source}, {"batch", f.batch}};
  report["expert_load"] = load_summary(t, std::cout);
  std::cout << std::flush;

  // One batch [a, b) of a trace file as a child run (golden alone, or a co-simulation), its
  // stage cycles added to `sums`; returns the child's exit status.
  auto run_batch = [&](const std::vector<std::string>& head, const std::string& trace, unsigned a,
                       unsigned b, const std::string& rep, bool cosim, StageSums& sums) {
    check_output("the child report " + rep + " in --work", rep);
    std::vector<std::string> argv = head;
    for (const std::string& arg :
         {std::string("--route-trace"), trace, std::string("--tokens-from"), std::to_string(a),
          std::string("--tokens-to"), std::to_string(b), std::string("--report"), rep}) {
      argv.push_back(arg);
    }
    argv.insert(argv.end(), common.begin(), common.end());
    int status = 0;
    const Json r = run_child(argv, rep, cosim, status);
    uint64_t total = 0;
    const Json stages = golden_stages(r, total);  // sets total
    sums.add(stages, total);
    return status;
  };

  // The whole trace on golden, one layer per batch.
  const auto t0 = Clock::now();
  StageSums full;
  // A progress line at most every 5 s (children run for seconds to minutes; CI logs too).
  auto last_line = Clock::now();
  auto progress = [&](const char* what, unsigned done, unsigned of, Clock::time_point since) {
    if (done < of && seconds_since(last_line) < 5.0) return;
    last_line = Clock::now();
    std::cout << "[moesim replay] " << what << ": " << done << "/" << of << " tokens, "
              << static_cast<int>(seconds_since(since)) << " s" << std::endl;
  };
  for (unsigned a = 0; a < N; a += f.batch) {
    const std::string rep = (work / ("golden_" + std::to_string(a) + ".json")).string();
    run_batch({exe, "run", "--engine", "golden", "--quiet"}, f.trace, a, std::min(N, a + f.batch),
              rep, false, full);
    progress("whole trace on golden", std::min(N, a + f.batch), N, t0);
  }
  const double golden_s = seconds_since(t0);

  // The stratified subset, co-simulated on both engines (its own trace file, in batches).
  Json strata;
  const std::vector<unsigned> subset = stratified_subset(t, subset_n, strata);
  workload::RouteTrace st = t;
  st.tokens.clear();
  for (unsigned i : subset) st.tokens.push_back(t.tokens[i]);
  st.source = "stratified subset of " + f.trace + " (" + std::to_string(subset.size()) + " of " +
              std::to_string(N) + " tokens)";
  const std::string subset_file = (work / "subset.json").string();
  check_output("the subset trace " + subset_file + " in --work", subset_file);
  isa::write_file(subset_file, workload::route_trace_json(st));
  const auto t1 = Clock::now();
  StageSums sub;
  bool all_equal = true;
  const auto n = static_cast<unsigned>(subset.size());
  for (unsigned a = 0; a < n; a += f.batch) {
    const std::string rep = (work / ("cosim_" + std::to_string(a) + ".json")).string();
    const int status =
        run_batch({exe, "cosim"}, subset_file, a, std::min(n, a + f.batch), rep, true, sub);
    all_equal = all_equal && status == 0;
    progress("subset golden vs RTL", std::min(n, a + f.batch), n, t1);
  }
  const double cosim_s = seconds_since(t1);

  // Prediction: the subset's per-stage cycles scaled by N / n.
  const double scale = static_cast<double>(N) / n;
  std::printf(
      "\nwhole trace on golden: %u layers of <= %u tokens, %.1f s, %llu cycles, %.1f "
      "cycles per token\n",
      static_cast<unsigned>(full.layers), f.batch, golden_s,
      static_cast<unsigned long long>(full.total_cycles),
      static_cast<double>(full.total_cycles) / N);
  std::printf(
      "subset: %u tokens (stratified by the number of hot experts per token), golden vs "
      "RTL co-simulation in %u layers, %.1f s: %s\n",
      n, static_cast<unsigned>(sub.layers), cosim_s,
      all_equal ? "bit- and cycle-exact" : "MISMATCH");
  std::printf("\n%-26s %14s %14s %14s %14s %9s\n", "stage", "cycles (full)", "HBM read B",
              "subset cycles", "predicted", "error");
  Json stages = Json::object();
  // In stages.yaml's order (the order of every other stage table), then any other name.
  std::vector<std::string> order;
  for (const isa::StageSpec& st : spec.stages())
    if (full.cycles.count(st.name) != 0) order.push_back(st.name);
  for (const auto& [name, c] : full.cycles)
    if (spec.stage(name) == nullptr) order.push_back(name);
  for (const std::string& name : order) {
    const uint64_t c = full.cycles.at(name);
    const uint64_t s = sub.cycles.count(name) ? sub.cycles.at(name) : 0;
    const double pred = s * scale;
    const double err = c == 0 ? 0.0 : (pred - static_cast<double>(c)) / static_cast<double>(c);
    std::printf("%-26s %14llu %14llu %14llu %14.0f %8.2f%%\n", name.c_str(),
                static_cast<unsigned long long>(c),
                static_cast<unsigned long long>(full.hbm_read.at(name)),
                static_cast<unsigned long long>(s), pred, 100.0 * err);
    stages[name] = {{"cycles", c},
                    {"instructions", full.instructions.at(name)},
                    {"hbm_bytes_read", full.hbm_read.at(name)},
                    {"hbm_bytes_written", full.hbm_written.at(name)},
                    {"subset_cycles", s},
                    {"predicted_cycles", pred},
                    {"relative_error", err}};
  }
  const double pred_total = static_cast<double>(sub.total_cycles) * scale;
  const double err_total = (pred_total - static_cast<double>(full.total_cycles)) /
                           static_cast<double>(full.total_cycles);
  std::printf("%-26s %14llu %14s %14llu %14.0f %8.2f%%\n", "total",
              static_cast<unsigned long long>(full.total_cycles), "",
              static_cast<unsigned long long>(sub.total_cycles), pred_total, 100.0 * err_total);
  report["golden"] = {{"layers", full.layers},
                      {"seconds", golden_s},
                      {"total_cycles", full.total_cycles},
                      {"cycles_per_token", static_cast<double>(full.total_cycles) / N},
                      {"stages", stages}};
  report["subset"] = {{"tokens", subset},
                      {"strata", strata},
                      {"layers", sub.layers},
                      {"seconds", cosim_s},
                      {"total_cycles", sub.total_cycles},
                      {"predicted_total_cycles", pred_total},
                      {"relative_error", err_total},
                      {"cosim_equal", all_equal}};
  if (!f.report.empty())
    bad_input_of<std::exception>("--report " + f.report + ": ",
                                 [&] { isa::write_file(f.report, report.dump(2) + "\n"); });
  return all_equal ? kExitEqual : kExitMismatch;
}

}  // namespace

Subcommand add_route_trace(CLI::App& app) {
  CLI::App* sub = app.add_subcommand(
      "route-trace",
      "Recorded routing: generate, check and replay route traces (docs/route_traces.md)");
  sub->require_subcommand(1);
  auto g = std::make_shared<GenFlags>();
  CLI::App* gen = sub->add_subcommand(
      "gen", "write a synthetic skewed route trace (Zipf expert popularity, seeded)");
  writes(gen->add_option("-o", g->out, "the trace to write (JSON)")->required());
  reads(gen->add_option("--model", g->model, "take E and k from a model preset or config.json"),
        "NAME|FILE");
  gen->add_option("--experts", g->experts, "E")->capture_default_str()->check(kNotNegative);
  gen->add_option("--top-k", g->top_k, "k")->capture_default_str()->check(kNotNegative);
  gen->add_option("--tokens", g->tokens, "tokens")->capture_default_str()->check(kNotNegative);
  gen->add_option("--zipf", g->zipf, "Zipf exponent s of the expert popularity (0: uniform)")
      ->capture_default_str();
  gen->add_option("--seed", g->seed, "seed of the std::mt19937_64 stream")
      ->capture_default_str()
      ->check(kNotNegative);
  auto c = std::make_shared<std::string>();
  CLI::App* check =
      sub->add_subcommand("check", "validate a route trace and print its expert load");
  reads(check->add_option("FILE", *c, "the route trace")->required());
  auto r = std::make_shared<ReplayFlags>();
  CLI::App* replay = sub->add_subcommand(
      "replay",
      "replay a whole trace on golden in layers of --batch tokens, co-simulate a stratified "
      "subset on both engines and report how well it predicts the full run");
  reads(replay->add_option("FILE", r->trace, "the route trace")->required());
  reads(replay->add_option("--model", r->model, "model preset or config.json (E, k as the trace's)")
            ->required(),
        "NAME|FILE");
  replay->add_option("--machine", r->machine, "machine preset");
  replay->add_option("--hidden", r->hidden, "H")->check(kNotNegative);
  replay->add_option("--intermediate", r->intermediate, "I")->check(kNotNegative);
  replay->add_option("--lowering", r->lowering, "pair or expert");
  replay->add_option("--topk-policy", r->topk_policy, "auto or register");
  replay->add_option("--seed", r->seed, "seed of the layer's weights")->check(kNotNegative);
  replay->add_flag("--shared", r->shared, "add the model's shared expert");
  replay->add_option("--batch", r->batch, "tokens per layer (one program per batch)")
      ->capture_default_str()
      ->check(kNotNegative);
  replay->add_option("--subset", r->subset, "tokens of the co-simulated stratified subset")
      ->capture_default_str()
      ->check(kNotNegative);
  writes(replay->add_option("--report", r->report, "write the per-trace report (JSON)"));
  writes(replay->add_option("--work", r->work,
                            "keep the children's reports and the subset trace in DIR"),
         "DIR");
  return {sub, [sub, gen, check, replay, g, c, r](const isa::Spec& spec) {
            (void)sub;
            if (*gen) return cmd_gen(*g, *gen);
            if (*check) return cmd_check(*c);
            if (*replay) return cmd_replay(spec, *r, *replay);
            throw std::logic_error("route-trace: no subcommand");
          }};
}

}  // namespace moesim::cli
