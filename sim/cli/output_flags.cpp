// Output flags: see output_flags.hpp.
#include "output_flags.hpp"

#include <filesystem>
#include <fstream>
#include <iostream>

#include "cli_output.hpp"
#include "moesim/cosim/engines.hpp"
#include "moesim/isa/file_output.hpp"
#include "moesim/isa/geometry.hpp"
#include "moesim/isa/numerics.hpp"
#include "moesim/report/html_report.hpp"
#include "moesim/report/report.hpp"
#include "moesim/workload/reference.hpp"

namespace moesim::cli {

namespace fs = std::filesystem;

namespace {

constexpr const char* kAccTxt = "accumulator_bf16.txt";
constexpr const char* kAccBin = "accumulator_bf16.bin";
constexpr const char* kOutBin = "output_hbm_mxfp8.bin";
constexpr const char* kManifest = "manifest.json";

void write_dump_file(const fs::path& p, std::string_view bytes) {
  bad_input_of("--dump: ", [&] { isa::write_file(p, bytes); });
}

void write_dump_file(const fs::path& p, const std::vector<uint8_t>& bytes) {
  write_dump_file(p, std::string_view(reinterpret_cast<const char*>(bytes.data()), bytes.size()));
}

/// Output accumulator (token-major T x H BF16) and the HBM output region, plus a manifest.
void dump_layer_outputs(const fs::path& dir, const isa::Engine& e, const Workload& w) {
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
  write_dump_file(dir / kAccTxt, txt.str());
  write_dump_file(dir / kAccBin, acc);
  write_dump_file(dir / kOutBin, e.read(isa::Space::Hbm, L.y.base, L.y.bytes));
  const nlohmann::json manifest = {
      {"engine", e.name()},
      {"program", w.name},
      {"accumulator",
       {{"files", {kAccBin, kAccTxt}},
        {"shape", {L.tokens, L.hidden}},
        {"dtype", "bf16 little-endian, token-major"},
        {"vram_row", L.v_acc / vlen},
        {"vram_layout", "column-block-major: block b, token t at row vram_row + b*T_pad + t"},
        {"tokens_padded", L.tokens_padded}}},
      {"hbm_output",
       {{"file", kOutBin},
        {"hbm_base", L.y.base},
        {"rows", L.y.rows},
        {"cols", L.y.cols},
        {"codes_bytes", L.y.scale_offset},
        {"scales_offset", L.y.scale_offset},
        {"mx_block", w.preset->mx_block()},
        {"format", "E4M3 codes row-major, then E8M0 scales row-major (one per MX block)"}}}};
  write_dump_file(dir / kManifest, manifest.dump(2) + '\n');
}

/// Every memory space as raw bytes (`<space>.bin`, the byte image of isa::Space) plus a manifest
/// that says how to load them back (--image-bin SPACE=FILE).
void dump_spaces(const fs::path& dir, const isa::Engine& e, const Workload& w) {
  nlohmann::json spaces = nlohmann::json::object();
  for (isa::Space s : isa::kAllSpaces) {
    const isa::SpaceGeometry g = isa::space_geometry(s, *w.preset);
    const std::string file = space_file(s);
    write_dump_file(dir / file, e.read(s, 0, g.units));
    spaces[isa::space_name(s)] = {
        {"file", file},
        {"bytes", g.bytes()},
        {"unit_bytes", g.unit_bytes},
        {"units", g.units},
        {"reload", "--image-bin " + std::string(isa::space_name(s)) + "=" + (dir / file).string()}};
  }
  const nlohmann::json manifest = {{"engine", e.name()},
                                   {"program", w.name},
                                   {"machine", w.preset->name},
                                   {"layout", "docs/images.md (byte image of each space)"},
                                   {"spaces", spaces}};
  write_dump_file(dir / kManifest, manifest.dump(2) + '\n');
}

}  // namespace

std::string space_file(isa::Space s) { return std::string(isa::space_name(s)) + ".bin"; }

std::vector<std::string> dump_file_names(bool layer) {
  if (layer) return {kAccTxt, kAccBin, kOutBin, kManifest};
  std::vector<std::string> names;
  for (isa::Space s : isa::kAllSpaces) names.push_back(space_file(s));
  names.push_back(kManifest);
  return names;
}

void check_dump_dir(const std::string& dir) {
  if (!dir.empty() && fs::exists(dir) && !fs::is_directory(dir))
    throw UsageError("--dump " + dir + ": not a directory");
}

void dump_outputs(const fs::path& dir, const isa::Engine& e, const Workload& w) {
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) throw UsageError("--dump " + dir.string() + ": " + ec.message());
  if (w.built)
    dump_layer_outputs(dir, e, w);
  else
    dump_spaces(dir, e, w);
}

void add_output_flags(CLI::App* app, OutputFlags& o, bool both) {
  o.both = both;
  writes(app->add_option(
      "--trace-log", o.trace_log,
      both ? "write a trace log, one line per retire, per engine: FILE with .golden "
             "and .rtl before its extension (docs/trace_log.md)"
           : "write a trace log, one line per retire, to FILE (docs/trace_log.md)"));
  writes(app->add_option("--report", o.report, "write the report to FILE (.json, or .yaml/.yml)"));
  writes(app->add_option("--html", o.html, "write a self-contained HTML report to FILE"));
  writes(app->add_option("--trace-json", o.trace_json,
                         "write a Perfetto / Chrome trace JSON (ui.perfetto.dev) to FILE"));
  writes(app->add_option("--vcd", o.vcd,
                         "write the stage timeline VCD to FILE (+ .stages.filter, .gtkw)"));
  writes(app->add_option(
      "--trace-rtl", o.trace_rtl,
      both ? "write Verilator's FST of every RTL signal for the same run to FILE"
           : "with --engine rtl: write Verilator's FST of every RTL signal to FILE"));
  app->add_option("--trace-window", o.trace_window,
                  "with --trace-rtl: record only cycles A:B ([A, B)) or retire:A:B (the cycles of "
                  "retired instructions A..B-1)");
  writes(app->add_option(
      "--profile", o.profile,
      std::string(both ? "write both engines' stage profiles"
                       : "write the engine's stage profile") +
          " (per stage instructions, cycles, HBM bytes; shared/routed/plumbing split) to "
          "FILE.json"));
  app->add_flag("--reference", o.reference,
                std::string("also compare ") + (both ? "both engines' outputs" : "the output") +
                    " with the independent reference (bit for bit) and print the error table "
                    "against the float64 reference")
      ->excludes("--program");
}

void check_outputs(const OutputFlags& o, const ProgramFlags& p, PathGuard& g) {
  const std::vector<std::pair<std::string, std::string>> flag_paths = {
      {"--report", o.report},         {"--vcd", o.vcd},   {"--trace-rtl", o.trace_rtl},
      {"--trace-json", o.trace_json}, {"--html", o.html}, {"--profile", o.profile},
      {"--asm-out", p.asm_out}};
  const std::string report_ext = fs::path(o.report).extension().string();
  if (!o.report.empty() && report_ext != ".json" && report_ext != ".yaml" && report_ext != ".yml")
    throw UsageError("--report " + o.report +
                     ": name the report .json, .yaml or .yml (its format follows the name)");
  if (!o.profile.empty() && fs::path(o.profile).extension() != ".json")
    throw UsageError("--profile " + o.profile + ": the profile is JSON; name it .json");
  trace_window(o);  // syntax and --trace-rtl
  // The stage translate filter --vcd and --trace-rtl write beside their files: one stem may
  // give both the same filter file, with the same bytes.
  const std::string filter = "the stage translate filter";
  for (const auto& [flag, path] : flag_paths) {
    if (path.empty()) continue;
    cli::check_output_path(flag, path);
    g.output(flag + " " + path, path);
    if (flag == "--trace-rtl") {
      g.output("the .rtl.gtkw of --trace-rtl " + path, rtl_gtkw_path(path));
      g.output("the translate filter of --trace-rtl " + path, waveforms::stage_filter_path(path),
               filter);
    }
    if (flag == "--vcd") {
      check_output_path("the .gtkw of --vcd " + path + ":", waveforms::gtkw_path(path).string());
      check_output_path("the translate filter of --vcd " + path + ":",
                        waveforms::stage_filter_path(path).string());
      g.output("the .gtkw of --vcd " + path, waveforms::gtkw_path(path));
      g.output("the translate filter of --vcd " + path, waveforms::stage_filter_path(path), filter);
    }
  }
  if (!o.trace_log.empty()) {
    cli::check_output_path("--trace-log", o.trace_log);
    const auto paths =
        report::trace_log_paths(o.trace_log, o.both ? std::vector<std::string>{"golden", "rtl"}
                                                    : std::vector<std::string>{"engine"});
    for (const fs::path& tp : paths)
      g.output((o.both ? "the trace log " + tp.string() + " of " : std::string()) + "--trace-log " +
                   o.trace_log,
               tp);
  }
  // Outputs never overwrite inputs: the program, the stage table beside it, the images, a
  // config.json, a route trace, a mix file, input hidden states, a checkpoint directory.
  if (!p.program_file.empty()) {
    g.input("--program", p.program_file);
    g.input("--stage-map", p.assembly.stage_map);
    g.input("the .stages of --program", isa::stages_path(p.program_file));
    for (const std::string& i : p.images) g.input("--image", i);
    for (const std::string& i : p.image_bins) {
      const size_t eq = i.find('='), at = i.rfind('@');
      if (eq != std::string::npos)
        g.input(
            "--image-bin",
            i.substr(eq + 1, at == std::string::npos || at < eq ? std::string::npos : at - eq - 1));
    }
  } else if (fs::path(p.model).extension() == ".json" || fs::is_regular_file(p.model)) {
    g.input("--model", p.model);
  }
  g.input("--route-trace", p.route_trace);
  g.input("--mix", p.random_mix);
  g.input("--inputs", p.inputs);
  g.input_dir("--checkpoint", p.checkpoint);  // nor over one of its linked shards
}

void check_dump(const std::string& dir, const ProgramFlags& p,
                const std::vector<std::string>& engines, PathGuard& g) {
  if (dir.empty()) return;
  g.output_dir("--dump " + dir, dir);
  const bool layer =
      p.program_file.empty() && (p.random_seed_opt == nullptr || p.random_seed_opt->count() == 0);
  for (const std::string& e : engines)
    for (const std::string& name : dump_file_names(layer)) {
      const fs::path file = (e.empty() ? fs::path(dir) : fs::path(dir) / e) / name;
      g.output("the file " + file.string() + " of --dump " + dir, file);
    }
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
                const cosim::RunResult* run, const nlohmann::json& context,
                const isa::MachinePreset* machine) {
  bad_input_of("--html: ", [&] {
    if (cosim != nullptr) report::write_html_report(path, spec, *cosim, context, machine);
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

std::unique_ptr<report::TraceLogSink> open_trace_log(const isa::Spec& spec, const std::string& path,
                                                     const std::vector<std::string>& engines,
                                                     const std::vector<std::string>& header) {
  if (path.empty()) return nullptr;
  return bad_input_of("--trace-log: ", [&] {
    return std::make_unique<report::TraceLogSink>(spec, report::trace_log_paths(path, engines),
                                                  header);
  });
}

std::unique_ptr<report::VcdSink> open_vcd(const isa::Spec& spec, const std::string& path,
                                          const std::vector<std::string>& scopes,
                                          const isa::MachinePreset& machine) {
  if (path.empty()) return nullptr;
  const bool queue = machine.get("DMA_QUEUE") > 0;
  return bad_input_of("--vcd: ",
                      [&] { return std::make_unique<report::VcdSink>(spec, path, scopes, queue); });
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

void write_rtl_gtkw(const isa::Spec& spec, const OutputFlags& o, uint64_t end_cycle,
                    std::optional<uint64_t> divergence_cycle) {
  if (o.trace_rtl.empty()) return;
  const cosim::TraceWindow w = trace_window(o);
  waveforms::GtkwView view;
  view.begin = w.retires ? 0 : w.begin;
  view.end = w.retires ? end_cycle : std::min(w.end, std::max<uint64_t>(end_cycle, w.begin + 1));
  if (divergence_cycle) {
    view.marker = *divergence_cycle;
    view.markers.push_back({*divergence_cycle, "first divergence"});
  }
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
