// Output flags: see output_flags.hpp.
#include "output_flags.hpp"

#include <filesystem>
#include <fstream>
#include <iostream>

#include "cli_output.hpp"
#include "moesim/cosim/engines.hpp"
#include "moesim/isa/file_output.hpp"
#include "moesim/report/html_report.hpp"
#include "moesim/report/report.hpp"
#include "moesim/workload/reference.hpp"

namespace moesim::cli {

namespace fs = std::filesystem;

void add_output_flags(CLI::App* app, OutputFlags& o, bool both) {
  app->add_option("--report", o.report, "write the report to FILE (.json, or .yaml/.yml)");
  app->add_option("--html", o.html, "write a self-contained HTML report to FILE");
  app->add_option("--trace-json", o.trace_json,
                  "write a Perfetto / Chrome trace JSON (ui.perfetto.dev) to FILE");
  app->add_option("--vcd", o.vcd, "write the stage timeline VCD to FILE (+ .stages.filter, .gtkw)");
  app->add_option("--trace-rtl", o.trace_rtl,
                  both ? "write Verilator's FST of every RTL signal for the same run to FILE"
                       : "with --engine rtl: write Verilator's FST of every RTL signal to FILE");
  app->add_option("--trace-window", o.trace_window,
                  "with --trace-rtl: record only cycles A:B ([A, B)) or retire:A:B (the cycles of "
                  "retired instructions A..B-1)");
  app->add_option(
      "--profile", o.profile,
      std::string(both ? "write both engines' stage profiles"
                       : "write the engine's stage profile") +
          " (per stage instructions, cycles, HBM bytes; shared/routed/plumbing split) to "
          "FILE.json");
  app->add_flag("--reference", o.reference,
                std::string("also compare ") + (both ? "both engines' outputs" : "the output") +
                    " with the independent reference (bit for bit) and print the error table "
                    "against the float64 reference")
      ->excludes("--program");
}

void check_outputs(const OutputFlags& o, const ProgramFlags& p) {
  const std::vector<std::pair<std::string, std::string>> flag_paths = {
      {"--report", o.report},         {"--vcd", o.vcd},   {"--trace-rtl", o.trace_rtl},
      {"--trace-json", o.trace_json}, {"--html", o.html}, {"--profile", o.profile}};
  const std::string report_ext = fs::path(o.report).extension().string();
  if (!o.report.empty() && report_ext != ".json" && report_ext != ".yaml" && report_ext != ".yml")
    throw UsageError("--report " + o.report +
                     ": name the report .json, .yaml or .yml (its format follows the name)");
  if (!o.profile.empty() && fs::path(o.profile).extension() != ".json")
    throw UsageError("--profile " + o.profile + ": the profile is JSON; name it .json");
  std::vector<std::pair<std::string, fs::path>> files;
  trace_window(o);  // syntax and --trace-rtl
  for (const auto& [flag, path] : flag_paths) {
    if (path.empty()) continue;
    cli::check_output_path(flag, path);
    files.emplace_back(flag + " " + path, fs::weakly_canonical(path));
    if (flag == "--trace-rtl")
      files.emplace_back("the .rtl.gtkw of --trace-rtl " + path,
                         fs::weakly_canonical(rtl_gtkw_path(path)));
    if (flag == "--vcd") {
      files.emplace_back("the .gtkw of --vcd " + path,
                         fs::weakly_canonical(waveforms::gtkw_path(path)));
      files.emplace_back("the translate filter of --vcd " + path,
                         fs::weakly_canonical(waveforms::stage_filter_path(path)));
    }
  }
  for (size_t i = 0; i < files.size(); ++i)
    for (size_t j = i + 1; j < files.size(); ++j)
      if (files[i].second == files[j].second)
        throw UsageError(files[i].first + " and " + files[j].first + " name the same file");
  // Outputs never overwrite inputs: the program, the stage table beside it, a config.json.
  std::vector<std::pair<std::string, std::string>> inputs;
  if (!p.program_file.empty()) {
    inputs.emplace_back("--program", p.program_file);
    inputs.emplace_back("the .stages of --program", isa::stages_path(p.program_file).string());
  } else if (fs::path(p.model).extension() == ".json") {
    inputs.emplace_back("--model", p.model);
  }
  for (const auto& [what, path] : files)
    for (const auto& [in_flag, in_path] : inputs) check_not_input(what, path, in_flag, in_path);
}

std::vector<std::string> command_line() {
  std::ifstream in("/proc/self/cmdline", std::ios::binary);
  std::vector<std::string> argv;
  std::string arg;
  while (std::getline(in, arg, '\0')) argv.push_back(arg);
  return argv;
}

void write_report(const std::string& path, const nlohmann::json& j) {
  const std::string ext = fs::path(path).extension().string();
  const bool yaml = ext == ".yaml" || ext == ".yml";
  bad_input_of("--report ",
               [&] { isa::write_file(path, (yaml ? report::report_yaml(j) : j.dump(2)) + '\n'); });
}

nlohmann::json reference_check(const Workload& w, const std::vector<const isa::Engine*>& engines,
                               bool& ok, std::ostream& os) {
  if (!w.built) throw UsageError("--reference needs the generated MoE layer, not --program");
  const workload::ReferenceResult ref = workload::reference_layer(*w.preset, *w.model, *w.built);
  nlohmann::json j = nlohmann::json::object();
  for (const isa::Engine* e : engines) {
    const workload::ReferenceCheck c = workload::check_against_reference(
        *w.preset, *w.built, ref, workload::read_layer_output(*e, *w.preset, *w.built));
    workload::print_reference_check(os, e->name(), c);
    os << '\n';
    nlohmann::json errors = nlohmann::json::array();
    for (const workload::ErrorRow& r : c.errors)
      errors.push_back({{"output", r.what},
                        {"max_abs", r.max_abs},
                        {"max_rel", r.max_rel},
                        {"cosine", r.cosine}});
    j[e->name()] = {{"bit_exact", c.bit_exact()},
                    {"guard_failures", c.guard_failures},
                    {"accumulator_elements", c.acc_elements},
                    {"accumulator_differing", c.acc_differing},
                    {"output_bytes", c.out_bytes},
                    {"output_differing", c.out_differing},
                    {"first_differences", c.first_differences},
                    {"selection_differs_from_float64", c.selection_differs},
                    {"error_vs_float64", errors}};
    ok = ok && c.ok();
  }
  return j;
}

void write_profile(const std::string& path, const nlohmann::json& j) {
  bad_input_of("--profile ", [&] { isa::write_file(path, j.dump(2) + '\n'); });
}

void write_html(const std::string& path, const isa::Spec& spec, const cosim::CosimResult* cosim,
                const cosim::RunResult* run, const nlohmann::json& context) {
  bad_input_of("--html: ", [&] {
    if (cosim != nullptr) report::write_html_report(path, spec, *cosim, context);
    if (run != nullptr) report::write_html_report(path, spec, *run, context);
  });
}

std::unique_ptr<report::TraceJsonSink> open_trace_json(const isa::Spec& spec,
                                                       const std::string& path,
                                                       const std::vector<std::string>& engines) {
  if (path.empty()) return nullptr;
  return bad_input_of("--trace-json: ",
                      [&] { return std::make_unique<report::TraceJsonSink>(spec, path, engines); });
}

std::unique_ptr<report::VcdSink> open_vcd(const isa::Spec& spec, const std::string& path,
                                          const std::vector<std::string>& scopes) {
  if (path.empty()) return nullptr;
  return bad_input_of("--vcd: ",
                      [&] { return std::make_unique<report::VcdSink>(spec, path, scopes); });
}

cosim::TraceWindow trace_window(const OutputFlags& o) {
  cosim::TraceWindow w;
  if (o.trace_window.empty()) return w;
  const std::string bad = "--trace-window " + o.trace_window;
  if (o.trace_rtl.empty()) throw UsageError(bad + ": needs --trace-rtl FILE.fst");
  std::string text = o.trace_window;
  if (text.rfind("retire:", 0) == 0) {
    w.retires = true;
    text = text.substr(7);
  } else if (text.rfind("cycle:", 0) == 0) {
    text = text.substr(6);
  }
  const size_t colon = text.find(':');
  auto number = [&](const std::string& t) {
    if (t.empty() || t.find_first_not_of("0123456789") != std::string::npos || t.size() > 19)
      throw UsageError(bad + ": expected A:B, cycle:A:B or retire:A:B with whole numbers A < B");
    return std::stoull(t);
  };
  if (colon == std::string::npos) number("");
  w.begin = number(text.substr(0, colon));
  w.end = number(text.substr(colon + 1));
  if (w.end <= w.begin) throw UsageError(bad + ": the end must lie after the start");
  return w;
}

fs::path rtl_gtkw_path(const std::string& fst) {
  fs::path p = fst;
  p.replace_extension(".rtl.gtkw");
  return p;
}

void write_rtl_gtkw(const isa::Spec& spec, const OutputFlags& o, uint64_t end_cycle) {
  if (o.trace_rtl.empty()) return;
  const cosim::TraceWindow w = trace_window(o);
  waveforms::GtkwView view;
  view.begin = w.retires ? 0 : w.begin;
  view.end = w.retires ? end_cycle : std::min(w.end, std::max<uint64_t>(end_cycle, w.begin + 1));
  const fs::path filter = waveforms::stage_filter_path(o.trace_rtl);
  bad_input_of("--trace-rtl ", [&] {
    waveforms::write_stage_filter(filter, spec.stages());
    waveforms::write_rtl_gtkw(rtl_gtkw_path(o.trace_rtl), o.trace_rtl, filter, isa::kStageW,
                              isa::kTrapW, static_cast<unsigned>(spec.units().size()), view);
  });
}

std::unique_ptr<isa::Engine> make_rtl(const isa::Spec& spec, const isa::MachinePreset& preset,
                                      const std::string& fst, const cosim::TraceWindow& window) {
  try {
    return cosim::make_rtl_engine(spec, preset, fst, window);
  } catch (const std::invalid_argument& e) {
    if (fst.empty()) throw;
    throw UsageError(std::string("--trace-rtl: ") + e.what());
  }
}

}  // namespace moesim::cli
