// Bindings of what runs programs (docs/python.md): the MoE layer builder, the co-simulation and
// its lockstep iterator, random programs and the conformance suite.
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "cli_output.hpp"
#include "common.hpp"
#include "engine_handle.hpp"
#include "moesim/conformance/conformance.hpp"
#include "moesim/cosim/cosim.hpp"
#include "moesim/cosim/fault.hpp"
#include "moesim/isa/geometry.hpp"
#include "moesim/random/random_program.hpp"
#include "moesim/report/report.hpp"
#include "moesim/workload/builder.hpp"
#include "moesim/workload/deployment.hpp"
#include "moesim/workload/deployment_build.hpp"
#include "moesim/workload/presets.hpp"
#include "moesim/workload/program_fault.hpp"
#include "moesim/workload/reference.hpp"
#include "moesim/workload/route_trace.hpp"

namespace moesim::py {

namespace {

/// moesim.Layer: a built MoE layer (workload::BuiltProgram) with the machine and model it was
/// built for.
struct LayerObj {
  std::shared_ptr<workload::BuiltProgram> built;
  Machine machine;
  std::shared_ptr<const workload::ModelPreset> model;
  std::vector<std::string> ignored_config_keys;
  uint64_t seed = 1;
  /// A deployment rank's program: its reference is the deployment's.
  std::optional<unsigned> rank;
  ProgramPtr program() const { return ProgramPtr(built, &built->program); }
  ImagePtr image() const { return ImagePtr(built, &built->image); }
};

/// moesim.RandomProgram: a constrained-random program (rnd::generate, rnd::render).
struct RandomObj {
  std::shared_ptr<rnd::RandomProgram> generated;
  std::shared_ptr<rnd::Rendered> rendered;
  Machine machine;
  std::string name;  ///< as the CLI names it in reports
  ProgramPtr program() const { return ProgramPtr(rendered, &rendered->program); }
  ImagePtr image() const { return ImagePtr(rendered, &rendered->image); }
};

std::string type_name(const pyb::handle& h) {
  return std::string(pyb::str(h.get_type().attr("__name__")));
}

/// A string option that takes one of `allowed` (the CLI's IsMember check of the flag).
void check_member(const std::string& flag, const std::string& value,
                  const std::vector<std::string>& allowed) {
  for (const std::string& a : allowed)
    if (a == value) return;
  std::string list;
  for (const std::string& a : allowed) list += (list.empty() ? "" : ", ") + a;
  throw UsageError(flag + ": " + value + " not in {" + list + "}");
}

LayerObj build_layer(const std::string& model, unsigned tokens, unsigned hidden,
                     unsigned intermediate, bool shared, unsigned shared_intermediate,
                     const std::string& topk_policy, const std::string& lowering, uint64_t seed,
                     const pyb::object& machine, const std::optional<uint64_t>& dma_queue,
                     const std::string& plant_fault, const std::string& route_trace,
                     unsigned tokens_from, const std::optional<unsigned>& tokens_to,
                     const pyb::object& spec_obj) {
  // The CLI's make_workload (program_flags.cpp) for the generated layer.
  const SpecPtr spec = to_spec(spec_obj);
  check_member("--topk-policy", topk_policy, {"auto", "register"});
  check_member("--lowering", lowering, {"pair", "expert"});
  LayerObj l;
  l.machine = to_machine(machine, spec);
  if (dma_queue) l.machine = with_dma_queue(l.machine, *dma_queue);
  l.seed = seed;
  auto m = std::make_shared<workload::ModelPreset>(
      workload::resolve_model(model, &l.ignored_config_keys));
  l.model = m;
  workload::BuildOptions o;
  o.model = m.get();
  o.shared = shared;
  o.shared_intermediate = shared_intermediate;
  o.topk = topk_policy == "register" ? workload::TopkEncoding::register_policy
                                     : workload::TopkEncoding::automatic;
  o.lowering = lowering == "expert" ? workload::Lowering::expert : workload::Lowering::pair;
  o.tokens = tokens;
  std::string trace_note;
  if (!route_trace.empty()) {
    // The CLI's --route-trace: the trace's tokens [tokens_from, tokens_to) on a recorded router.
    const workload::RouteTrace t = workload::load_route_trace(route_trace);
    workload::RouteReplay r =
        workload::replay_route_trace(t, route_trace, *m, tokens_from, tokens_to);
    m = std::make_shared<workload::ModelPreset>(std::move(r.model));
    l.model = m;
    o.model = m.get();
    o.tokens = r.to - r.from;
    o.recorded = std::move(r.recorded);
    trace_note = std::move(r.note);
  } else if (tokens_from != 0 || tokens_to) {
    throw UsageError(
        "--tokens-from / --tokens-to: select tokens of a route trace; give route_trace");
  }
  o.hidden = hidden != 0 ? hidden : m->hidden;
  o.intermediate = intermediate != 0 ? intermediate : m->intermediate;
  o.seed = seed;
  std::optional<workload::ProgramFault> fault;  // a bad name is refused before the build
  if (!plant_fault.empty()) fault = workload::parse_program_fault(plant_fault);
  l.built = std::make_shared<workload::BuiltProgram>(
      workload::build_moe_layer(*spec, l.machine.get(), o));
  if (!trace_note.empty()) l.built->notes.push_back(trace_note);
  if (fault) workload::plant_program_fault(*spec, l.machine.get(), *fault, *l.built);
  if (!l.ignored_config_keys.empty()) {
    std::string keys;
    for (const auto& k : l.ignored_config_keys) keys += (keys.empty() ? "" : ", ") + k;
    l.built->notes.push_back("config.json keys accepted without effect on the layer: " + keys);
  }
  return l;
}

/// moesim.Deployment: the layer and every rank's program of a deployment
/// (workload::build_deployment, the CLI's cosim --deployment).
struct DeploymentObj {
  std::shared_ptr<workload::DeploymentBuild> build;
  Machine machine;
  uint64_t seed = 1;
  LayerObj layer_of(workload::BuiltProgram& b, std::optional<unsigned> rank) const {
    LayerObj l;
    l.built = std::shared_ptr<workload::BuiltProgram>(build, &b);
    l.machine = machine;
    l.model = std::shared_ptr<const workload::ModelPreset>(build, &build->deployment.model);
    l.seed = seed;
    l.rank = rank;
    return l;
  }
};

std::string deployments_path(const std::string& file) {
  return file.empty() ? workload::default_deployments_file() : file;
}

std::vector<workload::Deployment> load_deployments_file(const std::string& file) {
  // The CLI's find_deployment (cosim_deploy.cpp): errors prefixed with the flag and file.
  const std::string path = deployments_path(file);
  try {
    return workload::load_deployments(path);
  } catch (const std::runtime_error& e) {
    throw UsageError("--deployments " + path + ": " + e.what());
  }
}

DeploymentObj build_deployment(const std::string& name, const std::string& deployments,
                               unsigned tokens, unsigned hidden, unsigned intermediate,
                               const std::string& topk_policy, const std::string& lowering,
                               uint64_t seed, const pyb::object& machine,
                               const std::optional<uint64_t>& dma_queue,
                               const pyb::object& spec_obj) {
  const SpecPtr spec = to_spec(spec_obj);
  check_member("--topk-policy", topk_policy, {"auto", "register"});
  check_member("--lowering", lowering, {"pair", "expert"});
  const std::vector<workload::Deployment> all = load_deployments_file(deployments);
  const workload::Deployment* dep = nullptr;
  std::string names;
  for (const workload::Deployment& x : all) {
    if (x.name == name) dep = &x;
    names += (names.empty() ? "" : ", ") + x.name;
  }
  if (dep == nullptr)
    throw UsageError("--deployment " + name + ": no deployment of that name in " +
                     deployments_path(deployments) + " (known: " + names + ")");
  DeploymentObj d;
  d.machine = to_machine(machine, spec);
  if (dma_queue) d.machine = with_dma_queue(d.machine, *dma_queue);
  d.seed = seed;
  workload::BuildOptions o;
  o.tokens = tokens;
  o.hidden = hidden != 0 ? hidden : dep->model.hidden;
  o.intermediate = intermediate != 0 ? intermediate : dep->model.intermediate;
  o.topk = topk_policy == "register" ? workload::TopkEncoding::register_policy
                                     : workload::TopkEncoding::automatic;
  o.lowering = lowering == "expert" ? workload::Lowering::expert : workload::Lowering::pair;
  o.seed = seed;
  d.build = std::make_shared<workload::DeploymentBuild>(
      workload::build_deployment(*spec, d.machine.get(), *dep, o));
  return d;
}

RandomObj random_program(uint64_t seed, const pyb::object& machine, const std::string& mix_file,
                         const pyb::object& spec_obj) {
  // The CLI's random_workload (cmd_random.cpp).
  const SpecPtr spec = to_spec(spec_obj);
  RandomObj r;
  r.machine = to_machine(machine, spec);
  const rnd::Mix mix = mix_file.empty() ? rnd::Mix{} : rnd::load_mix(*spec, mix_file);
  r.generated =
      std::make_shared<rnd::RandomProgram>(rnd::generate(*spec, r.machine.get(), seed, mix));
  r.rendered = std::make_shared<rnd::Rendered>(rnd::render(*spec, r.machine.get(), *r.generated));
  r.name = "random seed=" + std::to_string(seed) +
           (r.generated->intended_trap.empty()
                ? ""
                : " (built to end in " + r.generated->intended_trap + ")");
  return r;
}

pyb::dict layout_dict(const workload::Layout& L) {
  auto mx = [](const workload::MxMatrix& x) {
    return pyb::dict(pyb::arg("base") = x.base, pyb::arg("rows") = x.rows,
                     pyb::arg("cols") = x.cols, pyb::arg("scale_offset") = x.scale_offset,
                     pyb::arg("bytes") = x.bytes);
  };
  pyb::dict d;
  d["tokens"] = L.tokens;
  d["tokens_padded"] = L.tokens_padded;
  d["hidden"] = L.hidden;
  d["intermediate"] = L.intermediate;
  d["experts"] = L.experts;
  d["top_k"] = L.top_k;
  d["pairs"] = L.pairs;
  d["topk_select"] = L.topk_select;
  d["topk_rmask"] = L.topk_rmask;
  d["lowering"] = L.lowering == workload::Lowering::expert ? "expert" : "pair";
  d["shared_intermediate"] = L.shared_intermediate;
  d["shared_gate"] = L.shared_gate;
  d["x"] = mx(L.x);
  d["y"] = mx(L.y);
  d["hbm_input_end"] = L.hbm_input_end;
  d["v_acc"] = L.v_acc;
  d["fp_weights"] = L.fp_weights;
  d["int_ids"] = L.int_ids;
  d["vram_rows_used"] = L.vram_rows_used;
  d["fp_sram_words_used"] = L.fp_words_used;
  d["int_sram_words_used"] = L.int_words_used;
  return d;
}

pyb::dict model_dict(const workload::ModelPreset& m) {
  // The keys of the report's preset.model (program_flags.cpp, context_json).
  pyb::dict d;
  d["name"] = m.name;
  d["hf_id"] = m.hf_id;
  d["model_type"] = m.model_type;
  d["hidden_size"] = m.hidden;
  d["intermediate_size"] = m.intermediate;
  d["num_local_experts"] = m.experts;
  d["num_experts_per_tok"] = m.top_k;
  d["activation"] = workload::activation_name(m.activation);
  d["swiglu_limit"] = m.swiglu_limit;
  d["swiglu_alpha"] = m.swiglu_alpha;
  d["router_bias"] = m.router_bias;
  d["expert_bias"] = m.expert_bias;
  d["scoring_func"] = m.scoring_func;
  d["norm_topk_prob"] = m.norm_topk_prob;
  d["n_shared_experts"] = m.shared_experts;
  d["shared_intermediate_size"] = m.shared_intermediate;
  d["shared_gate"] = m.shared_gate;
  d["routing"] = m.routing;
  return d;
}

/// What a run co-simulates: program, image, machine, budget, work tags, a name.
struct Workload {
  ProgramPtr program;
  ImagePtr image;
  Machine machine;
  std::optional<uint64_t> budget;
  std::string name;
  std::string source;  ///< generated, random, python
};

/// The result dict of a co-simulation: what the CLI's --report JSON holds about the run
/// (report::cosim_json, the verdict, the engines), with the program and machine it ran.
pyb::object cosim_report(const isa::Spec& spec, const cosim::CosimResult& res, const Workload& w) {
  nlohmann::json j = report::cosim_json(spec, res, &w.machine.get());
  j["verdict"] = report::cosim_verdict(res);
  j["engines"] = res.engines;
  nlohmann::json params = nlohmann::json::object();
  for (const auto& [k, v] : w.machine.get().params) params[k] = v;
  j["program"] = {
      {"name", w.name}, {"source", w.source}, {"static_instructions", w.program->size()}};
  j["preset"] = {{"machine", w.machine.get().name}, {"machine_params", params}};
  return json_to_python(j.dump());
}

/// cosim()'s program argument and keywords as a Workload (the CLI's make_workload: a generated
/// layer, --program with images, or --random-seed).
Workload workload_of(const pyb::object& program, const pyb::object& image,
                     const pyb::object& machine, const std::optional<uint64_t>& dma_queue,
                     const std::optional<uint64_t>& random_seed, const pyb::dict& layer_kwargs,
                     const SpecPtr& spec) {
  Workload w;
  if (random_seed) {
    if (!program.is_none() || layer_kwargs.size() != 0)
      throw UsageError("random_seed: not with a program or the layer's keywords");
    std::string mix;
    RandomObj r = random_program(*random_seed, machine, mix, pyb::cast(SpecObj{spec}));
    w.machine = dma_queue ? with_dma_queue(r.machine, *dma_queue) : r.machine;
    w.program = r.program();
    w.image = r.image();
    w.budget = r.generated->budget;
    w.name = r.name;
    w.source = "random";
    return w;
  }
  if (program.is_none() || pyb::isinstance<LayerObj>(program)) {
    LayerObj l;
    if (program.is_none()) {
      pyb::dict kw = layer_kwargs;
      kw["machine"] = machine;
      kw["dma_queue"] = dma_queue ? pyb::cast(*dma_queue) : pyb::none();
      kw["spec"] = SpecObj{spec};
      l = pyb::module_::import("moesim").attr("build_layer")(**kw).cast<LayerObj>();
    } else {
      if (layer_kwargs.size() != 0 || !image.is_none() || dma_queue)
        throw UsageError(
            "cosim: a Layer brings its own image, machine and build options "
            "(give dma_queue to build_layer)");
      l = program.cast<LayerObj>();
      if (!machine.is_none() && !(to_machine(machine, spec).get().params == l.machine.get().params))
        throw UsageError("cosim: the Layer was built for machine " + l.machine.get().name);
    }
    w.machine = l.machine;
    w.program = l.program();
    w.image = l.image();
    w.name = l.built->name;
    w.source = "generated";
    return w;
  }
  if (layer_kwargs.size() != 0)
    throw UsageError("cosim: the layer's keywords (" +
                     std::string(pyb::str(pyb::list(layer_kwargs.attr("keys")()))) +
                     ") do not apply to a given program");
  w.machine = to_machine(machine, spec);
  if (dma_queue) w.machine = with_dma_queue(w.machine, *dma_queue);
  w.program = to_program(program, spec);
  if (w.program->size() == 0) throw UsageError("cosim: the program has no instructions");
  const auto imem = static_cast<uint64_t>(w.machine.get().get("IMEM_WORDS"));
  if (w.program->size() > imem)
    throw UsageError("cosim: " + std::to_string(w.program->size()) +
                     " instructions do not fit IMEM_WORDS = " + std::to_string(imem) +
                     " of machine preset " + w.machine.get().name);
  w.image = to_image(image);
  w.name = w.program->source;
  w.source = "python";
  return w;
}

/// An engine of a run: the caller's (a Golden / Rtl handle), or one made for the run and ended
/// with it.
struct RunEngine {
  isa::Engine* engine = nullptr;
  EngineHandle* handle = nullptr;
  std::unique_ptr<GoldenLease> lease;
  std::unique_ptr<isa::Engine> owned;
};

RunEngine run_engine(const pyb::object& given, const std::string& kind, const SpecPtr& spec,
                     const Machine& machine) {
  RunEngine r;
  if (!given.is_none()) {
    if (!pyb::isinstance<EngineHandle>(given))
      throw pyb::type_error(kind + ": expected a moesim engine or None, got " + type_name(given));
    r.handle = &given.cast<EngineHandle&>();
    r.engine = &r.handle->get();
    if (r.handle->users > 0)
      throw std::logic_error(kind + ": the engine is in use by a lockstep run");
    if (r.handle->machine.get().params != machine.get().params)
      throw UsageError(kind + ": the engine runs machine " + r.handle->machine.get().name +
                       ", the program is for machine " + machine.get().name);
    return r;
  }
  if (kind == "golden") {
    r.lease = std::make_unique<GoldenLease>(spec, machine, "a moesim.cosim run");
    r.engine = &r.lease->engine();
  } else {
    cli::check_rtl_preset(*spec, machine.get().name);
    r.owned = cosim::make_rtl_engine(*spec, machine.get());
    r.engine = r.owned.get();
  }
  return r;
}

/// Loads `w` into the engine (with --flip-bit's image when it names this engine).
void load(RunEngine& e, const Workload& w, const std::optional<cosim::BitFlip>& flip) {
  ImagePtr img = w.image;
  if (flip && flip->engine == e.engine->name()) {
    img = std::make_shared<isa::MemoryImage>(*w.image);
    cosim::apply_bit_flip(
        *flip, e.engine->size(flip->space) * isa::unit_bytes(flip->space, w.machine.get()), *img);
  }
  if (w.budget) e.engine->set_instruction_budget(*w.budget);
  if (e.handle) e.handle->program.reset();
  e.engine->load(*w.program, *img);
  if (e.handle) {
    e.handle->program = w.program;
    e.handle->image = img;
  }
}

cosim::CosimOptions run_options(const Workload& w, size_t history, uint64_t max_instructions) {
  cosim::CosimOptions o;
  o.history = history;
  o.max_instructions = max_instructions;
  o.mlen = static_cast<uint64_t>(w.machine.get().mlen());
  o.work = w.program->work;
  o.progress_every = 4096;
  // Ctrl-C stops a long run (the engines stay where they were).
  o.progress = [](uint64_t, uint64_t) {
    if (PyErr_CheckSignals() != 0) throw pyb::error_already_set();
  };
  return o;
}

/// moesim.Lockstep: cosim::Lockstep over two engine handles.
struct LockstepObj {
  pyb::object a_obj, b_obj;  ///< the handles, kept alive
  EngineHandle* a = nullptr;
  EngineHandle* b = nullptr;
  Workload w;
  cosim::CosimOptions options;
  std::unique_ptr<cosim::Lockstep> run;
  pyb::object result = pyb::none();
  uint64_t steps = 0;

  void release() {
    if (a != nullptr) --a->users;
    if (b != nullptr) --b->users;
    a = b = nullptr;
  }
  cosim::Lockstep& get() {
    if (!run) throw Closed("moesim.Lockstep: the run is closed");
    return *run;
  }
  pyb::object finish() {
    if (!result.is_none()) return result;
    cosim::Lockstep& l = get();
    result = cosim_report(*a->spec, l.finish(), w);
    return result;
  }
  void close() {
    run.reset();
    release();
  }
  ~LockstepObj() { release(); }
};

/// One step of a lockstep run (moesim.LockstepStep).
struct StepObj {
  pyb::object a, b;  ///< Record or None
  std::vector<std::string> fields;
  uint64_t number = 0;
};

pyb::object run_conformance(const std::string& engine, const std::string& filter,
                            const std::string& suite_dir, const pyb::object& machine_obj,
                            const std::vector<std::string>& waive, const SpecPtr& spec) {
  // The CLI's cmd_conformance (cmd_conformance.cpp) without its console and JUnit output.
  namespace conf = moesim::conformance;
  check_member("--engine", engine, {"golden", "rtl", "both"});
  const Machine machine = to_machine(machine_obj, spec);
  const std::string& mname = machine.get().name;
  const std::filesystem::path suite =
      suite_dir.empty() ? conf::default_suite() : std::filesystem::path(suite_dir);
  if (std::error_code ec; !std::filesystem::is_directory(suite, ec))
    throw UsageError(suite_dir.empty() ? "the built-in suite " + suite.string() +
                                             " is not a directory (the source tree moved?); "
                                             "give one with --suite DIR"
                                       : "--suite " + suite_dir + ": not a directory");
  std::map<std::string, std::string> waived;
  for (const conf::Waiver& w : conf::load_waivers(*spec, suite)) waived[w.item] = w.reason;
  const std::set<std::string> items = conf::coverage(*spec, {}, {}).names();
  for (const std::string& w : waive) {
    if (items.count(w) == 0) throw UsageError("--waive '" + w + "': no such coverage item");
    waived.emplace(w, "--waive");
  }
  std::vector<conf::Case> all = conf::load_suite(*spec, suite, filter);
  std::vector<conf::Case> cases;
  pyb::list malformed;
  for (auto& c : all) {
    if (!c.error.empty())
      malformed.append(c.error);
    else if (c.machine == mname)
      cases.push_back(std::move(c));
  }
  const size_t other = all.size() - cases.size() - pyb::len(malformed);
  if (cases.empty() && pyb::len(malformed) == 0)
    throw UsageError("no selected case is written for --machine " + mname);
  std::vector<std::string> engines;
  if (engine == "golden" || engine == "both") engines.push_back("golden");
  if (engine == "rtl" || engine == "both") engines.push_back("rtl");
  if (engines.back() == "rtl") cli::check_rtl_preset(*spec, mname);

  bool ok = true;
  pyb::dict runs;
  std::vector<std::vector<std::string>> missing_per_engine;
  for (const std::string& name : engines) {
    RunEngine e = run_engine(pyb::none(), name, spec, machine);
    std::vector<conf::Outcome> outcomes;
    pyb::list rows;
    size_t failed = 0;
    for (const conf::Case& c : cases) {
      outcomes.push_back(conf::run_case(*spec, *e.engine, c));
      const conf::Outcome& o = outcomes.back();
      if (!o.pass) ++failed;
      rows.append(pyb::dict(pyb::arg("name") = c.name, pyb::arg("pass") = o.pass,
                            pyb::arg("failures") = o.failures, pyb::arg("retired") = o.retired,
                            pyb::arg("cycles") = o.cycles));
      if (PyErr_CheckSignals() != 0) throw pyb::error_already_set();
    }
    const conf::Coverage cov = conf::coverage(*spec, cases, outcomes);
    auto count = [](const std::vector<conf::Coverage::Item>& v) {
      size_t n = 0;
      for (const auto& i : v) n += i.covered ? 1 : 0;
      return pyb::make_tuple(n, v.size());
    };
    const std::vector<std::string> missing = cov.missing();
    std::vector<std::string> gaps;
    for (const std::string& m : missing)
      if (filter.empty() && waived.count(m) == 0) gaps.push_back(m);
    ok = ok && failed == 0 && gaps.empty();
    runs[name.c_str()] = pyb::dict(
        pyb::arg("cases") = rows, pyb::arg("passed") = cases.size() - failed,
        pyb::arg("failed") = failed,
        pyb::arg("coverage") = pyb::dict(
            pyb::arg("opcodes") = count(cov.opcodes), pyb::arg("forms") = count(cov.forms),
            pyb::arg("traps") = count(cov.traps), pyb::arg("missing") = missing),
        pyb::arg("unwaived_gaps") = gaps);
    missing_per_engine.push_back(missing);
  }
  std::vector<std::string> stale;
  if (filter.empty())
    for (const auto& [item, reason] : waived) {
      bool missing = false;
      for (const auto& ms : missing_per_engine)
        for (const std::string& m : ms) missing = missing || m == item;
      if (!missing) stale.push_back(item);
    }
  ok = ok && stale.empty() && pyb::len(malformed) == 0;
  return pyb::dict(pyb::arg("verdict") = ok ? "PASS" : "FAIL", pyb::arg("engines") = runs,
                   pyb::arg("malformed") = malformed, pyb::arg("waived") = waived,
                   pyb::arg("stale_waivers") = stale, pyb::arg("other_machines") = other);
}

}  // namespace

void bind_run(pyb::module_& m) {
  pyb::class_<LayerObj>(m, "Layer",
                        "one generated MoE layer (workload::build_moe_layer): program, image, "
                        "layout, for a machine")
      .def_property_readonly("name", [](const LayerObj& l) { return l.built->name; })
      .def_property_readonly("asm", [](const LayerObj& l) { return l.built->asm_text; })
      .def_property_readonly("program", [](const LayerObj& l) { return ProgramObj{l.program()}; })
      .def_property_readonly("image", [](const LayerObj& l) { return ImageObj{l.image()}; })
      .def_property_readonly("machine", [](const LayerObj& l) { return l.machine; })
      .def_property_readonly("seed", [](const LayerObj& l) { return l.seed; })
      .def_property_readonly(
          "layout", [](const LayerObj& l) { return layout_dict(l.built->layout); },
          "where the layer's data lives (workload::Layout, docs/workloads.md)")
      .def_property_readonly("model", [](const LayerObj& l) { return model_dict(*l.model); })
      .def_property_readonly("notes", [](const LayerObj& l) { return l.built->notes; })
      .def_property_readonly(
          "utilisation",
          [](const LayerObj& l) {
            pyb::list out;
            for (const workload::Utilisation& u : l.built->utilisation)
              out.append(pyb::dict(pyb::arg("part") = u.part, pyb::arg("lowering") = u.lowering,
                                   pyb::arg("matrix_instructions") = u.matrix_instructions,
                                   pyb::arg("m_mm") = u.mm,
                                   pyb::arg("weight_tiles") = u.weight_tiles,
                                   pyb::arg("weight_bytes") = u.weight_bytes,
                                   pyb::arg("useful_rows_per_tile") = u.useful_rows_per_tile));
            return out;
          })
      .def(
          "output",
          [](const LayerObj& l, const EngineHandle& h) {
            const workload::LayerOutput o =
                workload::read_layer_output(h.get(), l.machine.get(), *l.built);
            const auto& L = l.built->layout;
            return pyb::dict(
                pyb::arg("accumulator") = pyb::array_t<uint16_t>(
                    {static_cast<pyb::ssize_t>(L.tokens), static_cast<pyb::ssize_t>(L.hidden)},
                    o.acc_bf16.data()),
                pyb::arg("output_mxfp8") = pyb::array_t<uint8_t>(
                    static_cast<pyb::ssize_t>(o.out_mxfp8.size()), o.out_mxfp8.data()));
          },
          pyb::arg("engine"),
          "what an engine computed (workload::read_layer_output): accumulator (tokens, hidden) "
          "BF16 bits, token-major; output_mxfp8: the HBM output region's bytes")
      .def(
          "reference",
          [](const LayerObj& l) {
            if (l.rank)
              throw std::runtime_error("rank " + std::to_string(*l.rank) +
                                       " of a deployment: its reference is the deployment's "
                                       "(Deployment.reference())");
            const workload::ReferenceResult r =
                workload::reference_layer(l.machine.get(), *l.model, *l.built);
            const auto T = static_cast<pyb::ssize_t>(r.tokens),
                       H = static_cast<pyb::ssize_t>(r.hidden),
                       K = static_cast<pyb::ssize_t>(r.top_k);
            return pyb::dict(
                pyb::arg("accumulator") = pyb::array_t<uint16_t>({T, H}, r.acc_bf16.data()),
                pyb::arg("output_mxfp8") = pyb::array_t<uint8_t>(
                    static_cast<pyb::ssize_t>(r.out_mxfp8.size()), r.out_mxfp8.data()),
                pyb::arg("expert_ids") = pyb::array_t<uint32_t>({T, K}, r.expert_ids.data()),
                pyb::arg("route_weights") = pyb::array_t<uint16_t>({T, K}, r.route_weights.data()),
                pyb::arg("exact") = pyb::array_t<double>({T, H}, r.exact.data()),
                pyb::arg("selection_differs") = r.selection_differs);
          },
          "the independent reference (workload::reference_layer, the CLI's --reference): the "
          "machine-rounded accumulator and output, and the float64 evaluation")
      .def("__repr__", [](const LayerObj& l) {
        return "<moesim.Layer " + l.built->name + " machine=" + l.machine.get().name + ", " +
               std::to_string(l.built->program.size()) + " instructions>";
      });

  m.def("build_layer", &build_layer, pyb::kw_only(), pyb::arg("model") = "gpt-oss-20b",
        pyb::arg("tokens") = 4, pyb::arg("hidden") = 128, pyb::arg("intermediate") = 128,
        pyb::arg("shared") = false, pyb::arg("shared_intermediate") = 0,
        pyb::arg("topk_policy") = "auto", pyb::arg("lowering") = "pair", pyb::arg("seed") = 1,
        pyb::arg("machine") = pyb::none(), pyb::arg("dma_queue") = pyb::none(),
        pyb::arg("plant_fault") = "", pyb::arg("route_trace") = "", pyb::arg("tokens_from") = 0,
        pyb::arg("tokens_to") = pyb::none(), pyb::arg("spec") = pyb::none(),
        "the MoE layer `moesim cosim` generates with the same flags (--model --tokens "
        "--hidden --intermediate --shared --shared-intermediate --topk-policy --lowering --seed "
        "--machine --dma-queue --plant-fault --route-trace --tokens-from --tokens-to); hidden / "
        "intermediate 0: the model's own sizes; with route_trace the layer's tokens are the "
        "trace's [tokens_from, tokens_to) and `tokens` is not used");
  m.def(
      "model_presets",
      [] {
        std::vector<std::string> n;
        for (const auto& p : workload::model_presets()) n.push_back(p.name);
        return n;
      },
      "the model presets build_layer knows");
  m.def("program_faults", &workload::program_fault_names, "the names plant_fault takes");

  pyb::class_<DeploymentObj>(m, "Deployment",
                             "a deployment's single-accelerator layer and its ranks' programs "
                             "(workload::build_deployment, docs/deployments.md)")
      .def_property_readonly("name",
                             [](const DeploymentObj& d) { return d.build->deployment.name; })
      .def_property_readonly("ep", [](const DeploymentObj& d) { return d.build->deployment.ep; })
      .def_property_readonly(
          "layer", [](const DeploymentObj& d) { return d.layer_of(d.build->layer, std::nullopt); },
          "the single-accelerator layer of the same model, shape and seed")
      .def_property_readonly(
          "ranks",
          [](const DeploymentObj& d) {
            std::vector<LayerObj> r;
            for (unsigned i = 0; i < d.build->ranks.size(); ++i)
              r.push_back(d.layer_of(d.build->ranks[i], i));
            return r;
          },
          "rank r's program and initial image, a Layer (run it on an engine or co-simulate it)")
      .def_property_readonly(
          "owner", [](const DeploymentObj& d) { return d.build->owner; },
          "per token: the rank it belongs to")
      .def(
          "reference",
          [](const DeploymentObj& d) {
            const workload::DeploymentReference r =
                workload::reference_deployment(d.machine.get(), *d.build);
            const auto T = static_cast<pyb::ssize_t>(d.build->layer.layout.tokens),
                       H = static_cast<pyb::ssize_t>(d.build->layer.layout.hidden);
            pyb::list acc;
            for (const auto& a : r.rank_acc) acc.append(pyb::array_t<uint16_t>({T, H}, a.data()));
            pyb::list out;
            for (const auto& o : r.rank_out)
              out.append(pyb::array_t<uint8_t>(static_cast<pyb::ssize_t>(o.size()), o.data()));
            return pyb::dict(
                pyb::arg("combined") = pyb::array_t<uint16_t>({T, H}, r.combined.data()),
                pyb::arg("rank_accumulator") = acc, pyb::arg("rank_output_mxfp8") = out,
                pyb::arg("rank_pairs") = r.rank_pairs);
          },
          "the independent evaluation (workload::reference_deployment): per rank the BF16 "
          "accumulator and MXFP8 output, and the BF16 combine of the ranks' outputs (T x H)")
      .def("__repr__", [](const DeploymentObj& d) {
        return "<moesim.Deployment " + d.build->deployment.name +
               " ep=" + std::to_string(d.build->deployment.ep) +
               " machine=" + d.machine.get().name + ">";
      });

  m.def("build_deployment", &build_deployment, pyb::arg("name"), pyb::kw_only(),
        pyb::arg("deployments") = "", pyb::arg("tokens") = 4, pyb::arg("hidden") = 0,
        pyb::arg("intermediate") = 0, pyb::arg("topk_policy") = "auto",
        pyb::arg("lowering") = "pair", pyb::arg("seed") = 1, pyb::arg("machine") = pyb::none(),
        pyb::arg("dma_queue") = pyb::none(), pyb::arg("spec") = pyb::none(),
        "the deployment `moesim cosim --deployment NAME` builds with the same flags "
        "(--deployments --tokens --hidden --intermediate --topk-policy --lowering --seed "
        "--machine --dma-queue); hidden / intermediate 0: the model's own sizes");
  m.def(
      "deployments",
      [](const std::string& file) {
        std::vector<std::string> n;
        for (const workload::Deployment& d : load_deployments_file(file)) n.push_back(d.name);
        return n;
      },
      pyb::arg("file") = "",
      "the deployment names of a deployments file (default: the one shipped with moesim)");

  pyb::class_<RandomObj>(m, "RandomProgram",
                         "a constrained-random program with its memory image (docs/random.md)")
      .def_property_readonly("seed", [](const RandomObj& r) { return r.generated->seed; })
      .def_property_readonly("name", [](const RandomObj& r) { return r.name; })
      .def_property_readonly("machine", [](const RandomObj& r) { return r.machine; })
      .def_property_readonly(
          "budget", [](const RandomObj& r) { return r.generated->budget; },
          "INSTRUCTION_BUDGET of the run when not the preset's")
      .def_property_readonly("intended_trap",
                             [](const RandomObj& r) { return r.generated->intended_trap; })
      .def_property_readonly("asm", [](const RandomObj& r) { return r.rendered->asm_text; })
      .def_property_readonly("program", [](const RandomObj& r) { return ProgramObj{r.program()}; })
      .def_property_readonly("image", [](const RandomObj& r) { return ImageObj{r.image()}; })
      .def_property_readonly("static_size",
                             [](const RandomObj& r) { return rnd::static_size(*r.generated); })
      .def_property_readonly("dynamic_bound",
                             [](const RandomObj& r) { return rnd::dynamic_bound(*r.generated); })
      .def(
          "case_yaml",
          [](const RandomObj& r, const std::string& comment) {
            return rnd::case_yaml(r.machine.get(), *r.generated, comment);
          },
          pyb::arg("comment") = "", "the image as a case file (moesim random -o writes it)")
      .def("__repr__", [](const RandomObj& r) {
        return "<moesim.RandomProgram " + r.name + ", " +
               std::to_string(r.rendered->program.size()) + " instructions>";
      });
  m.def(
      "random_program",
      [](uint64_t seed, const pyb::object& machine, const std::string& mix,
         const pyb::object& spec) { return random_program(seed, machine, mix, spec); },
      pyb::arg("seed"), pyb::arg("machine") = pyb::none(), pyb::arg("mix") = "",
      pyb::arg("spec") = pyb::none(),
      "the constrained-random program of `seed` (moesim random --seed, --machine, --mix FILE)");
  m.def(
      "random_programs",
      [](uint64_t seed, uint64_t count, const pyb::object& machine, const std::string& mix,
         const pyb::object& spec) {
        std::vector<RandomObj> out;
        for (uint64_t i = 0; i < count; ++i)
          out.push_back(random_program(seed + i, machine, mix, spec));
        return out;
      },
      pyb::arg("seed") = 1, pyb::arg("count") = 100, pyb::arg("machine") = pyb::none(),
      pyb::arg("mix") = "", pyb::arg("spec") = pyb::none(),
      "programs seed, seed + 1, ... (moesim random --seed --count)");

  m.def(
      "cosim",
      [](const pyb::object& program, const pyb::object& image, const pyb::object& machine,
         const std::optional<uint64_t>& dma_queue, const std::optional<uint64_t>& random_seed,
         const pyb::object& golden, const pyb::object& rtl, uint64_t max_instructions,
         size_t history, const std::string& flip_bit, const pyb::object& spec_obj,
         const pyb::kwargs& layer) {
        const SpecPtr spec = to_spec(spec_obj);
        std::optional<cosim::BitFlip> flip;
        if (!flip_bit.empty()) flip = cosim::parse_bit_flip(flip_bit);
        const Workload w =
            workload_of(program, image, machine, dma_queue, random_seed, layer, spec);
        RunEngine a = run_engine(golden, "golden", spec, w.machine);
        RunEngine b = run_engine(rtl, "rtl", spec, w.machine);
        load(a, w, flip);
        load(b, w, flip);
        const cosim::CosimOptions opts = run_options(w, history, max_instructions);
        const cosim::CosimResult res = cosim::run_cosim(*spec, *a.engine, *b.engine, opts);
        return cosim_report(*spec, res, w);
      },
      pyb::arg("program") = pyb::none(), pyb::arg("image") = pyb::none(), pyb::kw_only(),
      pyb::arg("machine") = pyb::none(), pyb::arg("dma_queue") = pyb::none(),
      pyb::arg("random_seed") = pyb::none(), pyb::arg("golden") = pyb::none(),
      pyb::arg("rtl") = pyb::none(), pyb::arg("max_instructions") = 2000000,
      pyb::arg("history") = 8, pyb::arg("flip_bit") = "", pyb::arg("spec") = pyb::none(),
      "co-simulates golden and RTL in lockstep (moesim cosim) and returns the report JSON as a "
      "dict (verdict, first_divergence, final_state, stages, units, ...). `program`: a Layer, a "
      "Program or assembly text (with `image`), or None: the layer build_layer makes from the "
      "remaining keywords; random_seed: the random program of that seed. golden / rtl: engines "
      "to run on (default: made for the run)");

  pyb::class_<StepObj>(m, "LockstepStep", "one pair of records of a lockstep run")
      .def_readonly("golden", &StepObj::a, "engine a's record (None: it had stopped)")
      .def_readonly("rtl", &StepObj::b, "engine b's record (None: it had stopped)")
      .def_readonly("fields", &StepObj::fields,
                    "the fields in which they differ (['retired']: one engine had stopped)")
      .def_readonly("number", &StepObj::number, "0, 1, ... in the run")
      .def_property_readonly("equal", [](const StepObj& s) { return s.fields.empty(); })
      .def("__repr__", [](const StepObj& s) {
        return "<moesim.LockstepStep " + std::to_string(s.number) +
               (s.fields.empty() ? " equal" : " DIFFERS") + ">";
      });

  pyb::class_<LockstepObj>(m, "Lockstep",
                           "golden and RTL stepped together, record by record "
                           "(cosim::Lockstep, the harness of moesim cosim)")
      .def("__iter__", [](pyb::object self) { return self; })
      .def("__next__",
           [](LockstepObj& l) {
             cosim::Lockstep& run = l.get();
             if (!run.next()) throw pyb::stop_iteration();
             StepObj s;
             s.number = l.steps++;
             const auto& r = run.records();
             s.a = r[0] ? pyb::cast(RecordObj{*r[0], l.a->spec}) : pyb::none();
             s.b = r[1] ? pyb::cast(RecordObj{*r[1], l.b->spec}) : pyb::none();
             s.fields = run.fields();
             return s;
           })
      .def_property_readonly("done", [](LockstepObj& l) { return l.get().done(); })
      .def("result", &LockstepObj::finish,
           "ends the run where it is and returns the report dict moesim.cosim returns")
      .def("close", &LockstepObj::close)
      .def("__enter__", [](pyb::object self) { return self; })
      .def("__exit__", [](LockstepObj& l, const pyb::args&) { l.close(); });
  m.def(
      "lockstep",
      [](const pyb::object& golden, const pyb::object& rtl, size_t history,
         uint64_t max_instructions) {
        auto l = std::make_unique<LockstepObj>();
        for (const pyb::object* o : {&golden, &rtl})
          if (!pyb::isinstance<EngineHandle>(*o))
            throw pyb::type_error("lockstep: expected two moesim engines, got " + type_name(*o));
        EngineHandle& a = golden.cast<EngineHandle&>();
        EngineHandle& b = rtl.cast<EngineHandle&>();
        if (&a == &b) throw pyb::value_error("lockstep: the same engine twice");
        a.require_loaded("lockstep");
        b.require_loaded("lockstep");
        if (a.users > 0 || b.users > 0)
          throw std::logic_error("lockstep: an engine is in use by another lockstep run");
        l->a_obj = golden;
        l->b_obj = rtl;
        l->w.program = a.program;
        l->w.image = a.image;
        l->w.machine = a.machine;
        l->w.name = a.program->source;
        l->w.source = "python";
        l->options = run_options(l->w, history, max_instructions);
        l->run = std::make_unique<cosim::Lockstep>(*a.spec, a.get(), b.get(), l->options);
        l->a = &a;
        l->b = &b;
        ++a.users;
        ++b.users;
        return l;
      },
      pyb::arg("golden"), pyb::arg("rtl"), pyb::arg("history") = 8,
      pyb::arg("max_instructions") = 0,
      "iterates over the record pairs of two loaded engines as moesim cosim compares them; "
      "result() gives the report dict at any point");

  m.def(
      "conformance",
      [](const std::string& engine, const std::string& filter, const std::string& suite,
         const pyb::object& machine, const std::vector<std::string>& waive,
         const pyb::object& spec) {
        return run_conformance(engine, filter, suite, machine, waive, to_spec(spec));
      },
      pyb::kw_only(), pyb::arg("engine") = "both", pyb::arg("filter") = "", pyb::arg("suite") = "",
      pyb::arg("machine") = pyb::none(), pyb::arg("waive") = std::vector<std::string>{},
      pyb::arg("spec") = pyb::none(),
      "the ISA conformance suite (moesim conformance --engine --filter --suite --machine "
      "--waive): per engine the cases with pass and failures, coverage, and the verdict");
}

}  // namespace moesim::py
