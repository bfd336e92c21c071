// `moesim bench`: wall time of each engine alone on a generated layer (not a test).

#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <sstream>

#include "cli_output.hpp"
#include "command.hpp"
#include "moesim/cosim/cosim.hpp"
#include "moesim/cosim/engines.hpp"
#include "moesim/report/profile.hpp"
#include "moesim/workload/reference.hpp"
#include "output_flags.hpp"
#include "program_flags.hpp"

namespace moesim::cli {

namespace fs = std::filesystem;

namespace {

struct BenchFlags {
  ProgramFlags program;
  std::vector<unsigned> tokens = {1, 16};
  std::string engine = "both";
};

/// One engine alone on `w`, timed; prints one line and returns the result.
cosim::RunResult bench_engine(const isa::Spec& spec, isa::Engine& engine, const Workload& w,
                              const ProgramFlags& f, double& seconds) {
  engine.load(w.program, w.image);
  Progress progress(f.progress_after);
  cosim::CosimOptions opts;
  opts.max_instructions = f.max_instructions;
  opts.progress = [&](uint64_t n, uint64_t c) { progress(n, c); };
  const auto t0 = Clock::now();
  cosim::RunResult r = cosim::run_single(spec, engine, opts);
  seconds = seconds_since(t0);
  progress.done();
  return r;
}

/// Not a test: wall time of each engine alone on a generated layer, per token count.
int cmd_bench(const isa::Spec& spec, BenchFlags f) {
  int status = kExitEqual;
  for (unsigned tokens : f.tokens) {
    f.program.tokens = tokens;
    const auto t_build = Clock::now();
    Workload w = make_workload(spec, f.program);
    const double build_s = seconds_since(t_build);
    std::cout << "moesim bench: " << describe(w, f.program) << "\n  program built in " << build_s
              << " s; HBM image " << w.built->layout.hbm_input_end << " bytes of HBM_BYTES "
              << w.preset->get("HBM_BYTES") << "\n";
    std::vector<std::pair<std::unique_ptr<isa::Engine>, cosim::RunResult>> ran;
    for (const char* name : {"golden", "rtl"}) {
      if (f.engine != "both" && f.engine != name) continue;
      if (std::string(name) == "rtl" && !cli::rtl_built_for(w.preset->name)) {
        std::cout << "  rtl: skipped, no RTL model was built for preset '" << w.preset->name
                  << "' (configure with -DMOESIM_RTL_PRESETS=\"" << cli::rtl_built_list() << ";"
                  << w.preset->name << "\")\n";
        continue;
      }
      auto engine = std::string(name) == "golden" ? cosim::make_golden_engine(spec, *w.preset)
                                                  : make_rtl(spec, *w.preset, "");
      double s = 0;
      cosim::RunResult r = bench_engine(spec, *engine, w, f.program, s);
      if (r.limit_reached) return limit_error(f.program);
      char line[256];
      std::snprintf(line, sizeof line,
                    "  %-6s %10llu instructions %12llu cycles %10.3f s wall  %12.0f instr/s "
                    "%14.0f cycles/s%s\n",
                    name, static_cast<unsigned long long>(r.retired),
                    static_cast<unsigned long long>(r.total_cycles), s,
                    static_cast<double>(r.retired) / s, static_cast<double>(r.total_cycles) / s,
                    r.trap ? "  TRAP" : "");
      std::cout << line;
      if (r.trap) status = kExitMismatch;
      ran.emplace_back(std::move(engine), std::move(r));
    }
    if (ran.size() == 2) {
      const auto a = workload::read_layer_output(*ran[0].first, *w.preset, *w.built);
      const auto b = workload::read_layer_output(*ran[1].first, *w.preset, *w.built);
      const auto pa = report::make_profile(spec, ran[0].second.stages, 0, "golden");
      const auto pb = report::make_profile(spec, ran[1].second.stages, 0, "rtl");
      const bool same_out = a.acc_bf16 == b.acc_bf16 && a.out_mxfp8 == b.out_mxfp8;
      const bool same_prof = report::profile_differences(pa, pb).empty();
      std::cout << "  golden vs rtl: outputs " << (same_out ? "equal" : "DIFFER")
                << ", stage profiles " << (same_prof ? "equal" : "DIFFER") << "\n";
      if (!same_out || !same_prof) status = kExitMismatch;
    }
    if (!ran.empty()) {
      std::cout << '\n';
      report::print_profile(
          std::cout, report::make_profile(spec, ran[0].second.stages, 0, ran[0].first->name()));
    }
    std::cout << '\n';
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
  sub->add_option("--model", bf.program.model, "model preset")->capture_default_str();
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
  sub->add_option("--token-counts", bf.tokens, "token counts to run, one layer each")
      ->capture_default_str()
      ->check(kNotNegative);
  sub->add_option("--engine", bf.engine, "golden, rtl or both")
      ->capture_default_str()
      ->check(CLI::IsMember({"golden", "rtl", "both"}));
  return {sub, [flags](const isa::Spec& spec) { return cmd_bench(spec, *flags); }};
}

}  // namespace moesim::cli
