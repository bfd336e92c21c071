// `moesim` command line (CLI11). libsystemc.so owns main() and calls sc_main.
//
// moesim cosim [program flags] [outputs] [--history N] [--flip-bit E:S:B:b] [--quiet]
// moesim run --engine golden|rtl [program flags] [outputs] [--dump DIR] [--quiet]
// Outputs: --report F.json|F.yaml --html F --vcd F (+ .gtkw, .stages.filter) --trace-json F
//          --trace-rtl F.fst
// moesim conformance [--engine golden|rtl|both] [--filter RE] [--junit F] [--suite DIR]
// moesim asm IN.asm [-o OUT.hex]   (writes OUT.stages beside)
// moesim disasm IN.hex             (reads IN.stages beside if present)
// moesim campaign SPEC.yaml --executor local|slurm [--jobs J] --out DIR [--resume]
// moesim coverage DIR... [--waivers F] [--json F] [--html F] [--min-line P ...] (RTL coverage)
// cosim, run, conformance, random: --rtl-coverage DIR (a build with MOESIM_RTL_COVERAGE)
// Program flags: --model NAME|config.json --tokens --hidden --intermediate --shared
// --shared-intermediate --topk-policy --seed --asm-out (the generated MoE layer) or --program FILE
// (a .hex or assembly) with --image F.yaml, --image-bin SPACE=F[@OFF], --random-image SEED
// (docs/images.md); --machine. --trace-log F, --progress auto|always|never.
//
// moesim help-files (hidden): the "Input files" and "Output files" flags of every command, as
// JSON for scripts (command.hpp; the bad-input corpus generates its output guard cases from it).
//
// Exit codes: 0 equal / success, 1 mismatch or failed run, 2 bad input or usage.
#include <CLI/CLI.hpp>
#include <cstdlib>
#include <iostream>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <vector>

#include "cli_output.hpp"
#include "command.hpp"
#include "moesim/isa/spec.hpp"
#include "moesim/workload/presets.hpp"

using namespace moesim;
using namespace moesim::cli;

namespace moesim::cli {

namespace {
std::vector<std::string> g_command_line;
}

const std::vector<std::string>& command_line() { return g_command_line; }

void set_command_line(int argc, char** argv) {
  g_command_line.assign(argv, argv + argc);
  if (!g_command_line.empty()) g_command_line[0] = "moesim";
}

}  // namespace moesim::cli

namespace {

/// The flags of `o`'s command that name files (command.hpp), per command and its subcommands:
/// [{"command": "route-trace gen", "reads": [...], "writes": [...]}], each flag {"flag", "names",
/// "type", "kind": "file"|"dir", "positional"}. "flag" is the name the command's messages use
/// (the short name when there is one, a positional argument's name).
void list_file_flags(const CLI::App& app, const std::string& prefix, nlohmann::json& out) {
  for (const CLI::App* sub : app.get_subcommands({})) {
    if (sub->get_group().empty()) continue;  // hidden (help-files itself)
    const std::string name = prefix + sub->get_name();
    nlohmann::json reads = nlohmann::json::array(), writes = nlohmann::json::array();
    for (const CLI::Option* o : sub->get_options()) {
      const std::string& group = o->get_group();
      if (group != kInputFiles && group != kOutputFiles) continue;
      std::vector<std::string> names;
      for (const std::string& n : o->get_snames()) names.push_back("-" + n);
      for (const std::string& n : o->get_lnames()) names.push_back("--" + n);
      const bool positional = names.empty();
      if (positional) names.push_back(o->get_name(true));
      const std::string type = o->get_type_name();
      nlohmann::json f = {{"flag", names.front()},
                          {"names", names},
                          {"type", type},
                          {"kind", type.find("FILE") != std::string::npos ? "file" : "dir"},
                          {"positional", positional}};
      (group == kInputFiles ? reads : writes).push_back(f);
    }
    out.push_back({{"command", name}, {"reads", reads}, {"writes", writes}});
    list_file_flags(*sub, name + " ", out);
  }
}

int cli_main(int argc, char** argv) {
  set_command_line(argc, argv);
  CLI::App app{"moesim: golden model vs RTL co-simulation of a PLENA-family MoE accelerator"};
  app.require_subcommand(1);
  app.footer("Exit codes: 0 equal/success, 1 mismatch or failed run, 2 bad input or usage.");

  const std::vector<Subcommand> commands = {
      add_cosim(app),  add_run(app),         add_bench(app),      add_conformance(app),
      add_asm(app),    add_disasm(app),      add_random(app),     add_campaign(app),
      add_deploy(app), add_route_trace(app), add_checkpoint(app), add_coverage(app)};
  CLI::App* help_files = app.add_subcommand(
      "help-files", "print the flags that name files read and written, per command, as JSON");
  help_files->group("");

  if (argc > 1 && argv[1][0] != '-') {
    try {
      app.get_subcommand(std::string(argv[1]));
    } catch (const CLI::OptionNotFound&) {
      std::cerr << "moesim: error: unknown command '" << printable(argv[1])
                << "' (commands: cosim, run, bench, conformance, asm, disasm, random, campaign, "
                   "deploy, route-trace, checkpoint, coverage; "
                   "see moesim "
                   "--help)\n";
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
    std::cerr << "moesim: error: " << printable(e.what()) << " (see moesim --help)\n";
    return kExitUsage;
  }

  // CLI11 takes an empty value (`--seed ''`, `--report ''`, `-o ''`) as if the flag were absent
  // or 0: refuse it instead of running with a default the user did not ask for.
  for (const Subcommand& c : commands) {
    if (!*c.app) continue;
    for (const CLI::Option* o : c.app->get_options())
      for (const std::string& v : o->results())
        if (v.empty()) {
          std::cerr << "moesim: error: " << o->get_name() << ": empty value\n";
          return kExitUsage;
        }
  }
  if (*help_files) {
    nlohmann::json out = nlohmann::json::array();
    list_file_flags(app, "", out);
    std::cout << out.dump(1) << '\n';
    return kExitEqual;
  }
  try {
    const isa::Spec& spec = isa::Spec::builtin();
    for (const Subcommand& c : commands)
      if (*c.app) return c.run(spec);
    throw std::logic_error("no subcommand parsed");
  } catch (const workload::ModelError& e) {
    // A model is named on the command line by --model (campaign specs and deployments files
    // name theirs at their FILE:LINE:COL and key instead).
    std::cerr << "moesim: error: --model " << printable(e.what()) << '\n';
    return kExitUsage;
  } catch (const UsageError& e) {
    std::cerr << "moesim: error: " << printable(e.what()) << '\n';
    return kExitUsage;
  } catch (const isa::SpecError& e) {
    std::cerr << "moesim: error: " << printable(e.what()) << '\n';
    return kExitUsage;
  } catch (const std::exception& e) {
    std::cerr << "moesim: failed: " << printable(e.what(), true) << '\n';
    return kExitMismatch;
  }
}

}  // namespace

// SystemC declares sc_main with C linkage (sc_externs.h); this file does not include <systemc>.
extern "C" int sc_main(int argc, char** argv) {
  setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 0);
  return cli_main(argc, argv);
}
