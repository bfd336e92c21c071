// `moesim run`: one engine alone; --dump writes its outputs.

#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <sstream>

#include "cli_output.hpp"
#include "command.hpp"
#include "moesim/cosim/cosim.hpp"
#include "moesim/cosim/engines.hpp"
#include "moesim/isa/assembler.hpp"
#include "moesim/isa/file_output.hpp"
#include "moesim/isa/numerics.hpp"
#include "moesim/report/profile.hpp"
#include "moesim/report/provenance.hpp"
#include "moesim/report/report.hpp"
#include "moesim/workload/reference.hpp"
#include "output_flags.hpp"
#include "program_flags.hpp"
#include "rtl_coverage_flag.hpp"

namespace moesim::cli {

namespace fs = std::filesystem;

namespace {

struct RunFlags : OutputFlags {
  ProgramFlags program;
  std::string engine, dump;
  bool quiet = false;
};

int cmd_run(const isa::Spec& spec, const RunFlags& f, const std::string& rtl_coverage) {
  const auto t0 = Clock::now();
  // Every output of the run (derived files and the dump included) against every input and
  // every other output, before anything is written.
  PathGuard guard;
  check_outputs(f, f.program, guard);
  if (!f.trace_rtl.empty() && f.engine != "rtl")
    throw UsageError("--trace-rtl needs --engine rtl (it writes the RTL's signals)");
  check_dump(f.dump, f.program, {""}, guard);
  guard_rtl_coverage(rtl_coverage, guard);
  guard.check();
  check_dump_dir(f.dump);
  check_rtl_coverage_build(rtl_coverage);
  Workload w = make_workload(spec, f.program);
  if (f.engine != "golden") cli::check_rtl_preset(spec, w.preset->name);
  const std::string head = "moesim run: " + describe(w, f.program) + ", engine " + f.engine;
  // The run header comes first, before the simulation (the tables follow it at the end).
  if (!f.quiet) std::cout << head << "\n\n" << std::flush;
  // The outputs open before the engine is made: one that cannot be written is refused before
  // the engine's memories exist.
  auto vcd = open_vcd(spec, f.vcd, {f.engine}, *w.preset);
  auto trace = open_trace_json(spec, f.trace_json, {f.engine});
  std::vector<std::string> log_header = report::provenance_lines(w.provenance);
  log_header.insert(log_header.begin(), head);
  auto trace_log = open_trace_log(spec, f.trace_log, {f.engine}, log_header);
  std::unique_ptr<isa::Engine> engine;
  if (f.engine == "golden")
    engine = cosim::make_golden_engine(spec, *w.preset);
  else
    engine = make_rtl(spec, *w.preset, f.trace_rtl, trace_window(f));
  if (w.budget) engine->set_instruction_budget(*w.budget);  // --random-seed
  engine->load(w.program, w.image());
  Progress progress(spec, f.program.progress, count_dynamic_instructions(spec, w.program));
  cosim::CosimOptions opts;
  FlaggedSinks flagged;  // a write error of a sink names its flag (exit 2)
  flagged.add(vcd.get(), "--vcd");
  flagged.add(trace.get(), "--trace-json");
  flagged.add(trace_log.get(), "--trace-log");
  flagged.into(opts.sinks);
  opts.sinks.push_back(&progress);
  opts.work = w.program.work;
  opts.max_instructions = f.program.max_instructions;
  const auto t_sim = Clock::now();
  const cosim::RunResult res = cosim::run_single(spec, *engine, opts);
  const double sim_s = seconds_since(t_sim);
  progress.done();
  write_rtl_gtkw(spec, f, res.total_cycles);
  if (!f.quiet) {
    report::print_stage_table(std::cout, res.stages, {res.engine});
    std::cout << '\n';
    report::print_unit_table(std::cout, res.units, {res.engine}, {res.total_cycles});
    std::cout << '\n';
    print_utilisation(std::cout, w,
                      res.limit_reached ? std::optional<uint64_t>(res.retired) : std::nullopt);
    if (w.built) std::cout << '\n';
  }
  std::cout << res.engine << ": " << res.retired << " instructions retired, " << res.total_cycles
            << " cycles, " << sim_s << " s";
  if (res.trap) {
    const isa::TrapSpec* ts = spec.trap_by_code(res.trap->cause);
    std::cout << "; TRAP " << (ts ? ts->name : std::to_string(res.trap->cause)) << " at pc "
              << res.trap->pc << " (" << isa::disassemble(spec, res.trap->word) << ")";
  }
  if (res.limit_reached)
    std::cout << "; STOPPED: the program did not end within --max-instructions "
              << f.program.max_instructions;
  std::cout << std::endl;
  if (res.limit_reached) return limit_error(f.program);
  if (!f.dump.empty()) dump_outputs(f.dump, *engine, w);
  bool reference_ok = true;
  nlohmann::json reference_json = nullptr;
  if (f.reference && !res.trap)
    reference_json = reference_check(w, {engine.get()}, reference_ok, std::cout);
  nlohmann::json ctx = context_json(spec, f.program, w);
  ctx["tool"] = "moesim run";
  ctx["reference"] = reference_json;
  if (!f.trace_log.empty()) ctx["trace_log"] = f.trace_log;
  const report::StageProfile prof = report::make_profile(spec, res.stages, 0, res.engine);
  if (!f.quiet && !f.profile.empty()) {
    report::print_profile(std::cout, prof);
    std::cout << '\n';
  }
  if (!f.profile.empty())
    write_profile(
        f.profile,
        {{"tool", "moesim run"}, {"program", w.name}, {"profiles", {report::profile_json(prof)}}});
  ctx["simulation_time_s"] = sim_s;
  ctx["wall_time_s"] = seconds_since(t0);
  if (!f.report.empty()) {
    nlohmann::json j = report::run_json(spec, res);
    j.update(ctx);
    write_report(f.report, j);
  }
  if (!f.html.empty()) write_html(f.html, spec, nullptr, &res, ctx);
  return res.trap || !reference_ok ? kExitMismatch : kExitEqual;
}

}  // namespace

Subcommand add_run(CLI::App& app) {
  auto flags = std::make_shared<RunFlags>();
  RunFlags& rf = *flags;
  CLI::App* sub = app.add_subcommand("run", "run one engine alone");
  add_program_flags(sub, rf.program);
  add_dma_queue_flag(sub, rf.program);
  add_hbm_jitter_flag(sub, rf.program);
  sub->add_option("--engine", rf.engine, "golden or rtl")
      ->required()
      ->check(CLI::IsMember({"golden", "rtl"}));
  writes(sub->add_option("--dump", rf.dump,
                         "write the outputs to DIR: the layer's accumulator and HBM output, or "
                         "with --program every memory space as raw bytes (docs/images.md)"),
         "DIR");
  add_output_flags(sub, rf, false);
  sub->add_flag("--quiet", rf.quiet, "do not print the stage table");
  auto rtl_cov = std::make_shared<std::string>();
  add_rtl_coverage_flag(sub, *rtl_cov);
  return {sub, [flags, rtl_cov](const isa::Spec& spec) {
            return with_rtl_coverage(*rtl_cov, [&] { return cmd_run(spec, *flags, *rtl_cov); });
          }};
}

}  // namespace moesim::cli
