// `moesim random`: constrained-random programs (docs/random.md). Writes them as conformance-style
// cases (.asm + .yaml without expectations), or co-simulates them golden vs RTL with functional
// coverage, and shrinks a failing one to a minimal reproducer.

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <sstream>

#include "cli_output.hpp"
#include "command.hpp"
#include "moesim/cosim/cosim.hpp"
#include "moesim/cosim/engines.hpp"
#include "moesim/cosim/timeline.hpp"
#include "moesim/isa/assembler.hpp"
#include "moesim/isa/encoding.hpp"
#include "moesim/isa/file_output.hpp"
#include "moesim/random/random_program.hpp"
#include "moesim/report/report.hpp"
#include "path_guard.hpp"
#include "program_flags.hpp"
#include "random_run.hpp"
#include "rtl_coverage_flag.hpp"

namespace moesim::cli {

namespace fs = std::filesystem;

namespace {

/// A test-only fault for showing the shrinker at work (--plant-divergence MNEMONIC): the wrapped
/// engine reports every register write of MNEMONIC with bit 0 flipped, a divergence that exists
/// in no model.
class PlantedEngine : public isa::Engine {
 public:
  PlantedEngine(std::unique_ptr<isa::Engine> e, const isa::Spec& spec, uint8_t opcode)
      : e_(std::move(e)), opf_(spec.field("opcode")), opcode_(opcode) {}
  std::string name() const override { return e_->name(); }
  void load(const isa::Program& p, const isa::MemoryImage& i) override { e_->load(p, i); }
  void set_instruction_budget(uint64_t b) override { e_->set_instruction_budget(b); }
  void set_dma_queue(uint64_t q) override { e_->set_dma_queue(q); }
  void set_hbm_jitter(uint64_t s) override { e_->set_hbm_jitter(s); }
  bool step(isa::RetireRecord& out) override {
    if (!e_->step(out)) return false;
    if (!out.trap && isa::extract(out.word, opf_) == opcode_)
      for (isa::RegWrite& w : out.regs) w.value ^= 1;
    return true;
  }
  bool halted() const override { return e_->halted(); }
  uint64_t cycles() const override { return e_->cycles(); }
  uint64_t retired() const override { return e_->retired(); }
  uint64_t hbm_bytes_read() const override { return e_->hbm_bytes_read(); }
  uint64_t hbm_bytes_written() const override { return e_->hbm_bytes_written(); }
  isa::ArchRegs regs() const override { return e_->regs(); }
  std::vector<uint8_t> read(isa::Space s, uint64_t b, uint64_t c) const override {
    return e_->read(s, b, c);
  }
  uint64_t size(isa::Space s) const override { return e_->size(s); }
  std::vector<isa::UnitSpan> take_unit_spans() override { return e_->take_unit_spans(); }
  isa::ArchState save() const override { return e_->save(); }
  void restore(const isa::Program& p, const isa::ArchState& s) override { e_->restore(p, s); }

 private:
  std::unique_ptr<isa::Engine> e_;
  isa::Field opf_;
  uint8_t opcode_;
};

/// Records what engine a executed (pc and trap) for the coverage.
class ExecSink : public cosim::TimelineSink {
 public:
  std::vector<rnd::Executed> exec;
  void instruction(size_t engine, const isa::RetireRecord& r, const cosim::WorkItem&) override {
    if (engine != 0) return;
    rnd::Executed e;
    e.pc = r.pc;
    if (r.trap) e.trap = r.trap->cause;
    exec.push_back(e);
  }
  void unit_busy(size_t, const isa::UnitSpan&) override {}
  void mismatch(uint64_t) override {}
  void finish(uint64_t) override {}
};

struct RandomFlags {
  uint64_t seed = 1;
  uint64_t count = 1;
  std::string machine = "default";
  std::string hbm_jitter;  ///< --hbm-jitter SEED ("": none)
  std::string mix;
  std::string out;
  bool cosim = false;
  bool shrink = false;
  std::string coverage;
  std::string report;
  std::string plant;
  bool quiet = false;
  uint64_t max_instructions = 200000;
  uint64_t max_shrink = 1;
};

struct Engines {
  std::unique_ptr<isa::Engine> golden, rtl;
};

struct RunOutcome {
  cosim::CosimResult res;
  std::vector<rnd::Executed> exec;
  bool equal = false;
};

RunOutcome run_one(const isa::Spec& spec, const isa::MachinePreset& preset, Engines& e,
                   const rnd::RandomProgram& p, const rnd::Rendered& r, uint64_t max_instr) {
  const uint64_t budget =
      p.budget ? *p.budget : static_cast<uint64_t>(preset.get("INSTRUCTION_BUDGET"));
  e.golden->set_instruction_budget(budget);
  e.rtl->set_instruction_budget(budget);
  e.golden->load(r.program, r.image);
  e.rtl->load(r.program, r.image);
  ExecSink sink;
  cosim::CosimOptions o;
  o.history = 4;
  o.sinks = {&sink};
  o.max_instructions = max_instr;
  RunOutcome out;
  out.res = cosim::run_cosim(spec, *e.golden, *e.rtl, o);
  out.exec = std::move(sink.exec);
  out.equal = out.res.equal() && !out.res.limit_reached;
  return out;
}

/// The `moesim cosim` command that co-simulates random program `seed` alone, with the knobs
/// that make the same program (--mix) and, for a run stopped there, --max-instructions.
std::string rerun_command(const RandomFlags& f, const isa::MachinePreset& preset, uint64_t seed,
                          bool with_limit) {
  const int64_t jitter = preset.get("HBM_JITTER_SEED");
  return "moesim cosim --random-seed " + std::to_string(seed) + " --machine " + preset.name +
         (jitter == 0 ? "" : " --hbm-jitter " + std::to_string(jitter)) +
         (f.mix.empty() ? "" : " --mix " + f.mix) +
         (with_limit ? " --max-instructions " + std::to_string(f.max_instructions) : "");
}

std::string divergence_line(const isa::Spec& spec, const cosim::CosimResult& res) {
  std::ostringstream s;
  if (res.limit_reached) return "did not end within --max-instructions";
  if (res.divergence) {
    const auto& d = *res.divergence;
    const isa::RetireRecord& r = d.records[0] ? *d.records[0] : *d.records[1];
    s << "first divergence at retire #" << d.index << " pc " << r.pc << " "
      << isa::disassemble(spec, r.word) << " (";
    for (size_t i = 0; i < d.fields.size(); ++i) s << (i ? ", " : "") << d.fields[i];
    s << ")";
    return s.str();
  }
  return report::cosim_verdict(res) + " at the end (registers, memories, cycles or profiles)";
}

void write_case(const fs::path& dir, const std::string& stem, const isa::MachinePreset& preset,
                const rnd::RandomProgram& p, const rnd::Rendered& r, const std::string& comment) {
  bad_input_of("-o ", [&] {
    isa::write_file(dir / (stem + ".asm"), r.asm_text);
    isa::write_file(dir / (stem + ".yaml"), rnd::case_yaml(preset, p, comment));
  });
}

int cmd_random(const isa::Spec& spec, RandomFlags f, const std::string& rtl_coverage) {
  const auto t0 = Clock::now();
  const isa::MachinePreset& preset =
      with_hbm_jitter(spec, machine_preset(spec, f.machine), f.hbm_jitter);
  const rnd::Mix mix = f.mix.empty() ? rnd::Mix{} : rnd::load_mix(spec, f.mix);
  if (f.shrink || !f.coverage.empty() || !f.report.empty() || !f.plant.empty()) f.cosim = true;
  if (!f.cosim && f.out.empty())
    throw UsageError("give -o DIR to write the programs, or --cosim to run them");
  if (f.shrink && f.out.empty()) throw UsageError("--shrink: give -o DIR for the reproducers");
  if (f.count == 0) throw UsageError("--count: must be at least 1");
  if (f.seed > UINT64_MAX - (f.count - 1))
    throw UsageError("--seed " + std::to_string(f.seed) + " --count " + std::to_string(f.count) +
                     ": the seeds run past 2^64 - 1");
  check_output_path("--coverage", f.coverage);
  check_output_path("--report", f.report);
  if (!f.report.empty() && fs::path(f.report).extension() != ".json")
    throw UsageError("--report " + f.report + ": the report is JSON; name it .json");
  {
    PathGuard guard;
    guard.input("--mix", f.mix);
    guard.output_dir("-o " + f.out, f.out);
    guard.output("--coverage " + f.coverage, f.coverage);
    guard.output("--report " + f.report, f.report);
    guard_rtl_coverage(rtl_coverage, guard);
    guard.check();
  }
  if (!f.out.empty() && fs::exists(f.out) && !fs::is_directory(f.out))
    throw UsageError("-o " + f.out + ": not a directory");
  check_rtl_coverage_build(rtl_coverage);
  if (!f.out.empty()) {
    std::error_code ec;
    fs::create_directories(f.out, ec);
    if (ec) throw UsageError("-o " + f.out + ": " + ec.message());
  }
  const bool tty = isatty(STDERR_FILENO) != 0;

  if (!f.cosim) {
    uint64_t instrs = 0;
    for (uint64_t i = 0; i < f.count; ++i) {
      const uint64_t s = f.seed + i;
      const rnd::RandomProgram p = rnd::generate(spec, preset, s, mix);
      const rnd::Rendered r = rnd::render(spec, preset, p);
      instrs += r.program.size();
      write_case(f.out, "random_" + std::to_string(s), preset, p, r,
                 "moesim random --seed " + std::to_string(s) + " --machine " + preset.name +
                     (f.mix.empty() ? "" : " --mix " + f.mix) +
                     "\nInitial memories only: a random program has no expectation; run it with "
                     "moesim cosim --random-seed " +
                     std::to_string(s) +
                     (p.intended_trap.empty() ? "" : "\nends in trap " + p.intended_trap));
    }
    std::cout << "moesim random: wrote " << count_of(f.count, "program") << " (seeds " << f.seed
              << ".." << f.seed + f.count - 1 << ", " << instrs << " instructions) to " << f.out
              << '\n';
    return kExitEqual;
  }

  check_rtl_preset(spec, preset.name);
  std::optional<uint8_t> plant_op;
  if (!f.plant.empty()) {
    const isa::InstrSpec* I = spec.by_mnemonic(f.plant);
    if (!I) throw UsageError("--plant-divergence " + f.plant + ": not an instruction of isa.yaml");
    plant_op = I->opcode;
  }
  Engines e;
  e.golden = cosim::make_golden_engine(spec, preset);
  e.rtl = cosim::make_rtl_engine(spec, preset);
  if (plant_op) e.rtl = std::make_unique<PlantedEngine>(std::move(e.rtl), spec, *plant_op);

  rnd::Coverage cov(spec, preset);
  uint64_t retired = 0, cycles = 0, rtl_cycles = 0, mismatches = 0, stopped = 0, off_intent = 0,
           shrunk = 0;
  std::map<std::string, uint64_t> traps;
  std::vector<uint64_t> failing;
  const uint64_t step = std::max<uint64_t>(1, f.count / 10);
  auto last_line = Clock::now();
  for (uint64_t i = 0; i < f.count; ++i) {
    const uint64_t s = f.seed + i;
    const rnd::RandomProgram p = rnd::generate(spec, preset, s, mix);
    const rnd::Rendered r = rnd::render(spec, preset, p);
    RunOutcome o = run_one(spec, preset, e, p, r, f.max_instructions);
    retired += o.res.retired[0];
    cycles += o.res.total_cycles[0];
    rtl_cycles += o.res.total_cycles[1];
    std::string ended = "halt";
    if (o.res.trap) {
      const isa::TrapSpec* ts = spec.trap_by_code(o.res.trap->cause);
      ended = ts ? ts->name : std::to_string(o.res.trap->cause);
    }
    if (o.equal) {
      ++traps[ended];
      cov.add(r, o.exec);
      if (ended != (p.intended_trap.empty() ? "halt" : p.intended_trap)) {
        ++off_intent;
        if (!f.quiet && off_intent <= 5)
          std::cout << "note: seed " << s << " was built to end in "
                    << (p.intended_trap.empty() ? "halt" : p.intended_trap) << " and ended in "
                    << ended << " (both engines agree)\n";
      }
    } else if (o.res.limit_reached && !o.res.divergence) {
      // The engines agreed up to --max-instructions: no divergence, but not a finished run
      // either (as `moesim cosim` says STOPPED).
      ++stopped;
      std::cout << "STOPPED seed " << s << " (" << rerun_command(f, preset, s, true)
                << "): did not end within --max-instructions " << f.max_instructions
                << "; the engines agree up to there\n";
    } else {
      ++mismatches;
      failing.push_back(s);
      std::cout << "MISMATCH seed " << s << " (" << rerun_command(f, preset, s, o.res.limit_reached)
                << "): " << divergence_line(spec, o.res) << '\n';
      if (!f.quiet) report::print_cosim_details(std::cout, spec, o.res);
      if (!f.out.empty())
        write_case(f.out, "random_" + std::to_string(s), preset, p, r,
                   "moesim random --seed " + std::to_string(s) + " --machine " + preset.name +
                       ": golden and RTL diverge (" + divergence_line(spec, o.res) + ")");
      if (f.shrink && shrunk < f.max_shrink) {
        ++shrunk;
        rnd::ShrinkStats st;
        const auto fails = [&](const rnd::RandomProgram& c) {
          try {
            const rnd::Rendered rc = rnd::render(spec, preset, c);
            return !run_one(spec, preset, e, c, rc, f.max_instructions).equal;
          } catch (const std::exception&) {
            return false;  // a candidate that does not assemble or load is no reproducer
          }
        };
        const rnd::RandomProgram small = rnd::shrink(p, fails, &st);
        const rnd::Rendered rs = rnd::render(spec, preset, small);
        const RunOutcome os = run_one(spec, preset, e, small, rs, f.max_instructions);
        write_case(f.out, "shrunk_" + std::to_string(s), preset, small, rs,
                   "Reproducer of moesim random --seed " + std::to_string(s) + " --machine " +
                       preset.name + (f.plant.empty() ? "" : " --plant-divergence " + f.plant) +
                       ", shrunk from " + std::to_string(rnd::static_size(p)) + " to " +
                       std::to_string(rnd::static_size(small)) +
                       " instructions.\nGolden and RTL diverge: " + divergence_line(spec, os.res) +
                       "\nNo expectation: after the fix, add `expect:` written from isa.yaml "
                       "(docs/random.md, From reproducer to suite case).");
        std::cout << "shrunk seed " << s << ": " << rnd::static_size(p) << " -> "
                  << rnd::static_size(small) << " instructions, " << p.regions.size() << " -> "
                  << count_of(small.regions.size(), "memory region") << " ("
                  << count_of(st.candidates, "candidate") << " run, " << st.accepted << " kept): "
                  << (fs::path(f.out) / ("shrunk_" + std::to_string(s) + ".asm")).string() << "\n  "
                  << divergence_line(spec, os.res) << '\n';
      }
    }
    // Every tenth of the run (on a terminal, or in runs of 100 programs or more), and at least
    // every 10 s (a slow run in a CI log).
    if (!f.quiet &&
        (((i + 1) % step == 0 && (tty || f.count >= 100)) || seconds_since(last_line) >= 10.0)) {
      last_line = Clock::now();
      std::cout << "[moesim random] " << i + 1 << "/" << f.count << " programs, " << retired
                << " instructions, " << count_of(mismatches, "mismatch", "mismatches") << ", "
                << seconds_since(t0) << " s" << std::endl;
    }
  }
  const double wall = seconds_since(t0);
  std::cout << "moesim random: seeds " << f.seed << ".." << f.seed + f.count - 1
            << " machine=" << preset.name
            << (preset.get("HBM_JITTER_SEED") == 0
                    ? ""
                    : " hbm-jitter=" + std::to_string(preset.get("HBM_JITTER_SEED")))
            << (f.plant.empty() ? "" : " (planted divergence " + f.plant + ")") << ": "
            << count_of(f.count, "program") << ", " << retired << " instructions retired, "
            << cycles << " cycles, " << count_of(mismatches, "mismatch", "mismatches") << ", "
            << wall << " s\n";
  if (stopped != 0)
    std::cout << "  stopped at --max-instructions " << f.max_instructions
              << " (engines agreeing): " << stopped << '\n';
  std::cout << "  ended in:";
  for (const auto& [k, v] : traps) std::cout << ' ' << k << ' ' << v;
  std::cout << "\n  ended otherwise than the generator intended (engines agreeing): " << off_intent
            << '\n';
  std::cout << "coverage (items hit at least once / items):";
  for (const auto& [g, ct] : cov.summary())
    std::cout << ' ' << g << ' ' << ct.first << '/' << ct.second;
  std::cout << '\n';
  if (!f.coverage.empty() || !f.report.empty()) {
    nlohmann::json j;
    j["tool"] = "moesim random";
    // What a campaign reads from a run's report (docs/campaigns.md, Random programs).
    j["verdict"] = mismatches != 0 ? "MISMATCH" : stopped != 0 ? "STOPPED" : "EQUAL";
    j["instructions"] = retired;
    j["total_cycles"] = {{"golden", cycles}, {"rtl", rtl_cycles}};
    j["machine"] = preset.name;
    j["hbm_jitter"] = preset.get("HBM_JITTER_SEED");
    j["seeds"] = {f.seed, f.seed + f.count - 1};
    j["mix"] = f.mix.empty() ? nlohmann::json(nullptr) : nlohmann::json(f.mix);
    j["programs"] = f.count;
    j["instructions_retired"] = retired;
    j["cycles"] = cycles;
    j["mismatches"] = mismatches;
    j["stopped"] = stopped;
    j["failing_seeds"] = failing;
    j["ended_in"] = traps;
    j["wall_time_s"] = wall;
    nlohmann::json groups = nlohmann::json::object();
    for (const auto& [g, ct] : cov.summary())
      groups[g] = {{"covered", ct.first}, {"items", ct.second}};
    j["groups"] = groups;
    nlohmann::json items = nlohmann::json::array();
    nlohmann::json missing = nlohmann::json::array();
    for (const auto& it : cov.items()) {
      items.push_back({{"group", it.group}, {"name", it.name}, {"hits", it.hits}});
      if (it.hits == 0) missing.push_back(it.group + ": " + it.name);
    }
    j["items"] = items;
    j["missing"] = missing;
    if (!f.coverage.empty())
      bad_input_of("--coverage ", [&] { isa::write_file(f.coverage, j.dump(2) + "\n"); });
    if (!f.report.empty())
      bad_input_of("--report ", [&] { isa::write_file(f.report, j.dump(2) + "\n"); });
  }
  if (mismatches != 0) return kExitMismatch;
  if (stopped != 0)
    throw UsageError(std::to_string(stopped) +
                     " program(s) did not end within --max-instructions " +
                     std::to_string(f.max_instructions) + " (raise it, or 0 for no limit)");
  return kExitEqual;
}

}  // namespace

Subcommand add_random(CLI::App& app) {
  auto flags = std::make_shared<RandomFlags>();
  RandomFlags& f = *flags;
  CLI::App* sub = app.add_subcommand(
      "random", "constrained-random programs: write them, or co-simulate them with coverage");
  sub->add_option("--seed", f.seed, "seed of the first program (program i uses seed + i)")
      ->capture_default_str()
      ->check(kNotNegative);
  sub->add_option("--count", f.count, "programs")->capture_default_str()->check(kNotNegative);
  sub->add_option("--machine", f.machine, "machine preset of machine.yaml")->capture_default_str();
  sub->add_option("--hbm-jitter", f.hbm_jitter,
                  "co-simulate every program with this HBM latency jitter seed (HBM_JITTER_SEED; "
                  "0 or none: no jitter; docs/random.md)");
  reads(sub->add_option("--mix", f.mix, "generator knobs (docs/random.md, Mix file)"));
  writes(sub->add_option("-o,--out", f.out,
                         "directory for the programs (random_SEED.asm + .yaml); with --cosim "
                         "only the failing ones and their reproducers"),
         "DIR");
  sub->add_flag("--cosim", f.cosim,
                "co-simulate each program golden vs RTL (exit 1 on a mismatch)");
  sub->add_flag("--shrink", f.shrink,
                "shrink failing programs (the first --max-shrink) to reproducers "
                "DIR/shrunk_SEED.asm + .yaml (needs -o)");
  sub->add_option("--max-shrink", f.max_shrink, "shrink at most N failing programs")
      ->capture_default_str()
      ->check(kNotNegative);
  writes(sub->add_option("--coverage", f.coverage, "write the functional coverage as JSON"));
  writes(sub->add_option("--report", f.report,
                         "write the coverage JSON with the verdict, instructions and total_cycles "
                         "(what a campaign reads; docs/campaigns.md)"));
  sub->add_option("--plant-divergence", f.plant,
                  "test the shrinker: the RTL engine reports every register write of MNEMONIC "
                  "with bit 0 flipped");
  sub->add_option(
         "--max-instructions", f.max_instructions,
         "a program that has not ended after N instructions is STOPPED (exit 2; 0: no limit)")
      ->capture_default_str()
      ->check(kNotNegative);
  sub->add_flag("--quiet", f.quiet, "print only mismatches and the summary");
  auto rtl_cov = std::make_shared<std::string>();
  add_rtl_coverage_flag(sub, *rtl_cov);
  return {sub, [flags, rtl_cov](const isa::Spec& spec) {
            return with_rtl_coverage(*rtl_cov, [&] { return cmd_random(spec, *flags, *rtl_cov); });
          }};
}

/// The random program of `seed` (cosim/run --random-seed).
void random_workload(const isa::Spec& spec, const isa::MachinePreset& preset, uint64_t seed,
                     const std::string& mix_file, isa::Program& program, isa::MemoryImage& image,
                     std::optional<uint64_t>& budget, std::string& name) {
  const rnd::Mix mix = mix_file.empty() ? rnd::Mix{} : rnd::load_mix(spec, mix_file);
  const rnd::RandomProgram p = rnd::generate(spec, preset, seed, mix);
  rnd::Rendered r = rnd::render(spec, preset, p);
  program = std::move(r.program);
  image = std::move(r.image);
  budget = p.budget;
  name = "random seed=" + std::to_string(seed) +
         (p.intended_trap.empty() ? "" : " (built to end in " + p.intended_trap + ")");
}

}  // namespace moesim::cli
