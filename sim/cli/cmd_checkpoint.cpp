// `moesim checkpoint`: make a checkpoint with the golden model alone (--save), or read one and
// restore it into an engine (--load), timing each step (docs/checkpoints.md, "Making and
// timing one checkpoint").

#include <filesystem>
#include <iostream>
#include <memory>

#include "cli_output.hpp"
#include "command.hpp"
#include "cosim_windows.hpp"
#include "moesim/cosim/engines.hpp"
#include "moesim/isa/checkpoint.hpp"
#include "moesim/isa/input_file.hpp"
#include "output_flags.hpp"
#include "path_guard.hpp"
#include "program_flags.hpp"

namespace moesim::cli {

namespace fs = std::filesystem;

namespace {

struct CheckpointFlags {
  ProgramFlags program;
  std::string save, load, restore = "golden";
  uint64_t at_retire = 0;
  CLI::Option* at_opt = nullptr;
};

void print_state(const isa::ArchState& s, const isa::MemoryImage& initial) {
  std::cout << "  retire " << s.retired << ", cycle " << s.cycle << ", pc " << s.pc << ", "
            << s.loops.size() << " active loops\n"
            << "  pages stored (changed from the initial image, of all pages):";
  const auto pages = isa::stored_pages(s, initial);
  for (isa::Space sp : isa::kAllSpaces) {
    const isa::StoredPages& p = pages[static_cast<size_t>(sp)];
    std::cout << (sp == isa::kAllSpaces.front() ? " " : ", ") << isa::space_name(sp) << " "
              << p.stored << " of " << p.total;
  }
  std::cout << '\n';
}

int cmd_checkpoint(const isa::Spec& spec, const CheckpointFlags& f) {
  // Every file it names first: an output over an input is named as that.
  PathGuard guard;
  check_outputs(OutputFlags{}, f.program, guard);  // --asm-out, and the program's inputs
  check_output_path("--save", f.save);
  guard.output("--save " + f.save, f.save);
  guard.input("--load", f.load);
  guard.check();
  if (f.save.empty() == f.load.empty())
    throw UsageError("moesim checkpoint: give one of --save FILE and --load FILE");
  if (!f.load.empty() && f.at_opt && *f.at_opt)
    throw UsageError("--at-retire applies to --save (a loaded checkpoint is where it was made)");
  if (!f.save.empty() && fs::exists(f.save))
    throw UsageError("--save " + f.save + ": exists (a checkpoint is never written over a file)");
  // A regular file (no such file, a directory, a device: named as what it is), before the
  // program is built.
  if (!f.load.empty())
    bad_input_of<UsageError>("--load ", [&] { isa::check_input_file(f.load, UINT64_MAX); });
  const auto t0 = Clock::now();
  Workload w = make_workload(spec, f.program);
  const isa::MachinePreset& preset = *w.preset;
  const isa::CheckpointId id = isa::checkpoint_id(spec, preset, w.program, w.image());
  const double build_s = seconds_since(t0);
  std::cout << "moesim checkpoint: " << describe(w, f.program) << " (program built in " << build_s
            << " s)\n";

  if (!f.save.empty()) {
    auto t = Clock::now();
    auto g = cosim::make_golden_engine(spec, preset);
    if (w.budget) g->set_instruction_budget(*w.budget);
    g->load(w.program, w.image());
    const double make_s = seconds_since(t);
    t = Clock::now();
    const uint64_t a = f.at_retire;
    cosim::QueueWatch queue(spec, preset);
    run_to_boundary(*g, queue, a, "--at-retire");
    const double run_s = seconds_since(t);
    t = Clock::now();
    const isa::ArchState s = g->save();
    const double save_s = seconds_since(t);
    t = Clock::now();
    bad_input_of("--save " + f.save + ": ", [&] {
      isa::write_checkpoint({id, s}, w.image(), f.save);
    });
    const double write_s = seconds_since(t);
    std::cout << "saved " << f.save << ": " << fs::file_size(f.save) << " bytes\n";
    print_state(s, w.image());
    std::cout << "  golden model made and loaded " << make_s << " s, ran to retire " << a << " "
              << run_s << " s, save() " << save_s << " s, file written " << write_s
              << " s; save() + write " << save_s + write_s << " s\n";
    return kExitEqual;
  }

  if (f.restore != "golden") check_rtl_preset(spec, preset.name);
  auto t = Clock::now();
  isa::Checkpoint c;
  try {
    c = isa::read_checkpoint(f.load, w.image(), &id, &preset, &w.program);
  } catch (const isa::CheckpointError& e) {
    throw UsageError("--load " + std::string(e.what()));
  }
  const double read_s = seconds_since(t);
  std::cout << "read and verified " << f.load << ": " << fs::file_size(f.load) << " bytes, "
            << read_s << " s\n";
  print_state(c.state, w.image());
  for (const char* name : {"golden", "rtl"}) {
    if (f.restore != name && f.restore != "both") continue;
    t = Clock::now();
    std::unique_ptr<isa::Engine> e = std::string(name) == "golden"
                                         ? cosim::make_golden_engine(spec, preset)
                                         : cosim::make_rtl_engine(spec, preset);
    const double make_s = seconds_since(t);
    t = Clock::now();
    e->restore(w.program, c.state);
    const double restore_s = seconds_since(t);
    std::cout << "  " << name << ": engine made " << make_s << " s, restore() " << restore_s
              << " s; read + restore " << read_s + restore_s << " s\n";
    if (e->retired() != c.state.retired)
      throw std::logic_error(std::string(name) + " restored to retire " +
                             std::to_string(e->retired()) + ", not " +
                             std::to_string(c.state.retired));
  }
  return kExitEqual;
}

}  // namespace

Subcommand add_checkpoint(CLI::App& app) {
  auto flags = std::make_shared<CheckpointFlags>();
  CheckpointFlags& cf = *flags;
  CLI::App* sub = app.add_subcommand(
      "checkpoint",
      "make a checkpoint with the golden model alone (--save), or read one and restore it into "
      "an engine (--load); prints its size and the time of each step (docs/checkpoints.md)");
  add_program_flags(sub, cf.program);
  add_dma_queue_flag(sub, cf.program);
  writes(sub->add_option("--save", cf.save,
                         "run the golden model to --at-retire and write its state to FILE (new)"));
  cf.at_opt = sub->add_option("--at-retire", cf.at_retire,
                              "with --save: the instruction boundary (retires so far)")
                  ->capture_default_str()
                  ->check(kNotNegative);
  reads(sub->add_option("--load", cf.load,
                        "read FILE (held to this run's program, image, preset and YAML) and "
                        "restore it into --restore"));
  sub->add_option("--restore", cf.restore, "with --load: the engine(s) to restore into")
      ->capture_default_str()
      ->check(CLI::IsMember({"golden", "rtl", "both"}));
  return {sub, [flags](const isa::Spec& spec) { return cmd_checkpoint(spec, *flags); }};
}

}  // namespace moesim::cli
