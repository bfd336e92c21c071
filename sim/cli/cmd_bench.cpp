// `moesim bench`: wall time of each engine alone on a generated layer (not a test), with
// --engine both also of the lockstep co-simulation; --report writes the figures as JSON.

#include <sys/resource.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <memory>
#include <optional>
#include <sstream>

#include "cli_output.hpp"
#include "command.hpp"
#include "moesim/cosim/cosim.hpp"
#include "moesim/cosim/engines.hpp"
#include "moesim/report/profile.hpp"
#include "moesim/report/report.hpp"
#include "moesim/workload/reference.hpp"
#include "output_flags.hpp"
#include "path_guard.hpp"
#include "program_flags.hpp"

namespace moesim::cli {

namespace fs = std::filesystem;

namespace {

struct BenchFlags {
  ProgramFlags program;
  std::vector<unsigned> tokens = {1, 16};
  std::string engine = "both";
  std::string report;   ///< --report: the figures as JSON
  bool demo = false;    ///< --demo: the README demo program (scripts/demo.sh)
  unsigned repeat = 1;  ///< --repeat: alternating runs per token count, medians reported
};

/// Peak resident set size of this process so far, bytes.
uint64_t peak_rss_bytes() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return static_cast<uint64_t>(u.ru_maxrss) * 1024;  // Linux: kilobytes
}

/// One engine alone on `w`, timed; prints one line and returns the result.
cosim::RunResult bench_engine(const isa::Spec& spec, isa::Engine& engine, const Workload& w,
                              const ProgramFlags& f, double& seconds) {
  engine.load(w.program, w.image());
  Progress progress(spec, f.progress, count_dynamic_instructions(spec, w.program));
  cosim::CosimOptions opts;
  opts.max_instructions = f.max_instructions;
  opts.progress = [&](uint64_t n, uint64_t c) { progress.update(n, c); };
  opts.progress_every = 256;
  const auto t0 = Clock::now();
  cosim::RunResult r = cosim::run_single(spec, engine, opts);
  seconds = seconds_since(t0);
  progress.done();
  return r;
}

/// make_workload for one token count: the builder names the token count --tokens; bench's flag
/// is --token-counts.
Workload bench_workload(const isa::Spec& spec, const ProgramFlags& p) {
  try {
    return make_workload(spec, p);
  } catch (const UsageError& e) {
    const std::string m = e.what();
    if (m.rfind("--tokens ", 0) == 0) throw UsageError("--token-counts " + m.substr(9));
    throw;
  }
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const size_t n = v.size();
  return n % 2 == 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/// Not a test: wall time of each engine alone on a generated layer, per token count; with both
/// engines also the co-simulation of the same program and its overhead over the two alone.
/// With --repeat N the runs alternate (golden, rtl, cosim, golden, ...) and the figures are the
/// medians, so a shared machine's load drifts into all three alike.
int cmd_bench(const isa::Spec& spec, BenchFlags f) {
  check_output_path("--report", f.report);
  if (!f.report.empty() && std::filesystem::path(f.report).extension() != ".json")
    throw UsageError("--report " + f.report + ": the bench report is JSON; name it .json");
  {  // the report never overwrites the config.json the layer is built from
    PathGuard guard;
    guard.output("--report " + f.report, f.report);
    if (std::filesystem::path(f.program.model).extension() == ".json" ||
        std::filesystem::is_regular_file(f.program.model))
      guard.input("--model", f.program.model);
    guard.check();
  }
  if (f.tokens.empty()) throw UsageError("--token-counts: give at least one token count");
  for (unsigned t : f.tokens)
    if (t == 0) throw UsageError("--token-counts: token counts must be at least 1, got 0");
  if (f.repeat == 0) throw UsageError("--repeat: must be at least 1, got 0");
  int status = kExitEqual;
  nlohmann::json runs = nlohmann::json::array();
  // SystemC allows one golden model per process: every run reloads the same one.
  std::unique_ptr<isa::Engine> golden;
  auto golden_engine = [&](const isa::MachinePreset& preset) -> isa::Engine& {
    if (!golden) golden = cosim::make_golden_engine(spec, preset);
    return *golden;
  };
  for (unsigned tokens : f.tokens) {
    f.program.tokens = tokens;
    const auto t_build = Clock::now();
    Workload w = bench_workload(spec, f.program);
    const double build_s = seconds_since(t_build);
    std::cout << "moesim bench: " << describe(w, f.program) << "\n  program built in " << build_s
              << " s; HBM image " << w.built->layout.hbm_input_end << " bytes of HBM_BYTES "
              << w.preset->get("HBM_BYTES") << "\n";
    nlohmann::json run = {{"tokens", tokens}, {"build_seconds", build_s}};
    std::vector<std::string> engines;
    for (const char* name : {"golden", "rtl"}) {
      if (f.engine != "both" && f.engine != name) continue;
      if (std::string(name) == "rtl" && !cli::rtl_built_for(spec, w.preset->name)) {
        std::cout << "  rtl: skipped, no RTL model was built for preset '" << w.preset->name
                  << "' (configure with -DMOESIM_RTL_PRESETS=\"" << cli::rtl_built_list() << ";"
                  << w.preset->name << "\")\n";
        continue;
      }
      engines.push_back(name);
    }
    std::map<std::string, std::vector<double>> seconds;
    std::map<std::string, cosim::RunResult> result;
    std::optional<std::string> verdict;
    for (unsigned rep = 0; rep < f.repeat; ++rep) {
      std::unique_ptr<isa::Engine> rtl_alone;
      std::vector<isa::Engine*> ran;
      for (const std::string& name : engines) {
        if (name == "rtl") rtl_alone = make_rtl(spec, *w.preset, "");
        isa::Engine* engine = name == "golden" ? &golden_engine(*w.preset) : rtl_alone.get();
        double s = 0;
        cosim::RunResult r = bench_engine(spec, *engine, w, f.program, s);
        if (r.limit_reached) return limit_error(f.program);
        char line[256];
        std::snprintf(line, sizeof line,
                      "  %-6s %10llu instructions %12llu cycles %10.3f s wall  %12.0f instr/s "
                      "%14.0f cycles/s%s\n",
                      name.c_str(), static_cast<unsigned long long>(r.retired),
                      static_cast<unsigned long long>(r.total_cycles), s,
                      static_cast<double>(r.retired) / s, static_cast<double>(r.total_cycles) / s,
                      r.trap ? "  TRAP" : "");
        std::cout << line;
        if (r.trap) status = kExitMismatch;
        seconds[name].push_back(s);
        result[name] = std::move(r);
        ran.push_back(engine);
      }
      if (ran.size() != 2) continue;
      const auto a = workload::read_layer_output(*ran[0], *w.preset, *w.built);
      const auto b = workload::read_layer_output(*ran[1], *w.preset, *w.built);
      const auto pa = report::make_profile(spec, result["golden"].stages, 0, "golden");
      const auto pb = report::make_profile(spec, result["rtl"].stages, 0, "rtl");
      const bool same_out = a.acc_bf16 == b.acc_bf16 && a.out_mxfp8 == b.out_mxfp8;
      const bool same_prof = report::profile_differences(pa, pb).empty();
      std::cout << "  golden vs rtl: outputs " << (same_out ? "equal" : "DIFFER")
                << ", stage profiles " << (same_prof ? "equal" : "DIFFER") << "\n";
      if (!same_out || !same_prof) status = kExitMismatch;

      // The lockstep co-simulation of the same program: the golden model reloaded, a fresh RTL
      // (one Verilated model at a time, so the one that ran alone goes first).
      rtl_alone.reset();
      isa::Engine& g = golden_engine(*w.preset);
      auto rtl = make_rtl(spec, *w.preset, "");
      g.load(w.program, w.image());
      rtl->load(w.program, w.image());
      Progress progress(spec, f.program.progress, count_dynamic_instructions(spec, w.program));
      cosim::CosimOptions opts;
      opts.max_instructions = f.program.max_instructions;
      opts.progress = [&](uint64_t n, uint64_t c) { progress.update(n, c); };
      opts.progress_every = 256;
      const auto t_sim = Clock::now();
      const cosim::CosimResult res = cosim::run_cosim(spec, g, *rtl, opts);
      const double cosim_s = seconds_since(t_sim);
      progress.done();
      if (res.limit_reached) return limit_error(f.program);
      const std::string v = report::cosim_verdict(res);
      // The verdict of every repetition must be the same; the report keeps the worst.
      if (!verdict || v != "EQUAL") verdict = v;
      char line[256];
      std::snprintf(line, sizeof line,
                    "  cosim  %10llu instructions compared %10.3f s wall  %.3f x (golden + rtl "
                    "alone)  VERDICT %s\n",
                    static_cast<unsigned long long>(res.compared), cosim_s,
                    cosim_s / (seconds["golden"].back() + seconds["rtl"].back()), v.c_str());
      std::cout << line;
      if (!res.equal()) status = kExitMismatch;
      seconds["cosim"].push_back(cosim_s);
    }
    for (const std::string& name : engines) {
      const cosim::RunResult& r = result[name];
      const double s = median(seconds[name]);
      run[name] = {{"sim_seconds", s},
                   {"instructions", r.retired},
                   {"cycles", r.total_cycles},
                   {"cycles_per_second", static_cast<double>(r.total_cycles) / s}};
    }
    if (verdict) {
      const double c = median(seconds["cosim"]);
      const double overhead = c / (median(seconds["golden"]) + median(seconds["rtl"]));
      run["cosim"] = {{"sim_seconds", c}, {"verdict", *verdict}, {"overhead", overhead}};
      if (f.repeat > 1)
        std::cout << "  medians of " << f.repeat << " alternating runs: cosim " << c
                  << " s = " << overhead << " x (golden " << median(seconds["golden"])
                  << " s + rtl " << median(seconds["rtl"]) << " s)\n";
    }
    run["peak_rss_bytes"] = peak_rss_bytes();
    std::cout << "  peak RSS " << run["peak_rss_bytes"].get<uint64_t>() << " bytes\n";
    if (!engines.empty()) {
      std::cout << '\n';
      report::print_profile(std::cout,
                            report::make_profile(spec, result[engines[0]].stages, 0, engines[0]));
    }
    std::cout << '\n';
    runs.push_back(std::move(run));
  }
  if (!f.report.empty()) {
    const nlohmann::json j = {{"tool", "moesim bench"},
                              {"model", f.program.model},
                              {"machine", f.program.machine},
                              {"engine", f.engine},
                              {"demo", f.demo},
                              {"repeat", f.repeat},
                              {"runs", runs}};
    std::cout << j.dump(2) << '\n';
    write_report(f.report, j);
  }
  return status;
}

}  // namespace

Subcommand add_bench(CLI::App& app) {
  auto flags = std::make_shared<BenchFlags>();
  BenchFlags& bf = *flags;
  bf.program.model = "qwen3-30b-a3b";
  CLI::App* sub = app.add_subcommand(
      "bench",
      "time each engine alone on a full-size layer (not a test; prints the stage profile)");
  reads(sub->add_option("--model", bf.program.model, "model preset or a Hugging Face config.json")
            ->capture_default_str(),
        "NAME|FILE");
  sub->add_option("--machine", bf.program.machine, "machine preset of machine.yaml")
      ->capture_default_str();
  bf.program.hidden_opt =
      sub->add_option("--hidden", bf.program.hidden, "hidden size H (default: the model's)")
          ->check(kNotNegative);
  bf.program.intermediate_opt = sub->add_option("--intermediate", bf.program.intermediate,
                                                "expert intermediate size I (default: the model's)")
                                    ->check(kNotNegative);
  sub->add_option("--seed", bf.program.seed, "seed of the input generator")
      ->capture_default_str()
      ->check(kNotNegative);
  bf.program.max_instructions = 0;
  sub->add_option("--max-instructions", bf.program.max_instructions,
                  "stop with exit 2 after N instructions (0: no limit)")
      ->capture_default_str()
      ->check(kNotNegative);
  add_progress_flag(sub, bf.program);
  add_dma_queue_flag(sub, bf.program);
  add_hbm_jitter_flag(sub, bf.program);
  sub->add_option("--token-counts", bf.tokens, "token counts to run, one layer each")
      ->capture_default_str()
      ->check(kNotNegative);
  CLI::Option* tokens_opt = sub->get_option("--token-counts");
  sub->add_option("--engine", bf.engine, "golden, rtl or both")
      ->capture_default_str()
      ->check(CLI::IsMember({"golden", "rtl", "both"}));
  writes(sub->add_option("--report", bf.report,
                         "also print and write the figures as JSON: runs[] of {tokens, "
                         "build_seconds, peak_rss_bytes, golden/rtl {sim_seconds, instructions, "
                         "cycles, cycles_per_second}, cosim {sim_seconds, verdict, overhead} with "
                         "--engine both}"));
  sub->add_option("--repeat", bf.repeat,
                  "run golden, rtl and cosim N times alternating; report the medians")
      ->capture_default_str()
      ->check(kNotNegative);
  sub->add_flag("--demo", bf.demo,
                "the README demo program (scripts/demo.sh): --model gpt-oss-20b --token-counts 4 "
                "--hidden 128 --intermediate 128 on the default machine")
      ->excludes(sub->get_option("--model"))
      ->excludes(sub->get_option("--machine"))
      ->excludes(bf.program.hidden_opt)
      ->excludes(bf.program.intermediate_opt)
      ->excludes(tokens_opt);
  return {sub, [flags](const isa::Spec& spec) {
            BenchFlags& f = *flags;
            if (f.demo) {
              f.program.model = "gpt-oss-20b";
              f.program.machine = "default";
              f.tokens = {4};
              f.program.hidden = 128;
              f.program.intermediate = 128;
              // make_workload takes H and I from the options that were given.
              f.program.hidden_opt->add_result("128");
              f.program.intermediate_opt->add_result("128");
            }
            return cmd_bench(spec, f);
          }};
}

}  // namespace moesim::cli
