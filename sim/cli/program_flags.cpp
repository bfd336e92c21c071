// Program flags: see program_flags.hpp.
#include "program_flags.hpp"

#include <deque>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <optional>
#include <sstream>
#include <tuple>

#include "cli_output.hpp"
#include "moesim/isa/assembler.hpp"
#include "moesim/isa/file_output.hpp"
#include "moesim/isa/image_file.hpp"
#include "moesim/isa/stage_map.hpp"
#include "moesim/report/provenance.hpp"
#include "moesim/workload/hf_checkpoint.hpp"
#include "moesim/workload/program_fault.hpp"
#include "random_run.hpp"

namespace moesim::cli {

namespace fs = std::filesystem;

void add_progress_flag(CLI::App* app, ProgramFlags& f) {
  const auto seconds = CLI::Validator(
      [](std::string& v) {
        char* end = nullptr;
        const double s = std::strtod(v.c_str(), &end);
        return *end == '\0' && std::isfinite(s) && s >= 0
                   ? std::string()
                   : "must be a finite number of seconds >= 0, got " + v;
      },
      "");
  app->add_option("--progress", f.progress.mode,
                  "progress on stderr: auto (a line redrawn on a terminal, a plain line every "
                  "--progress-every seconds otherwise), always (from the start, and a last line "
                  "when not a terminal) or never (docs/progress.md)")
      ->capture_default_str()
      ->check(CLI::IsMember({"auto", "always", "never"}));
  app->add_option("--progress-after", f.progress.after_s,
                  "on a terminal, show the progress line once the run has taken this many seconds")
      ->capture_default_str()
      ->check(seconds);
  app->add_option("--progress-every", f.progress.every_s,
                  "when stderr is not a terminal, print a progress line this often (seconds); on a "
                  "terminal, redraw the line this often if that is under 250 ms")
      ->capture_default_str()
      ->check(seconds);
}

void add_dma_queue_flag(CLI::App* app, ProgramFlags& f) {
  app->add_option("--dma-queue", f.dma_queue,
                  "DMA_QUEUE of the run instead of the machine preset's, for both engines: "
                  "0 serial, 1 to 3 transfers pending at once (docs/overlap.md)");
}

namespace {

/// `base` with parameter `key` = `value`, a copy that keeps the preset's name. Stable addresses
/// for the life of the process (an engine keeps a reference to its preset); one copy per
/// (preset, parameters).
const isa::MachinePreset& preset_copy(const isa::MachinePreset& base, const std::string& key,
                                      int64_t value) {
  static std::deque<isa::MachinePreset> copies;
  isa::MachinePreset p = base;
  p.params[key] = value;
  for (const isa::MachinePreset& c : copies)
    if (c.name == p.name && c.params == p.params) return c;
  return copies.emplace_back(std::move(p));
}

}  // namespace

const isa::MachinePreset& with_dma_queue(const isa::Spec& spec, const isa::MachinePreset& base,
                                         const std::string& dma_queue) {
  if (dma_queue.empty()) return base;
  const bool digits =
      dma_queue.size() <= 3 && dma_queue.find_first_not_of("0123456789") == std::string::npos;
  if (!digits)
    throw UsageError("--dma-queue '" + dma_queue + "': not a number from 0 to " +
                     std::to_string(spec.runtime_max("DMA_QUEUE")));
  uint64_t q = 0;
  try {
    q = spec.checked_dma_queue(std::stoull(dma_queue));
  } catch (const std::invalid_argument& e) {
    throw UsageError("--dma-queue '" + dma_queue + "': " + e.what());
  }
  // The program builder reads the preset's DMA_QUEUE (double-buffered projections) and the
  // engines are built from it, so the flag makes a preset copy rather than calling
  // isa::Engine::set_dma_queue (which serves runners that reuse one engine at several depths).
  return preset_copy(base, "DMA_QUEUE", static_cast<int64_t>(q));
}

void add_hbm_jitter_flag(CLI::App* app, ProgramFlags& f) {
  app->add_option("--hbm-jitter", f.hbm_jitter,
                  "seed of the HBM latency jitter of the run (HBM_JITTER_SEED, 1 to 4294967295): "
                  "each DMA transfer takes up to the preset's HBM_JITTER_MAX extra cycles, a "
                  "function of the seed and the transfer number (docs/overlap.md); 0 or none: no "
                  "jitter");
}

const isa::MachinePreset& with_hbm_jitter(const isa::Spec& spec, const isa::MachinePreset& base,
                                          const std::string& seed) {
  if (seed.empty()) return base;
  const std::string max = std::to_string(spec.runtime_max("HBM_JITTER_SEED"));
  const bool digits =
      seed.size() <= max.size() && seed.find_first_not_of("0123456789") == std::string::npos;
  uint64_t v = 0;
  try {
    if (!digits) throw std::invalid_argument("not a number");
    v = spec.checked_hbm_jitter_seed(std::stoull(seed));
  } catch (const std::invalid_argument&) {
    throw UsageError("--hbm-jitter '" + seed + "': not a seed from 0 (no jitter) to " + max);
  }
  return preset_copy(base, "HBM_JITTER_SEED", static_cast<int64_t>(v));
}

const isa::MachinePreset& run_preset(const isa::Spec& spec, const ProgramFlags& f) {
  return with_hbm_jitter(
      spec, with_dma_queue(spec, cli::machine_preset(spec, f.machine), f.dma_queue), f.hbm_jitter);
}

void add_program_flags(CLI::App* app, ProgramFlags& f) {
  // cosim and run default to the README demo's shape, which fits every machine preset's
  // memories (a model's full size needs `--machine bench`); bench keeps 0, the model's size.
  f.hidden = kDefaultHidden;
  f.intermediate = kDefaultIntermediate;
  std::string models;
  for (const auto& m : workload::model_presets()) models += (models.empty() ? "" : ", ") + m.name;
  std::vector<CLI::Option*> generated = {
      reads(app->add_option("--model", f.model,
                            "model preset (" + models + ") or a Hugging Face config.json")
                ->capture_default_str(),
            "NAME|FILE"),
      f.tokens_opt =
          app->add_option("--tokens", f.tokens, "tokens T (padded to a multiple of HBM_V_ROWS)")
              ->capture_default_str()
              ->check(kNotNegative),
      f.hidden_opt = app->add_option("--hidden", f.hidden,
                                     "hidden size H, a multiple of VLEN (0: the model's; the "
                                     "default fits the default machine)")
                         ->capture_default_str()
                         ->check(kNotNegative),
      f.intermediate_opt =
          app->add_option("--intermediate", f.intermediate,
                          "expert intermediate size I, a multiple of VLEN (0: the model's; the "
                          "default fits the default machine)")
              ->capture_default_str()
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
      writes(app->add_option("--asm-out", f.asm_out, "write the generated assembly to FILE")),
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
  CLI::Option* trace =
      reads(app->add_option("--route-trace", f.route_trace,
                            "replay recorded routing: the layer's tokens are the trace's tokens "
                            "[--tokens-from, --tokens-to) and V_TOPK selects their recorded "
                            "experts (docs/route_traces.md)"));
  trace->excludes(f.tokens_opt);
  generated.push_back(trace);
  CLI::Option* from = app->add_option("--tokens-from", f.tokens_from,
                                      "with --route-trace: the first trace token of the layer")
                          ->check(kNotNegative)
                          ->needs(trace);
  f.tokens_to_opt = app->add_option("--tokens-to", f.tokens_to,
                                    "with --route-trace: one past the last trace token of the "
                                    "layer (default: the end of the trace)")
                        ->check(kNotNegative)
                        ->needs(trace);
  generated.push_back(from);
  generated.push_back(f.tokens_to_opt);
  CLI::Option* checkpoint =
      reads(app->add_option("--checkpoint", f.checkpoint,
                            "the layer's router and expert weights from a Hugging Face "
                            "checkpoint directory (config.json, safetensors; --layer N; the model "
                            "and its sizes are the checkpoint's; docs/checkpoints-hf.md)"),
            "DIR");
  CLI::Option* layer =
      app->add_option("--layer", f.layer, "with --checkpoint: the layer to read (0-based)")
          ->check(kNotNegative)
          ->needs(checkpoint);
  checkpoint->needs(layer);
  for (const char* n : {"--model", "--route-trace", "--shared", "--shared-intermediate"})
    checkpoint->excludes(app->get_option(n));
  generated.push_back(checkpoint);
  generated.push_back(layer);
  CLI::Option* inputs = reads(
      app->add_option("--inputs", f.inputs,
                      "the layer's input hidden states instead of seeded ones: a safetensors file "
                      "of one tensor [tokens, hidden] in BF16, F16 or F32 (its rows are the "
                      "tokens; docs/checkpoints-hf.md)"));
  inputs->excludes(f.tokens_opt);
  inputs->excludes(trace);
  generated.push_back(inputs);
  app->add_option("--machine", f.machine, "machine preset of machine.yaml")->capture_default_str();
  app->add_option("--max-instructions", f.max_instructions,
                  "stop with exit 2 if the program has not ended after N instructions (0: no "
                  "limit)")
      ->capture_default_str()
      ->check(kNotNegative);
  add_progress_flag(app, f);
  CLI::Option* program =
      reads(app->add_option("--program", f.program_file,
                            "instead of the generated MoE layer, run FILE (.hex with its .stages "
                            "beside, or assembly) on the memories of --image, --image-bin and "
                            "--random-image (zero elsewhere)"));
  for (CLI::Option* o : generated) program->excludes(o);
  for (CLI::Option* o : add_asm_flags(app, f.assembly)) o->needs(program);
  f.random_seed_opt =
      app->add_option("--random-seed", f.random_seed,
                      "instead of the generated MoE layer, run the constrained-random program of "
                      "this seed (moesim random, docs/random.md)")
          ->check(kNotNegative);
  CLI::Option* mix =
      reads(app->add_option("--mix", f.random_mix, "generator knobs of --random-seed"));
  mix->needs(f.random_seed_opt);
  f.random_seed_opt->excludes(program);
  for (CLI::Option* o : generated) f.random_seed_opt->excludes(o);
  reads(app->add_option("--image", f.images,
                        "with --program: initial memories from FILE.yaml (the init: schema of "
                        "conformance cases, docs/images.md); repeatable")
            ->needs(program));
  reads(app->add_option("--image-bin", f.image_bins,
                        "with --program: SPACE=FILE[@OFFSET] loads FILE's raw bytes into SPACE "
                        "(vram|mram|fp_sram|int_sram|hbm) at byte OFFSET of its byte image "
                        "(docs/images.md); repeatable, applied after --image")
            ->needs(program),
        "SPACE=FILE[@OFFSET]");
  f.random_image_opt =
      app->add_option("--random-image", f.random_image,
                      "with --program: fill every space with seeded random contents first "
                      "(docs/images.md: BF16 in +-[1/16, 16), E4M3 codes, small u32, bytes)")
          ->check(kNotNegative)
          ->needs(program);
}

namespace {

/// What the provenance of `w` hashes: the program file (and its .stages) or the generated
/// program's words and stages, a config.json, the image files.
nlohmann::json make_provenance(const isa::Spec& spec, const ProgramFlags& f, const Workload& w) {
  report::Provenance p;
  p.command_line = command_line();
  p.machine = w.preset->name;
  const bool random_program = f.random_seed_opt != nullptr && f.random_seed_opt->count() != 0;
  if (w.built || random_program) {
    p.seed = random_program ? f.random_seed : f.seed;
    std::vector<uint8_t> bytes;
    for (uint32_t word : w.program.words)
      for (int s = 0; s < 32; s += 8) bytes.push_back(static_cast<uint8_t>(word >> s));
    bytes.insert(bytes.end(), w.program.stages.begin(), w.program.stages.end());
    p.digests.emplace_back("program (generated: words, then stage codes)",
                           report::sha256_hex(bytes.data(), bytes.size()));
    if (w.built && f.checkpoint.empty() && fs::path(f.model).extension() == ".json")
      p.files.emplace_back("model " + f.model, f.model);
    if (w.built && !f.inputs.empty()) p.files.emplace_back("inputs " + f.inputs, f.inputs);
    if (w.built && !f.checkpoint.empty())
      p.files.emplace_back("checkpoint config.json", fs::path(f.checkpoint) / "config.json");
    if (w.built && !f.route_trace.empty())
      p.files.emplace_back("route trace " + f.route_trace, f.route_trace);
  } else {
    if (f.random_image_opt->count() != 0) p.seed = f.random_image;
    p.files.emplace_back("program " + f.program_file, f.program_file);
    const fs::path st = isa::stages_path(f.program_file);
    if (fs::path(f.program_file).extension() == ".hex" && fs::exists(st))
      p.files.emplace_back("program stages " + st.string(), st);
    if (!f.assembly.stage_map.empty())
      p.files.emplace_back("stage map " + f.assembly.stage_map, f.assembly.stage_map);
    for (const std::string& i : f.images) p.files.emplace_back("image " + i, i);
    for (const std::string& i : f.image_bins) {
      const isa::BinaryImageArg a = isa::parse_binary_image_arg("--image-bin", i);
      p.files.emplace_back("image-bin " + i, a.file);
    }
  }
  return bad_input_of("provenance: ", [&] { return report::provenance_json(spec, p); });
}

}  // namespace

namespace {

/// --route-trace: loads the trace, replaces the model's router by the recorded routing
/// (workload::replay_route_trace, docs/route_traces.md) and sets the layer's tokens and recorded
/// routes.
void replay_route_trace(const ProgramFlags& f, Workload& w, workload::BuildOptions& o) {
  workload::RouteTrace t = workload::load_route_trace(f.route_trace);
  std::optional<unsigned> to;
  if (f.tokens_to_opt->count() != 0) to = f.tokens_to;
  workload::RouteReplay r =
      workload::replay_route_trace(t, f.route_trace, *w.model, f.tokens_from, to);
  w.model = std::move(r.model);
  o.model = &*w.model;
  o.tokens = r.to - r.from;
  o.recorded = std::move(r.recorded);
  w.trace = std::move(t);
  w.trace_from = r.from;
  w.trace_to = r.to;
  w.trace_note = std::move(r.note);
}

}  // namespace

Workload make_workload(const isa::Spec& spec, const ProgramFlags& f) {
  Workload w = make_workload_only(spec, f);
  w.provenance = make_provenance(spec, f, w);
  return w;
}

Workload make_workload_only(const isa::Spec& spec, const ProgramFlags& f) {
  Workload w;
  w.preset = &run_preset(spec, f);
  if (f.random_seed_opt != nullptr && f.random_seed_opt->count() != 0) {
    random_workload(spec, *w.preset, f.random_seed, f.random_mix, w.program, w.program_image,
                    w.budget, w.name);
    return w;
  }
  if (!f.program_file.empty()) {
    w.program = read_program_file(spec, f.program_file, "--program: ", f.assembly);
    if (w.program.size() == 0)
      throw UsageError("--program " + f.program_file + ": no instructions");
    const auto imem = static_cast<uint64_t>(w.preset->get("IMEM_WORDS"));
    if (w.program.size() > imem)
      throw UsageError("--program " + f.program_file + ": " + std::to_string(w.program.size()) +
                       " instructions do not fit IMEM_WORDS = " + std::to_string(imem) +
                       " of machine preset " + w.preset->name);
    w.name = f.program_file;
    if (f.random_image_opt->count() != 0)
      isa::add_random_image(f.random_image, *w.preset, w.program_image);
    for (const std::string& img : f.images)
      bad_input_of<UsageError>("--image ",
                               [&] { isa::read_image_file(img, *w.preset, w.program_image); });
    for (const std::string& arg : f.image_bins)
      isa::read_binary_image("--image-bin", isa::parse_binary_image_arg("--image-bin", arg),
                             *w.preset, w.program_image);
    return w;
  }
  std::optional<workload::HfLayer> hf;
  if (!f.checkpoint.empty()) {
    hf = bad_input_of<UsageError>("--checkpoint ", [&] {
      return workload::load_hf_layer(f.checkpoint, f.layer, *w.preset, &w.ignored_config_keys);
    });
    w.model = hf->model;
    // The tensors have the checkpoint's sizes: --hidden and --intermediate may only repeat them.
    for (const auto& [opt, v, model_v] :
         {std::tuple{f.hidden_opt, f.hidden, w.model->hidden},
          std::tuple{f.intermediate_opt, f.intermediate, w.model->intermediate}})
      if (opt->count() != 0 && v != model_v)
        throw UsageError(opt->get_name() + " " + std::to_string(v) +
                         ": the checkpoint's layer has " + std::to_string(model_v) +
                         " (its tensors are not scaled down)");
  } else {
    w.model = workload::resolve_model(f.model, &w.ignored_config_keys);
  }
  if (f.shared_intermediate != 0 && !f.shared)
    throw UsageError("--shared-intermediate " + std::to_string(f.shared_intermediate) +
                     ": sets the shared expert's width, and without --shared the layer has none "
                     "(add --shared, or leave the flag out)");
  workload::BuildOptions o;
  o.model = &*w.model;
  o.shared = f.shared || (hf && w.model->shared_experts != 0);  // a checkpoint's shared expert
  o.shared_intermediate = f.shared_intermediate;
  o.topk = f.topk_policy == "register" ? workload::TopkEncoding::register_policy
                                       : workload::TopkEncoding::automatic;
  o.lowering = f.lowering == "expert" ? workload::Lowering::expert : workload::Lowering::pair;
  o.tokens = f.tokens;
  if (!f.route_trace.empty()) replay_route_trace(f, w, o);
  o.hidden = f.hidden != 0 && !hf ? f.hidden : w.model->hidden;
  o.intermediate = f.intermediate != 0 && !hf ? f.intermediate : w.model->intermediate;
  o.seed = f.seed;
  if (hf) o.weights = hf->weights.get();
  if (!f.inputs.empty())
    o.inputs = bad_input_of<UsageError>(
        "--inputs ", [&] { return workload::read_hidden_states(f.inputs, o.hidden, o.tokens); });
  std::optional<workload::ProgramFault> fault;  // a bad name is refused before the build
  if (!f.plant_fault.empty()) fault = workload::parse_program_fault(f.plant_fault);
  if (hf) {  // the builder names --hidden / --intermediate for sizes that are the checkpoint's
    try {
      w.built = workload::build_moe_layer(spec, *w.preset, o);
    } catch (const workload::TensorValueError&) {
      throw;  // a value, not a size: it names its file, tensor and element
    } catch (const UsageError& e) {
      throw UsageError("--checkpoint " + f.checkpoint + ": layer " + std::to_string(f.layer) +
                       " (" + hf->tensors + ") does not fit: " + e.what());
    }
  } else {
    w.built = workload::build_moe_layer(spec, *w.preset, o);
  }
  if (w.trace) w.built->notes.push_back(w.trace_note);
  if (hf) w.built->notes.push_back(hf->note);
  if (fault) workload::plant_program_fault(spec, *w.preset, *fault, *w.built);
  if (!w.ignored_config_keys.empty()) {
    std::string keys;
    for (const auto& k : w.ignored_config_keys) keys += (keys.empty() ? "" : ", ") + k;
    w.built->notes.push_back("config.json keys accepted without effect on the layer: " + keys);
  }
  w.program = w.built->program;
  w.name = w.built->name;
  // --asm-out was held to the run's inputs and other outputs (check_outputs) before the build.
  if (!f.asm_out.empty())
    bad_input_of("--asm-out ", [&] { isa::write_file(f.asm_out, w.built->asm_text); });
  return w;
}

std::vector<CLI::Option*> add_asm_flags(CLI::App* app, AsmFlags& f) {
  return {app->add_option("--syntax", f.syntax,
                          "assembly syntax: moesim, or plena to also take the forms PLENA's "
                          "compiler writes, with PLENA's meaning (a warning where it differs from "
                          "moesim's; docs/images.md)")
              ->capture_default_str()
              ->check(CLI::IsMember({"moesim", "plena"})),
          reads(app->add_option("--stage-map", f.stage_map,
                                "stages of the assembly's instructions from its comments: a YAML "
                                "file of comment-substring rules (docs/images.md, Stage maps)"))};
}

isa::Program read_program_file(const isa::Spec& spec, const std::string& path,
                               const std::string& what, const AsmFlags& f) {
  const bool hex = fs::path(path).extension() == ".hex";
  if (hex && f.syntax != "moesim")
    throw UsageError("--syntax " + f.syntax + ": " + path +
                     " is an assembled program (.hex); the syntax applies to assembly");
  if (hex && !f.stage_map.empty())
    throw UsageError("--stage-map " + f.stage_map + ": " + path +
                     " is an assembled program (.hex), whose stages are its .stages file");
  if (hex) return bad_input_of(what, [&] { return isa::read_program(path); });
  std::optional<isa::StageMap> map;
  if (!f.stage_map.empty())
    map = bad_input_of<UsageError>("--stage-map ",
                                   [&] { return isa::read_stage_map(spec, f.stage_map); });
  std::vector<std::string> warnings;
  isa::AsmOptions o;
  o.syntax = f.syntax == "plena" ? isa::Syntax::plena : isa::Syntax::moesim;
  o.warnings = &warnings;
  o.stage_map = map ? &*map : nullptr;
  // isa::AsmError (file:line:col) or a file error
  isa::Program p = bad_input_of(what, [&] { return isa::assemble_file(spec, path, o); });
  const isa::StageSpec* other = spec.stage("other");
  const bool staged = std::any_of(p.stages.begin(), p.stages.end(),
                                  [&](uint8_t s) { return other == nullptr || s != other->code; });
  // A generated program may repeat a form on every line: the first few say what and where.
  constexpr size_t kShown = 20;
  for (size_t i = 0; i < warnings.size() && i < kShown; ++i)
    std::cerr << "moesim: warning: " << printable(warnings[i]) << '\n';
  if (warnings.size() > kShown)
    std::cerr << "moesim: warning: " << printable(path) << ": " << warnings.size() - kShown
              << " more warnings like these not shown (" << warnings.size() << " in all)\n";
  if ((o.syntax == isa::Syntax::plena || map) && p.size() != 0 && !staged)
    std::cerr << "moesim: warning: "
              << printable(
                     path + ": no instruction has a stage (no `; @stage=` marker" +
                     (map ? ", and no rule of --stage-map " + f.stage_map + " matched a comment"
                          : std::string("; give --stage-map to set stages from comments")) +
                     "): the stage profile bills every cycle to `other` (docs/images.md, Stage "
                     "maps)")
              << '\n';
  return p;
}

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
    if (w.trace)
      s << " route-trace " << f.route_trace << " tokens [" << w.trace_from << ", " << w.trace_to
        << ")";
  } else {
    s << w.name;
    if (f.random_image_opt != nullptr && f.random_image_opt->count() != 0)
      s << " --random-image " << f.random_image;
    for (const std::string& i : f.images) s << " --image " << i;
    for (const std::string& i : f.image_bins) s << " --image-bin " << i;
  }
  s << " machine=" << w.preset->name;
  if (!f.dma_queue.empty()) s << " dma-queue=" << w.preset->get("DMA_QUEUE");
  if (w.preset->get("HBM_JITTER_SEED") != 0)
    s << " hbm-jitter=" << w.preset->get("HBM_JITTER_SEED") << " (up to "
      << w.preset->get("HBM_JITTER_MAX") << " cycles)";
  s << ", a program of " << w.program.size() << " instructions (the table counts retired ones)";
  return s.str();
}

void print_utilisation(std::ostream& os, const Workload& w, std::optional<uint64_t> stopped_after) {
  if (!w.built) return;
  char head[200];
  std::snprintf(head, sizeof head, "  %-10s %-10s %14s %12s %13s %15s  %s%d)\n", "part", "lowering",
                "matrix_instr", "M_MM", "weight_tiles", "weight_bytes",
                "useful_rows/tile (of BLEN=", static_cast<int>(w.preset->blen()));
  os << "Matrix-unit utilisation planned by the builder (counts of a complete run)";
  if (stopped_after)
    os << "; this run stopped after " << *stopped_after
       << " retired instructions: the unit table above shows what ran";
  os << '\n' << head;
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
      {"seed", w.built                            ? nlohmann::json(f.seed)
               : f.random_image_opt->count() != 0 ? nlohmann::json(f.random_image)
                                                  : nlohmann::json(nullptr)},
      {"notes", w.built ? w.built->notes : std::vector<std::string>{}},
      {"provenance", w.provenance}};
  if (w.built) {
    const workload::Layout& L = w.built->layout;
    const workload::ModelPreset& m = *w.model;
    j["preset"]["model"] = {{"name", m.name},
                            {"hf_id", m.hf_id},
                            {"model_type", m.model_type},
                            {"hidden_size", m.hidden},
                            {"intermediate_size", m.intermediate},
                            {"num_local_experts", m.experts},
                            {"num_experts_per_tok", m.top_k},
                            {"activation", workload::activation_name(m.activation)},
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

int limit_error(const ProgramFlags& f) {
  std::cerr << "moesim: error: the program did not end within --max-instructions "
            << f.max_instructions << " (a longer program needs a larger N; 0: no limit)\n";
  return kExitUsage;
}

}  // namespace moesim::cli
