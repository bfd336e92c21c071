// `moesim cosim`: golden model and RTL in lockstep, compared per retire and at the end.

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <sstream>

#include "cli_output.hpp"
#include "command.hpp"
#include "cosim_deploy.hpp"
#include "cosim_windows.hpp"
#include "moesim/cosim/cosim.hpp"
#include "moesim/cosim/engines.hpp"
#include "moesim/cosim/fault.hpp"
#include "moesim/isa/assembler.hpp"
#include "moesim/isa/geometry.hpp"
#include "moesim/report/profile.hpp"
#include "moesim/report/provenance.hpp"
#include "moesim/report/report.hpp"
#include "moesim/workload/deployment.hpp"
#include "output_flags.hpp"
#include "program_flags.hpp"
#include "rtl_coverage_flag.hpp"

namespace moesim::cli {

namespace fs = std::filesystem;

namespace {

struct CosimFlags : OutputFlags {
  ProgramFlags program;
  std::string flip_bit;
  std::string dump;
  size_t history = 8;
  bool quiet = false;
  WindowFlags windows;  ///< --windows, --from-retire ... (cosim_windows.hpp)
  DeployFlags deploy;   ///< --deployment, --rank, --all-ranks (cosim_deploy.hpp)
};

int cmd_cosim(const isa::Spec& spec, const CosimFlags& f, const std::string& rtl_coverage) {
  const auto t0 = Clock::now();
  std::optional<cosim::BitFlip> flip;
  if (!f.flip_bit.empty()) flip = cosim::parse_bit_flip(f.flip_bit);
  // Every output of the run (derived files and the dump included) against every input and
  // every other output, before anything is written.
  PathGuard guard;
  check_outputs(f, f.program, guard);
  guard.input("--from-checkpoint", f.windows.from_checkpoint);
  if (f.deploy.active())
    guard.input("--deployments", f.deploy.deployments.empty() ? workload::default_deployments_file()
                                                              : f.deploy.deployments);
  check_dump(f.dump, f.program, {"golden", "rtl"}, guard);
  guard.output_dir("--checkpoint-dir " + f.windows.checkpoint_dir, f.windows.checkpoint_dir);
  guard_rtl_coverage(rtl_coverage, guard);
  guard.check();
  check_dump_dir(f.dump);
  check_rtl_coverage_build(rtl_coverage);
  check_window_flags(f.windows, f);
  if (f.deploy.all_ranks) return run_deployment_ranks(spec, f.program, f.deploy, f, f.quiet);
  Workload w = f.deploy.active() ? make_deployment_workload(spec, f.program, f.deploy)
                                 : make_workload(spec, f.program);
  cli::check_rtl_preset(spec, w.preset->name);
  check_jitter_without_checkpoints(f.windows, *w.preset);
  if (!f.windows.window_result.empty())
    return run_window_process(spec, w, f.windows, f.history, flip);
  const bool one_run = !f.windows.windowed() && !f.windows.focused();

  if (flip) {  // a byte outside the space is refused before any output is opened
    isa::MemoryImage probe;
    cosim::apply_bit_flip(*flip, isa::space_geometry(flip->space, *w.preset).bytes(), probe);
  }
  std::ostringstream head;
  head << "moesim cosim: " << describe(w, f.program);
  if (f.windows.focused()) {
    if (f.windows.from_checkpoint.empty())
      head << ", retires " << f.windows.from_retire;
    else
      head << ", from checkpoint " << f.windows.from_checkpoint << ", retires ";
    if (f.windows.to_opt && *f.windows.to_opt)
      head << ".." << f.windows.to_retire;
    else
      head << "..end";
  }
  if (f.windows.windowed()) head << ", " << count_of(f.windows.windows, "window");
  if (flip) head << ", planted fault --flip-bit " << f.flip_bit;
  if (!f.program.plant_fault.empty())
    head << ", planted fault --plant-fault " << f.program.plant_fault;
  // The run header comes first, before the simulation (the tables follow it at the end).
  if (!f.quiet) std::cout << head.str() << "\n\n" << std::flush;
  auto vcd = open_vcd(spec, f.vcd, {"golden", "rtl"}, *w.preset);
  auto trace = open_trace_json(spec, f.trace_json, {"golden", "rtl"});
  std::vector<std::string> log_header = report::provenance_lines(w.provenance);
  log_header.insert(log_header.begin(), head.str());
  auto trace_log = open_trace_log(spec, f.trace_log, {"golden", "rtl"}, log_header);
  // The engines come after the outputs are open: an output that cannot be written is refused
  // before the engines' memories are made.
  std::unique_ptr<isa::Engine> golden, rtl;
  if (one_run) {
    golden = cosim::make_golden_engine(spec, *w.preset);
    rtl = make_rtl(spec, *w.preset, f.trace_rtl, trace_window(f));
  }
  // Both engines load the one image; --flip-bit gives its engine a flipped copy.
  const isa::MemoryImage* gimg = &w.image();
  const isa::MemoryImage* rimg = &w.image();
  isa::MemoryImage flipped;
  if (flip && one_run) {
    isa::Engine& target = flip->engine == "golden" ? *golden : *rtl;
    flipped = w.image();
    cosim::apply_bit_flip(*flip, target.size(flip->space) * isa::unit_bytes(flip->space, *w.preset),
                          flipped);
    (flip->engine == "golden" ? gimg : rimg) = &flipped;
  }
  if (one_run) {
    if (w.budget) {  // --random-seed of a program built to exceed its budget
      golden->set_instruction_budget(*w.budget);
      rtl->set_instruction_budget(*w.budget);
    }
    golden->load(w.program, *gimg);
    rtl->load(w.program, *rimg);
  }

  Progress progress(spec, f.program.progress, count_dynamic_instructions(spec, w.program));
  cosim::CosimOptions opts;
  opts.history = f.history;
  opts.max_instructions = f.program.max_instructions;
  opts.mlen = static_cast<uint64_t>(w.preset->get("MLEN"));
  FlaggedSinks flagged;  // a write error of a sink names its flag (exit 2)
  flagged.add(vcd.get(), "--vcd");
  flagged.add(trace.get(), "--trace-json");
  flagged.add(trace_log.get(), "--trace-log");
  flagged.into(opts.sinks);
  opts.sinks.push_back(&progress);
  opts.work = w.program.work;
  const auto t_sim = Clock::now();
  WindowedRun win;
  if (f.windows.windowed())
    win = run_windowed(spec, w, f.windows, f.program.max_instructions, f.quiet,
                       f.reference || !f.dump.empty());
  else if (f.windows.focused())
    win = run_focused(spec, w, f.windows, opts, f.trace_rtl, flip);
  if (!one_run) {
    golden = std::move(win.golden);
    rtl = std::move(win.rtl);
  }
  cosim::CosimResult res = one_run ? cosim::run_cosim(spec, *golden, *rtl, opts) : win.result;
  const double sim_s = seconds_since(t_sim);
  progress.done();
  std::optional<uint64_t> divergence_cycle;
  if (res.divergence)
    divergence_cycle =
        (res.divergence->records[1] ? *res.divergence->records[1] : *res.divergence->records[0])
            .start_cycle;
  write_rtl_gtkw(spec, f, res.total_cycles[1], divergence_cycle);

  bool reference_ok = true;
  nlohmann::json reference_json = nullptr;
  std::ostringstream reference_text;
  std::vector<const isa::Engine*> ends;
  for (const isa::Engine* e : {golden.get(), rtl.get()})
    if (e != nullptr) ends.push_back(e);
  if (f.deploy.active() && res.completed)
    reference_json = deployment_rank_check(w, ends, reference_ok, reference_text);
  else if (f.reference && res.completed)
    reference_json = reference_check(w, ends, reference_ok, reference_text);
  const bool equal = res.equal() && reference_ok && win.errors.empty();
  const std::string verdict =
      reference_ok && win.errors.empty() ? report::cosim_verdict(res) : "MISMATCH";
  // The one re-run command (console, JSON, HTML): a windowed or focused run's failing window,
  // or one run's history before the first divergence through it (docs/checkpoints.md).
  std::optional<report::RetireRange> rerun_range;
  if (win.failing_from && (!win.failing_to || *win.failing_to > *win.failing_from))
    rerun_range = report::RetireRange{*win.failing_from, win.failing_to};
  const std::string rerun =
      equal || res.limit_reached
          ? std::string()
          : report::rerun_command(command_line(), res.divergence ? &*res.divergence : nullptr,
                                  rerun_range);
  const report::StageProfile gprof = report::make_profile(spec, res.stages, 0, res.engines[0]);
  const report::StageProfile rprof = report::make_profile(spec, res.stages, 1, res.engines[1]);
  const std::vector<std::string> prof_diffs = report::profile_differences(gprof, rprof);
  if (!f.quiet) {
    report::print_stage_table(std::cout, res.stages, {res.engines[0], res.engines[1]});
    std::cout << '\n';
    report::print_unit_table(std::cout, res.units, {res.engines[0], res.engines[1]},
                             {res.total_cycles[0], res.total_cycles[1]});
    std::cout << '\n';
    print_utilisation(std::cout, w,
                      res.completed ? std::nullopt : std::optional<uint64_t>(res.compared));
    if (w.built) std::cout << '\n';
    report::print_cosim_details(std::cout, spec, res, rerun, w.preset);
    std::cout << '\n';
    if (!f.profile.empty()) {
      report::print_profile(std::cout, gprof);
      std::cout << '\n';
    }
    std::cout << "stage profiles (instructions, cycles, HBM bytes read and written per stage): "
              << res.engines[0] << " and " << res.engines[1]
              << (prof_diffs.empty() ? " equal" : " DIFFER") << '\n';
    for (const std::string& d : prof_diffs) std::cout << "  " << d << '\n';
    if (res.hbm_difference) {
      const cosim::HbmDifference& h = *res.hbm_difference;
      std::cout << "  HBM bytes first differ at " << isa::record_kind_name(h.record.kind) << " #"
                << h.record.index << " pc " << h.record.pc << " "
                << isa::disassemble(spec, h.record.word) << ": read " << res.engines[0] << " "
                << h.read[0] << ", " << res.engines[1] << " " << h.read[1] << "; written "
                << res.engines[0] << " " << h.written[0] << ", " << res.engines[1] << " "
                << h.written[1] << '\n';
    }
    std::cout << '\n' << reference_text.str();
  }
  for (const std::string& e : win.errors) std::cout << "end state differs: " << e << '\n';
  std::cout << "VERDICT: " << verdict << ": ";
  if (res.limit_reached) {
    std::cout << "the program did not end within --max-instructions " << f.program.max_instructions;
  } else if (res.completed) {
    std::cout << "outputs " << (res.outputs_bit_exact() ? "bit-exact" : "NOT bit-exact")
              << ", cycles " << (res.cycles_match() ? "match" : "DO NOT match")
              << ", stage profiles " << (res.profiles_match() ? "equal" : "DIFFER");
    if (res.outputs_bit_exact() && !res.final_state_equal())
      std::cout << ", final state DIFFERS outside the outputs (memory the program never wrote)";
    if (f.reference || f.deploy.active())
      std::cout << ", independent reference " << (reference_ok ? "bit-exact" : "FAILS");
    if (res.trap) {
      const isa::TrapSpec* ts = spec.trap_by_code(res.trap->cause);
      std::cout << ", both engines trapped (" << (ts ? ts->name : std::to_string(res.trap->cause))
                << " at pc " << res.trap->pc << ")";
    }
  } else {
    std::cout << "stopped at the first divergence";
  }
  std::cout << " (" << res.compared << " instructions compared; cycles " << res.engines[0] << " "
            << res.total_cycles[0] << ", " << res.engines[1] << " " << res.total_cycles[1] << "; "
            << sim_s << " s)";
  if (res.divergence) {
    const auto& d = *res.divergence;
    const isa::RetireRecord& r = d.records[0] ? *d.records[0] : *d.records[1];
    std::cout << "; first divergence at retire #" << d.index << " pc " << r.pc << " "
              << isa::disassemble(spec, r.word) << " cycle " << r.start_cycle;
  }
  std::cout << std::endl;
  if (!rerun.empty()) std::cout << "re-run this window alone: " << rerun << '\n';

  auto path_or_null = [](const std::string& p) {
    return p.empty() ? nlohmann::json(nullptr) : nlohmann::json(p);
  };
  nlohmann::json ctx = context_json(spec, f.program, w);
  ctx["tool"] = "moesim cosim";
  ctx["verdict"] = verdict;
  ctx["engines"] = res.engines;
  ctx["flip_bit"] = path_or_null(f.flip_bit);
  ctx["plant_fault"] = path_or_null(f.program.plant_fault);
  ctx["reference"] = reference_json;
  ctx["vcd"] = path_or_null(f.vcd);
  ctx["trace_json"] = path_or_null(f.trace_json);
  ctx["html"] = path_or_null(f.html);
  ctx["trace_rtl"] = path_or_null(f.trace_rtl);
  if (!f.trace_log.empty()) {
    nlohmann::json logs = nlohmann::json::array();
    for (const auto& p : report::trace_log_paths(
             f.trace_log, std::vector<std::string>(res.engines.begin(), res.engines.end())))
      logs.push_back(p.string());
    ctx["trace_log"] = logs;
  }
  ctx["simulation_time_s"] = sim_s;
  ctx["wall_time_s"] = seconds_since(t0);
  if (!f.report.empty()) {
    nlohmann::json j = report::cosim_json(spec, res, w.preset);
    if (res.divergence) j["first_divergence"]["rerun"] = rerun;
    if (!res.divergence && !rerun.empty()) j["rerun"] = rerun;
    j.update(ctx);
    write_report(f.report, j);
  }
  if (!f.html.empty()) {
    nlohmann::json hctx = ctx;
    if (!rerun.empty()) hctx["rerun"] = rerun;
    write_html(f.html, spec, &res, nullptr, hctx, w.preset);
  }
  if (!f.profile.empty())
    write_profile(f.profile,
                  {{"tool", "moesim cosim"},
                   {"program", w.name},
                   {"profiles_equal", prof_diffs.empty()},
                   {"differences", prof_diffs},
                   {"profiles", {report::profile_json(gprof), report::profile_json(rprof)}}});
  if (res.limit_reached) return limit_error(f.program);
  if (!f.dump.empty() && res.completed)
    for (const isa::Engine* e : {golden.get(), rtl.get()})
      if (e != nullptr) dump_outputs(fs::path(f.dump) / e->name(), *e, w);
  return equal ? kExitEqual : kExitMismatch;
}

}  // namespace

Subcommand add_cosim(CLI::App& app) {
  auto flags = std::make_shared<CosimFlags>();
  CosimFlags& cf = *flags;
  CLI::App* sub = app.add_subcommand("cosim", "co-simulate golden model and RTL in lockstep");
  add_program_flags(sub, cf.program);
  add_dma_queue_flag(sub, cf.program);
  add_hbm_jitter_flag(sub, cf.program);
  add_output_flags(sub, cf, true);
  sub->add_option("--history", cf.history, "retired instructions shown before a divergence")
      ->capture_default_str()
      ->check(kNotNegative);
  sub->add_option("--flip-bit", cf.flip_bit,
                  "plant a fault: ENGINE:SPACE:BYTE:BIT flips one bit of that engine's initial "
                  "image (SPACE vram|mram|fp_sram|int_sram|hbm)");
  writes(sub->add_option("--dump", cf.dump,
                         "write each engine's outputs to DIR/golden and DIR/rtl: the layer's "
                         "accumulator and HBM output, or with --program every memory space as "
                         "raw bytes (docs/images.md)"),
         "DIR");
  sub->add_flag("--quiet", cf.quiet, "print only the verdict line");
  add_window_flags(sub, cf.windows);
  add_deploy_flags(sub, cf.deploy);
  auto rtl_cov = std::make_shared<std::string>();
  add_rtl_coverage_flag(sub, *rtl_cov);
  return {sub, [flags, rtl_cov](const isa::Spec& spec) {
            return with_rtl_coverage(*rtl_cov, [&] { return cmd_cosim(spec, *flags, *rtl_cov); });
          }};
}

}  // namespace moesim::cli
