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
  for (const auto& [flag, path] : flag_paths) {
    if (path.empty()) continue;
    cli::check_output_path(flag, path);
    files.emplace_back(flag + " " + path, fs::weakly_canonical(path));
    if (flag == "--vcd") {
      check_output_path("the .gtkw of --vcd " + path + ":", waveforms::gtkw_path(path).string());
      check_output_path("the translate filter of --vcd " + path + ":",
                        waveforms::stage_filter_path(path).string());
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

std::unique_ptr<isa::Engine> make_rtl(const isa::Spec& spec, const isa::MachinePreset& preset,
                                      const std::string& fst) {
  try {
    return cosim::make_rtl_engine(spec, preset, fst);
  } catch (const std::invalid_argument& e) {
    if (fst.empty()) throw;
    throw UsageError(std::string("--trace-rtl: ") + e.what());
  }
}

}  // namespace moesim::cli
