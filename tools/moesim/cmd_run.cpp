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
#include "moesim/report/report.hpp"
#include "moesim/workload/reference.hpp"
#include "output_flags.hpp"
#include "program_flags.hpp"

namespace moesim::cli {

namespace fs = std::filesystem;

namespace {

struct RunFlags : OutputFlags {
  ProgramFlags program;
  std::string engine, dump;
  bool quiet = false;
};

void write_file(const fs::path& p, std::string_view bytes) {
  bad_input_of("--dump: ", [&] { isa::write_file(p, bytes); });
}

void write_file(const fs::path& p, const std::vector<uint8_t>& bytes) {
  write_file(p, std::string_view(reinterpret_cast<const char*>(bytes.data()), bytes.size()));
}

/// Output accumulator (token-major T x H BF16) and the HBM output region, plus a manifest.
void dump_outputs(const fs::path& dir, const isa::Engine& e, const Workload& w) {
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) throw UsageError("--dump " + dir.string() + ": " + ec.message());
  const workload::Layout& L = w.built->layout;
  const uint64_t vlen = static_cast<uint64_t>(w.preset->vlen());
  const uint64_t hb = L.hidden / vlen;
  // The accumulator is column-block-major: block b, token t at row v_acc/VLEN + b*T_pad + t.
  const auto rows = e.read(isa::Space::Vram, L.v_acc / vlen, uint64_t{L.tokens_padded} * hb);
  std::vector<uint8_t> acc(2 * uint64_t{L.tokens} * L.hidden);
  std::ostringstream txt;
  for (uint64_t t = 0; t < L.tokens; ++t) {
    for (uint64_t c = 0; c < L.hidden; ++c) {
      const uint64_t src = 2 * ((c / vlen * L.tokens_padded + t) * vlen + c % vlen);
      const uint64_t dst = 2 * (t * L.hidden + c);
      acc[dst] = rows[src];
      acc[dst + 1] = rows[src + 1];
      const uint16_t bits = static_cast<uint16_t>(rows[src] | (rows[src + 1] << 8));
      char buf[32];
      std::snprintf(buf, sizeof buf, "%s%.8g", c ? " " : "",
                    static_cast<double>(num::bf16_to_f32(bits)));
      txt << buf;
    }
    txt << '\n';
  }
  write_file(dir / "accumulator_bf16.txt", txt.str());
  write_file(dir / "accumulator_bf16.bin", acc);
  write_file(dir / "output_hbm_mxfp8.bin", e.read(isa::Space::Hbm, L.y.base, L.y.bytes));
  const nlohmann::json manifest = {
      {"engine", e.name()},
      {"program", w.name},
      {"accumulator",
       {{"files", {"accumulator_bf16.bin", "accumulator_bf16.txt"}},
        {"shape", {L.tokens, L.hidden}},
        {"dtype", "bf16 little-endian, token-major"},
        {"vram_row", L.v_acc / vlen},
        {"vram_layout", "column-block-major: block b, token t at row vram_row + b*T_pad + t"},
        {"tokens_padded", L.tokens_padded}}},
      {"hbm_output",
       {{"file", "output_hbm_mxfp8.bin"},
        {"hbm_base", L.y.base},
        {"rows", L.y.rows},
        {"cols", L.y.cols},
        {"codes_bytes", L.y.scale_offset},
        {"scales_offset", L.y.scale_offset},
        {"mx_block", w.preset->mx_block()},
        {"format", "E4M3 codes row-major, then E8M0 scales row-major (one per MX block)"}}}};
  write_file(dir / "manifest.json", manifest.dump(2) + '\n');
}

int cmd_run(const isa::Spec& spec, const RunFlags& f) {
  const auto t0 = Clock::now();
  check_outputs(f, f.program);
  if (!f.trace_rtl.empty() && f.engine != "rtl")
    throw UsageError("--trace-rtl needs --engine rtl (it writes the RTL's signals)");
  if (!f.dump.empty() && fs::exists(f.dump) && !fs::is_directory(f.dump))
    throw UsageError("--dump " + f.dump + ": not a directory");
  Workload w = make_workload(spec, f.program);
  std::unique_ptr<isa::Engine> engine;
  if (f.engine == "golden") {
    engine = cosim::make_golden_engine(spec, *w.preset);
  } else {
    cli::check_rtl_preset(w.preset->name);
    engine = make_rtl(spec, *w.preset, f.trace_rtl, trace_window(f));
  }
  engine->load(w.program, w.image());
  auto vcd = open_vcd(spec, f.vcd, {engine->name()});
  auto trace = open_trace_json(spec, f.trace_json, {engine->name()});
  Progress progress(f.program.progress_after);
  cosim::CosimOptions opts;
  if (vcd) opts.sinks.push_back(vcd.get());
  if (trace) opts.sinks.push_back(trace.get());
  opts.work = w.program.work;
  opts.max_instructions = f.program.max_instructions;
  opts.progress = [&](uint64_t n, uint64_t c) { progress(n, c); };
  opts.progress_every = 256;
  const auto t_sim = Clock::now();
  const cosim::RunResult res = cosim::run_single(spec, *engine, opts);
  const double sim_s = seconds_since(t_sim);
  progress.done();
  write_rtl_gtkw(spec, f, res.total_cycles);
  if (!f.quiet) {
    std::cout << "moesim run: " << describe(w, f.program) << "\n\n";
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
  sub->add_option("--engine", rf.engine, "golden or rtl")
      ->required()
      ->check(CLI::IsMember({"golden", "rtl"}));
  sub->add_option("--dump", rf.dump, "write the output accumulator and HBM output to DIR")
      ->excludes("--program");
  add_output_flags(sub, rf, false);
  sub->add_flag("--quiet", rf.quiet, "do not print the stage table");
  return {sub, [flags](const isa::Spec& spec) { return cmd_run(spec, *flags); }};
}

}  // namespace moesim::cli
