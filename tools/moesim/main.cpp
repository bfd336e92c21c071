// `moesim` command line (CLI11). libsystemc.so owns main() and calls sc_main.
//
// moesim cosim [program flags] [outputs] [--history N] [--flip-bit E:S:B:b] [--quiet]
// moesim run --engine golden|rtl [program flags] [outputs] [--dump DIR] [--quiet]
// Outputs: --report F.json|F.yaml --html F --vcd F (+ .gtkw, .stages.filter) --trace-json F
//          --trace-rtl F.fst
// moesim conformance [--engine golden|rtl|both] [--filter RE] [--junit F] [--suite DIR]
// moesim asm IN.asm [-o OUT.hex]   (writes OUT.stages beside)
// moesim disasm IN.hex             (reads IN.stages beside if present)
// Program flags: --model NAME|config.json --tokens --hidden --intermediate --shared
// --shared-intermediate --topk-policy --seed --asm-out (the generated MoE layer) or --program FILE
// (an assembled program, zero-initialised memories); --machine.
//
// Exit codes: 0 equal / success, 1 mismatch or failed run, 2 bad input or usage.
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <sstream>

#include "cli_conformance.hpp"
#include "cli_output.hpp"
#include "moesim/conformance/conformance.hpp"
#include "moesim/cosim/cosim.hpp"
#include "moesim/cosim/engines.hpp"
#include "moesim/cosim/fault.hpp"
#include "moesim/isa/assembler.hpp"
#include "moesim/isa/engine.hpp"
#include "moesim/isa/geometry.hpp"
#include "moesim/isa/numerics.hpp"
#include "moesim/isa/program.hpp"
#include "moesim/isa/spec.hpp"
#include "moesim/report/html_report.hpp"
#include "moesim/report/profile.hpp"
#include "moesim/report/report.hpp"
#include "moesim/report/trace_json.hpp"
#include "moesim/report/vcd_sink.hpp"
#include "moesim/workload/builder.hpp"
#include "moesim/workload/presets.hpp"
#include "moesim/workload/program_fault.hpp"
#include "moesim/workload/reference.hpp"

namespace fs = std::filesystem;
using namespace moesim;
using Clock = std::chrono::steady_clock;

namespace {

constexpr int kExitEqual = 0;
constexpr int kExitMismatch = 1;
constexpr int kExitUsage = 2;

/// Runs `f`; an exception of type E it throws (a file that cannot be read or written, a bad
/// assembly line) becomes a UsageError (exit 2) whose message starts with `prefix`.
template <class E = std::runtime_error, class F>
auto bad_input_of(const std::string& prefix, F&& f) -> decltype(f()) {
  try {
    return f();
  } catch (const E& e) {
    throw UsageError(prefix + e.what());
  }
}

double seconds_since(Clock::time_point t0) {
  return std::chrono::duration<double>(Clock::now() - t0).count();
}

/// Rejects a negative value for an unsigned option (which would otherwise wrap around).
const CLI::Validator kNotNegative(
    [](std::string& v) {
      return !v.empty() && v[0] == '-' ? "must not be negative, got " + v : std::string();
    },
    "");

struct ProgramFlags {
  std::string model = "gpt-oss-20b";
  std::string machine = "default";
  unsigned tokens = 4;
  unsigned hidden = 0;
  unsigned intermediate = 0;
  bool shared = false;
  unsigned shared_intermediate = 0;
  std::string topk_policy = "auto";
  std::string lowering = "pair";
  uint64_t seed = 1;
  uint64_t max_instructions = 2000000;
  double progress_after = 2.0;  ///< seconds before the progress line (on a terminal only)
  std::string asm_out;
  std::string plant_fault;
  std::string program_file;
  CLI::Option* hidden_opt = nullptr;
  CLI::Option* intermediate_opt = nullptr;
};

void add_progress_flag(CLI::App* app, ProgramFlags& f) {
  app->add_option("--progress-after", f.progress_after,
                  "on a terminal, show a progress line once the run has taken this many seconds")
      ->capture_default_str()
      ->check(CLI::Validator(
          [](std::string& v) {
            char* end = nullptr;
            const double s = std::strtod(v.c_str(), &end);
            return *end == '\0' && std::isfinite(s) && s >= 0
                       ? std::string()
                       : "must be a finite number of seconds >= 0, got " + v;
          },
          ""));
}

void add_program_flags(CLI::App* app, ProgramFlags& f) {
  std::string models;
  for (const auto& m : workload::model_presets()) models += (models.empty() ? "" : ", ") + m.name;
  std::vector<CLI::Option*> generated = {
      app->add_option("--model", f.model,
                      "model preset (" + models + ") or a Hugging Face config.json")
          ->capture_default_str(),
      app->add_option("--tokens", f.tokens, "tokens T (padded to a multiple of HBM_V_ROWS)")
          ->capture_default_str()
          ->check(kNotNegative),
      f.hidden_opt = app->add_option("--hidden", f.hidden,
                                     "hidden size H, a multiple of VLEN (default: the model's)")
                         ->check(kNotNegative),
      f.intermediate_opt =
          app->add_option("--intermediate", f.intermediate,
                          "expert intermediate size I, a multiple of VLEN (default: the model's)")
              ->check(kNotNegative),
      app->add_flag("--shared", f.shared,
                    "add the model's shared expert (an error if the model has none)"),
      app->add_option("--shared-intermediate", f.shared_intermediate,
                      "fused shared-expert width I_s, a multiple of VLEN (default: the model's, "
                      "scaled like --intermediate)")
          ->check(kNotNegative),
      app->add_option("--topk-policy", f.topk_policy,
                      "V_TOPK encoding: auto (a hardwired rmask when isa.yaml has the shape) or "
                      "register (rmask 15 after C_SET_TOPK_REG)")
          ->capture_default_str()
          ->check(CLI::IsMember({"auto", "register"})),
      app->add_option("--lowering", f.lowering,
                      "routed experts: pair (pair-major, weights per token-expert pair) or expert "
                      "(dense expert-major, weights once per expert)")
          ->capture_default_str()
          ->check(CLI::IsMember({"pair", "expert"})),
      app->add_option("--seed", f.seed, "seed of the std::mt19937_64 input generator")
          ->capture_default_str()
          ->check(kNotNegative),
      app->add_option("--asm-out", f.asm_out, "write the generated assembly to FILE"),
      app->add_option(
          "--plant-fault", f.plant_fault,
          "plant a lowering bug in the generated program, which both engines run "
          "(caught by --reference or the stage profile): " +
              [] {
                std::string n;
                for (const auto& x : workload::program_fault_names())
                  n += (n.empty() ? "" : ", ") + x;
                return n;
              }())};
  app->add_option("--machine", f.machine, "machine preset of machine.yaml")->capture_default_str();
  app->add_option("--max-instructions", f.max_instructions,
                  "stop with exit 2 if the program has not ended after N instructions (0: no "
                  "limit)")
      ->capture_default_str()
      ->check(kNotNegative);
  add_progress_flag(app, f);
  CLI::Option* program =
      app->add_option("--program", f.program_file,
                      "instead of the generated MoE layer, run FILE (.asm, or .hex with its "
                      ".stages beside) with zero-initialised memories");
  for (CLI::Option* o : generated) program->excludes(o);
}

/// The program to run, its initial memories and the spec objects it was built for. `built`
/// (and `model`) are set for the generated MoE layer, not for --program.
struct Workload {
  const isa::MachinePreset* preset = nullptr;
  std::optional<workload::ModelPreset> model;
  std::vector<std::string> ignored_config_keys;  ///< config.json keys accepted without effect
  std::optional<workload::BuiltProgram> built;
  isa::Program program;
  isa::MemoryImage image;
  std::string name;
};

Workload make_workload(const isa::Spec& spec, const ProgramFlags& f) {
  Workload w;
  w.preset = &cli::machine_preset(spec, f.machine);
  if (!f.program_file.empty()) {
    w.program = bad_input_of("--program: ", [&] {  // isa::AsmError (file:line:col) or a file error
      return fs::path(f.program_file).extension() == ".asm"
                 ? isa::assemble_file(spec, f.program_file)
                 : isa::read_program(f.program_file);
    });
    if (w.program.size() == 0)
      throw UsageError("--program " + f.program_file + ": no instructions");
    w.name = f.program_file;
    return w;
  }
  w.model = workload::resolve_model(f.model, &w.ignored_config_keys);
  workload::BuildOptions o;
  o.model = &*w.model;
  o.shared = f.shared;
  o.shared_intermediate = f.shared_intermediate;
  o.topk = f.topk_policy == "register" ? workload::TopkEncoding::register_policy
                                       : workload::TopkEncoding::automatic;
  o.lowering = f.lowering == "expert" ? workload::Lowering::expert : workload::Lowering::pair;
  o.tokens = f.tokens;
  o.hidden = f.hidden_opt->count() != 0 ? f.hidden : w.model->hidden;
  o.intermediate = f.intermediate_opt->count() != 0 ? f.intermediate : w.model->intermediate;
  o.seed = f.seed;
  if (!f.plant_fault.empty()) o.fault = workload::parse_program_fault(f.plant_fault);
  w.built = workload::build_moe_layer(spec, *w.preset, o);
  if (!w.ignored_config_keys.empty()) {
    std::string keys;
    for (const auto& k : w.ignored_config_keys) keys += (keys.empty() ? "" : ", ") + k;
    w.built->notes.push_back("config.json keys accepted without effect on the layer: " + keys);
  }
  w.program = w.built->program;
  w.image = w.built->image;
  w.name = w.built->name;
  if (!f.asm_out.empty()) {
    std::ofstream out(f.asm_out, std::ios::binary | std::ios::trunc);
    if (!out) throw UsageError("--asm-out " + f.asm_out + ": cannot open for writing");
    out << w.built->asm_text;
    if (!out) throw UsageError("--asm-out " + f.asm_out + ": write failed");
  }
  return w;
}

/// "gpt-oss-20b T=4 H=128 I=128 E=32 k=4 seed=1 machine=default" or "FILE machine=default".
std::string describe(const Workload& w, const ProgramFlags& f) {
  std::ostringstream s;
  if (w.built) {
    const workload::Layout& L = w.built->layout;
    s << w.model->name << " T=" << L.tokens << " H=" << L.hidden << " I=" << L.intermediate
      << " E=" << L.experts << " k=" << L.top_k;
    if (L.shared_intermediate != 0)
      s << " shared I_s=" << L.shared_intermediate << (L.shared_gate ? " gated" : "");
    s << " V_TOPK rmask " << L.topk_rmask
      << (L.lowering == workload::Lowering::expert ? " expert-major" : " pair-major")
      << " seed=" << f.seed;
  } else {
    s << w.name;
  }
  s << " machine=" << w.preset->name << ", a program of " << w.program.size()
    << " instructions (the table counts retired ones)";
  return s.str();
}

/// "\r[moesim] ..." on stderr, at most every 250 ms, once a run has taken `after_s` seconds;
/// only when stderr is a terminal.
class Progress {
 public:
  explicit Progress(double after_s) : enabled_(isatty(STDERR_FILENO) != 0), after_s_(after_s) {}
  void operator()(uint64_t retired, uint64_t cycles) {
    if (!enabled_) return;
    const auto now = Clock::now();
    const double t = std::chrono::duration<double>(now - start_).count();
    if (t < after_s_ || now - last_ < std::chrono::milliseconds(250)) return;
    last_ = now;
    std::fprintf(stderr, "\r[moesim] %llu instructions, %llu cycles, %.0f instr/s   ",
                 static_cast<unsigned long long>(retired), static_cast<unsigned long long>(cycles),
                 static_cast<double>(retired) / t);
    std::fflush(stderr);
    printed_ = true;
  }
  void done() {
    if (printed_) std::fputc('\n', stderr);
    printed_ = false;
  }

 private:
  bool enabled_;
  double after_s_;
  bool printed_ = false;
  Clock::time_point start_ = Clock::now();
  Clock::time_point last_ =
      start_ - std::chrono::milliseconds(250);  // the first line is not held back
};

/// The builder's matrix-unit utilisation per part (routed, shared).
void print_utilisation(std::ostream& os, const Workload& w) {
  if (!w.built) return;
  char head[200];
  std::snprintf(head, sizeof head, "  %-10s %-10s %14s %12s %13s %15s  %s%d)\n", "part", "lowering",
                "matrix_instr", "M_MM", "weight_tiles", "weight_bytes",
                "useful_rows/tile (of BLEN=", static_cast<int>(w.preset->blen()));
  os << "Matrix-unit utilisation\n" << head;
  for (const workload::Utilisation& u : w.built->utilisation) {
    char line[200];
    std::snprintf(
        line, sizeof line, "  %-10s %-10s %14llu %12llu %13llu %15llu  %.3f\n", u.part.c_str(),
        u.lowering.c_str(), static_cast<unsigned long long>(u.matrix_instructions),
        static_cast<unsigned long long>(u.mm), static_cast<unsigned long long>(u.weight_tiles),
        static_cast<unsigned long long>(u.weight_bytes), u.useful_rows_per_tile);
    os << line;
  }
}

nlohmann::json context_json(const isa::Spec& spec, const ProgramFlags& f, const Workload& w) {
  std::vector<std::string> stages_present;
  for (const auto& st : spec.stages())
    for (uint8_t code : w.program.stages)
      if (code == st.code) {
        stages_present.push_back(st.name);
        break;
      }
  nlohmann::json machine = nlohmann::json::object();
  for (const auto& [k, v] : w.preset->params) machine[k] = v;
  nlohmann::json j = {
      {"program",
       {{"name", w.name},
        {"source", w.built ? "generated" : "file"},
        {"static_instructions", w.program.size()},
        {"stages", stages_present},
        {"asm_out", f.asm_out.empty() ? nlohmann::json(nullptr) : nlohmann::json(f.asm_out)}}},
      {"preset", {{"machine", w.preset->name}, {"machine_params", machine}}},
      {"seed", w.built ? nlohmann::json(f.seed) : nlohmann::json(nullptr)},
      {"notes", w.built ? w.built->notes : std::vector<std::string>{}}};
  if (w.built) {
    const workload::Layout& L = w.built->layout;
    const workload::ModelPreset& m = *w.model;
    j["preset"]["model"] = {
        {"name", m.name},
        {"hf_id", m.hf_id},
        {"model_type", m.model_type},
        {"hidden_size", m.hidden},
        {"intermediate_size", m.intermediate},
        {"num_local_experts", m.experts},
        {"num_experts_per_tok", m.top_k},
        {"activation",
         m.activation == workload::Activation::clamped_swiglu ? "clamped_swiglu" : "swiglu"},
        {"swiglu_limit", m.swiglu_limit},
        {"swiglu_alpha", m.swiglu_alpha},
        {"router_bias", m.router_bias},
        {"expert_bias", m.expert_bias},
        {"scoring_func", m.scoring_func},
        {"norm_topk_prob", m.norm_topk_prob},
        {"n_shared_experts", m.shared_experts},
        {"shared_intermediate_size", m.shared_intermediate},
        {"shared_gate", m.shared_gate},
        {"routing", m.routing}};
    j["preset"]["shared_intermediate"] = L.shared_intermediate;
    j["preset"]["topk_select"] = L.topk_select;
    nlohmann::json util = nlohmann::json::array();
    for (const workload::Utilisation& u : w.built->utilisation)
      util.push_back({{"part", u.part},
                      {"lowering", u.lowering},
                      {"matrix_instructions", u.matrix_instructions},
                      {"m_mm", u.mm},
                      {"weight_tiles", u.weight_tiles},
                      {"weight_bytes", u.weight_bytes},
                      {"useful_rows_per_tile", u.useful_rows_per_tile}});
    j["utilisation"] = util;
    j["preset"]["tokens"] = L.tokens;
    j["preset"]["tokens_padded"] = L.tokens_padded;
    j["preset"]["hidden"] = L.hidden;
    j["preset"]["intermediate"] = L.intermediate;
    j["preset"]["topk_rmask"] = L.topk_rmask;
    j["program"]["memory_used"] = {{"vram_rows", L.vram_rows_used},
                                   {"fp_sram_words", L.fp_words_used},
                                   {"int_sram_words", L.int_words_used},
                                   {"hbm_input_bytes", L.hbm_input_end},
                                   {"hbm_output", {{"base", L.y.base}, {"bytes", L.y.bytes}}}};
  }
  return j;
}

/// The one error line of a run stopped by --max-instructions; returns the exit code.
int limit_error(const ProgramFlags& f) {
  std::cerr << "moesim: error: the program did not end within --max-instructions "
            << f.max_instructions << '\n';
  return kExitUsage;
}

/// The report, trace and profile files `cosim` and `run` write, and --reference.
struct OutputFlags {
  std::string report, html, trace_json, vcd, trace_rtl, profile;
  bool reference = false;
};

/// Registers OutputFlags on `app`; `both` says the command runs both engines (cosim).
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

/// Output files of one run: each checked by check_output_path, and no two the same file (the
/// VCD's .gtkw and .stages.filter included).
void check_outputs(const OutputFlags& o) {
  const std::vector<std::pair<std::string, std::string>> flag_paths = {
      {"--report", o.report},         {"--vcd", o.vcd},   {"--trace-rtl", o.trace_rtl},
      {"--trace-json", o.trace_json}, {"--html", o.html}, {"--profile", o.profile}};
  std::vector<std::pair<std::string, fs::path>> files;
  for (const auto& [flag, path] : flag_paths) {
    if (path.empty()) continue;
    cli::check_output_path(flag, path);
    files.emplace_back(flag + " " + path, fs::weakly_canonical(path));
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
}

/// The report as YAML when `path` ends in .yaml or .yml, else as JSON.
void write_report(const std::string& path, const nlohmann::json& j) {
  const std::string ext = fs::path(path).extension().string();
  const bool yaml = ext == ".yaml" || ext == ".yml";
  std::ofstream out(path, std::ios::trunc);
  if (!out) throw UsageError("--report " + path + ": cannot open for writing");
  out << (yaml ? report::report_yaml(j) : j.dump(2)) << '\n';
  if (!out) throw UsageError("--report " + path + ": write failed");
}

/// --reference: the independent reference of the generated layer against each engine's output;
/// prints the check to `os` and returns {"bit_exact": ..., per engine {...}} for the report. `ok`
/// is cleared when an engine's output differs from the reference.
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

/// The stage profile document (profile.hpp) as JSON.
void write_profile(const std::string& path, const nlohmann::json& j) {
  std::ofstream out(path, std::ios::trunc);
  if (!out) throw UsageError("--profile " + path + ": cannot open for writing");
  out << j.dump(2) << '\n';
  if (!out) throw UsageError("--profile " + path + ": write failed");
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

/// The RTL engine, writing Verilator's FST of every RTL signal to `fst` when non-empty.
std::unique_ptr<isa::Engine> make_rtl(const isa::Spec& spec, const isa::MachinePreset& preset,
                                      const std::string& fst) {
  try {
    return cosim::make_rtl_engine(spec, preset, fst);
  } catch (const std::invalid_argument& e) {
    if (fst.empty()) throw;
    throw UsageError(std::string("--trace-rtl: ") + e.what());
  }
}

// ------------------------------------------------------------------------------------- cosim

struct CosimFlags : OutputFlags {
  ProgramFlags program;
  std::string flip_bit;
  size_t history = 8;
  bool quiet = false;
};

int cmd_cosim(const isa::Spec& spec, const CosimFlags& f) {
  const auto t0 = Clock::now();
  std::optional<cosim::BitFlip> flip;
  if (!f.flip_bit.empty()) flip = cosim::parse_bit_flip(f.flip_bit);
  check_outputs(f);
  Workload w = make_workload(spec, f.program);
  cli::check_rtl_preset(w.preset->name);

  auto golden = cosim::make_golden_engine(spec, *w.preset);
  auto rtl = make_rtl(spec, *w.preset, f.trace_rtl);
  isa::MemoryImage gimg = w.image, rimg = w.image;
  if (flip) {
    isa::Engine& target = flip->engine == "golden" ? *golden : *rtl;
    cosim::apply_bit_flip(*flip, target.size(flip->space) * isa::unit_bytes(flip->space, *w.preset),
                          flip->engine == "golden" ? gimg : rimg);
  }
  golden->load(w.program, gimg);
  rtl->load(w.program, rimg);
  auto vcd = open_vcd(spec, f.vcd, {golden->name(), rtl->name()});
  auto trace = open_trace_json(spec, f.trace_json, {golden->name(), rtl->name()});

  Progress progress(f.program.progress_after);
  cosim::CosimOptions opts;
  opts.history = f.history;
  opts.max_instructions = f.program.max_instructions;
  if (vcd) opts.sinks.push_back(vcd.get());
  if (trace) opts.sinks.push_back(trace.get());
  opts.work = w.program.work;
  opts.progress = [&](uint64_t n, uint64_t c) { progress(n, c); };
  opts.progress_every = 256;
  const auto t_sim = Clock::now();
  cosim::CosimResult res = cosim::run_cosim(spec, *golden, *rtl, opts);
  const double sim_s = seconds_since(t_sim);
  progress.done();

  bool reference_ok = true;
  nlohmann::json reference_json = nullptr;
  std::ostringstream reference_text;
  if (f.reference && res.completed)
    reference_json = reference_check(w, {golden.get(), rtl.get()}, reference_ok, reference_text);
  const bool equal = res.equal() && reference_ok;
  const std::string verdict = reference_ok ? report::cosim_verdict(res) : "MISMATCH";
  const report::StageProfile gprof = report::make_profile(spec, res.stages, 0, res.engines[0]);
  const report::StageProfile rprof = report::make_profile(spec, res.stages, 1, res.engines[1]);
  const std::vector<std::string> prof_diffs = report::profile_differences(gprof, rprof);
  if (!f.quiet) {
    std::cout << "moesim cosim: " << describe(w, f.program);
    if (flip) std::cout << ", planted fault --flip-bit " << f.flip_bit;
    if (!f.program.plant_fault.empty())
      std::cout << ", planted fault --plant-fault " << f.program.plant_fault;
    std::cout << "\n\n";
    report::print_stage_table(std::cout, res.stages, {res.engines[0], res.engines[1]});
    std::cout << '\n';
    report::print_unit_table(std::cout, res.units, {res.engines[0], res.engines[1]},
                             {res.total_cycles[0], res.total_cycles[1]});
    std::cout << '\n';
    print_utilisation(std::cout, w);
    if (w.built) std::cout << '\n';
    report::print_cosim_details(std::cout, spec, res);
    std::cout << '\n';
    if (!f.profile.empty()) {
      report::print_profile(std::cout, gprof);
      std::cout << '\n';
    }
    std::cout << "stage profiles (instructions, cycles, HBM bytes read and written per stage): "
              << res.engines[0] << " and " << res.engines[1]
              << (prof_diffs.empty() ? " equal" : " DIFFER") << '\n';
    for (const std::string& d : prof_diffs) std::cout << "  " << d << '\n';
    std::cout << '\n' << reference_text.str();
  }
  std::cout << "VERDICT: " << verdict << ": ";
  if (res.limit_reached) {
    std::cout << "the program did not end within --max-instructions " << f.program.max_instructions;
  } else if (res.completed) {
    std::cout << "outputs " << (res.outputs_bit_exact() ? "bit-exact" : "NOT bit-exact")
              << ", cycles " << (res.cycles_match() ? "match" : "DO NOT match")
              << ", stage profiles " << (res.profiles_match() ? "equal" : "DIFFER");
    if (f.reference)
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
              << isa::disassemble(spec, r.word);
  }
  std::cout << std::endl;

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
  ctx["simulation_time_s"] = sim_s;
  ctx["wall_time_s"] = seconds_since(t0);
  if (!f.report.empty()) {
    nlohmann::json j = report::cosim_json(spec, res);
    j.update(ctx);
    write_report(f.report, j);
  }
  if (!f.html.empty()) write_html(f.html, spec, &res, nullptr, ctx);
  if (!f.profile.empty())
    write_profile(f.profile,
                  {{"tool", "moesim cosim"},
                   {"program", w.name},
                   {"profiles_equal", prof_diffs.empty()},
                   {"differences", prof_diffs},
                   {"profiles", {report::profile_json(gprof), report::profile_json(rprof)}}});
  if (res.limit_reached) return limit_error(f.program);
  return equal ? kExitEqual : kExitMismatch;
}

// --------------------------------------------------------------------------------------- run

struct RunFlags : OutputFlags {
  ProgramFlags program;
  std::string engine, dump;
  bool quiet = false;
};

void write_file(const fs::path& p, const std::vector<uint8_t>& bytes) {
  std::ofstream out(p, std::ios::binary | std::ios::trunc);
  if (!out) throw UsageError("--dump: cannot write " + p.string());
  out.write(reinterpret_cast<const char*>(bytes.data()),
            static_cast<std::streamsize>(bytes.size()));
  if (!out) throw UsageError("--dump: write failed: " + p.string());
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
  std::ofstream txt(dir / "accumulator_bf16.txt", std::ios::trunc);
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
  if (!txt) throw UsageError("--dump: write failed: accumulator_bf16.txt");
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
  std::ofstream mf(dir / "manifest.json", std::ios::trunc);
  mf << manifest.dump(2) << '\n';
  if (!mf) throw UsageError("--dump: write failed: manifest.json");
}

int cmd_run(const isa::Spec& spec, const RunFlags& f) {
  const auto t0 = Clock::now();
  check_outputs(f);
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
    engine = make_rtl(spec, *w.preset, f.trace_rtl);
  }
  engine->load(w.program, w.image);
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
  if (!f.quiet) {
    std::cout << "moesim run: " << describe(w, f.program) << "\n\n";
    report::print_stage_table(std::cout, res.stages, {res.engine});
    std::cout << '\n';
    report::print_unit_table(std::cout, res.units, {res.engine}, {res.total_cycles});
    std::cout << '\n';
    print_utilisation(std::cout, w);
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

// ------------------------------------------------------------------------------------- bench

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

// ------------------------------------------------------------------------------ asm / disasm

int cmd_asm(const isa::Spec& spec, const std::string& in, std::string out) {
  if (out.empty()) out = fs::path(in).replace_extension(".hex").string();
  // isa::AsmError (file:line:col: message) or an unreadable input file
  const isa::Program p = bad_input_of("", [&] { return isa::assemble_file(spec, in); });
  bad_input_of<std::exception>("-o: ", [&] { isa::write_program(p, out); });
  std::cout << in << ": " << p.size() << " instructions -> " << out << " (+ "
            << fs::path(out).replace_extension(".stages").string() << ")\n";
  return kExitEqual;
}

int cmd_disasm(const isa::Spec& spec, const std::string& in) {
  const isa::Program p = bad_input_of("", [&] { return isa::read_program(in); });
  std::cout << "; " << in << ": " << p.size() << " instructions\n";
  std::cout << isa::disassemble(spec, p);
  return kExitEqual;
}

int cli_main(int argc, char** argv) {
  CLI::App app{"moesim: golden model vs RTL co-simulation of a PLENA-family MoE accelerator"};
  app.require_subcommand(1);
  app.footer("Exit codes: 0 equal/success, 1 mismatch or failed run, 2 bad input or usage.");

  CosimFlags cf;
  CLI::App* cosim = app.add_subcommand("cosim", "co-simulate golden model and RTL in lockstep");
  add_program_flags(cosim, cf.program);
  add_output_flags(cosim, cf, true);
  cosim->add_option("--history", cf.history, "retired instructions shown before a divergence")
      ->capture_default_str()
      ->check(kNotNegative);
  cosim->add_option("--flip-bit", cf.flip_bit,
                    "plant a fault: ENGINE:SPACE:BYTE:BIT flips one bit of that engine's initial "
                    "image (SPACE vram|mram|fp_sram|int_sram|hbm)");
  cosim->add_flag("--quiet", cf.quiet, "print only the verdict line");

  RunFlags rf;
  CLI::App* run = app.add_subcommand("run", "run one engine alone");
  add_program_flags(run, rf.program);
  run->add_option("--engine", rf.engine, "golden or rtl")
      ->required()
      ->check(CLI::IsMember({"golden", "rtl"}));
  run->add_option("--dump", rf.dump, "write the output accumulator and HBM output to DIR")
      ->excludes("--program");
  add_output_flags(run, rf, false);
  run->add_flag("--quiet", rf.quiet, "do not print the stage table");

  BenchFlags bf;
  bf.program.model = "qwen3-30b-a3b";
  CLI::App* bench = app.add_subcommand(
      "bench",
      "time each engine alone on a full-size layer (not a test; prints the stage profile)");
  bench->add_option("--model", bf.program.model, "model preset")->capture_default_str();
  bench->add_option("--machine", bf.program.machine, "machine preset of machine.yaml")
      ->capture_default_str();
  bf.program.hidden_opt =
      bench->add_option("--hidden", bf.program.hidden, "hidden size H (default: the model's)")
          ->check(kNotNegative);
  bf.program.intermediate_opt =
      bench
          ->add_option("--intermediate", bf.program.intermediate,
                       "expert intermediate size I (default: the model's)")
          ->check(kNotNegative);
  bench->add_option("--seed", bf.program.seed, "seed of the input generator")
      ->capture_default_str()
      ->check(kNotNegative);
  bf.program.max_instructions = 0;
  bench
      ->add_option("--max-instructions", bf.program.max_instructions,
                   "stop with exit 2 after N instructions (0: no limit)")
      ->capture_default_str()
      ->check(kNotNegative);
  add_progress_flag(bench, bf.program);
  bench->add_option("--token-counts", bf.tokens, "token counts to run, one layer each")
      ->capture_default_str()
      ->check(kNotNegative);
  bench->add_option("--engine", bf.engine, "golden, rtl or both")
      ->capture_default_str()
      ->check(CLI::IsMember({"golden", "rtl", "both"}));

  cli::ConformanceFlags kf;
  CLI::App* conf = app.add_subcommand(
      "conformance", "run the ISA conformance suite (testbenches/conformance) on golden/rtl");
  conf->add_option("--engine", kf.engine, "golden, rtl or both")
      ->capture_default_str()
      ->check(CLI::IsMember({"golden", "rtl", "both"}));
  conf->add_option("--filter", kf.filter, "only cases whose MNEMONIC/case matches this regex");
  conf->add_option("--suite", kf.suite,
                   "suite directory (default: " + conformance::default_suite().string() + ")");
  conf->add_option("--machine", kf.machine, "run the cases written for this machine preset")
      ->capture_default_str();
  conf->add_option("--junit", kf.junit, "write JUnit XML to FILE");
  conf->add_option("--waive", kf.waive,
                   "a coverage item (as printed) whose absence does not fail the run; repeatable")
      ->allow_extra_args(false);
  conf->add_flag("--quiet", kf.quiet, "print failures and the summary only");

  std::string asm_in, asm_out;
  CLI::App* as = app.add_subcommand("asm", "assemble IN.asm to OUT.hex and OUT.stages");
  as->add_option("input", asm_in, "assembly file")->required();
  as->add_option("-o,--output", asm_out, "output .hex (default: input with .hex)");

  std::string dis_in;
  CLI::App* dis = app.add_subcommand("disasm", "print re-assemblable text with stage markers");
  dis->add_option("input", dis_in, ".hex program (its .stages beside is used if present)")
      ->required();

  if (argc > 1 && argv[1][0] != '-') {
    try {
      app.get_subcommand(std::string(argv[1]));
    } catch (const CLI::OptionNotFound&) {
      std::cerr << "moesim: error: unknown command '" << argv[1]
                << "' (commands: cosim, run, bench, conformance, asm, disasm; see moesim --help)\n";
      return kExitUsage;
    }
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    std::cerr << "moesim: error: " << e.what() << " (see moesim --help)\n";
    return kExitUsage;
  }

  try {
    const isa::Spec& spec = isa::Spec::builtin();
    if (*cosim) return cmd_cosim(spec, cf);
    if (*run) return cmd_run(spec, rf);
    if (*conf) return cli::cmd_conformance(spec, kf);
    if (*bench) return cmd_bench(spec, bf);
    if (*as) return cmd_asm(spec, asm_in, asm_out);
    return cmd_disasm(spec, dis_in);
  } catch (const UsageError& e) {
    std::cerr << "moesim: error: " << e.what() << '\n';
    return kExitUsage;
  } catch (const isa::SpecError& e) {
    std::cerr << "moesim: error: " << e.what() << '\n';
    return kExitUsage;
  } catch (const std::exception& e) {
    std::cerr << "moesim: failed: " << e.what() << '\n';
    return kExitMismatch;
  }
}

}  // namespace

// SystemC declares sc_main with C linkage (sc_externs.h); this file does not include <systemc>.
extern "C" int sc_main(int argc, char** argv) {
  setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 0);
  return cli_main(argc, argv);
}
