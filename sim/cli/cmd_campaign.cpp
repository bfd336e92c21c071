// moesim campaign SPEC.yaml --executor local|slurm [--jobs J] --out DIR [--resume]: many
// co-simulations as one regression (campaign/, docs/campaigns.md). Each run is a `moesim cosim`
// child process of this executable.
#include <unistd.h>

#include <filesystem>
#include <iostream>

#include "cli_output.hpp"
#include "command.hpp"
#include "cosim_windows.hpp"
#include "executor_flags.hpp"
#include "moesim/campaign/campaign.hpp"
#include "moesim/cosim/fault.hpp"
#include "moesim/isa/geometry.hpp"
#include "path_guard.hpp"

namespace moesim::cli {

namespace fs = std::filesystem;

namespace {

struct CampaignFlags {
  std::string spec, out, moesim;
  bool resume = false;
  ExecutorFlags exec;
};

int cmd_campaign(const isa::Spec& spec, CampaignFlags& f, CLI::App& root) {
  check_executor_flags(f.exec);
  {  // the campaign folder is never made over the spec or the executable the runs call
    PathGuard guard;
    guard.input("", f.spec);
    guard.input("--moesim", f.moesim);
    guard.output_dir("--out " + f.out, f.out);
    guard.check();
  }
  campaign::SpecOptions so;
  try {
    so.windows_supported =
        root.get_subcommand("cosim")->get_option_no_throw("--windows") != nullptr;
  } catch (const CLI::OptionNotFound&) {
    so.windows_supported = false;
  }
  so.max_windows = kMaxWindows;
  // A flip_bit the cosim child would refuse (syntax, a byte outside the space) is refused here.
  so.check_flip_bit = [&spec](const std::string& flip, const std::string& machine) {
    try {
      const cosim::BitFlip b = cosim::parse_bit_flip(flip);
      const uint64_t bytes = isa::space_geometry(b.space, machine_preset(spec, machine)).bytes();
      if (b.byte >= bytes)
        return "byte " + std::to_string(b.byte) + " is outside " + isa::space_name(b.space) + " (" +
               std::to_string(bytes) + " bytes)";
    } catch (const UsageError& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  // The executable the runs call: checked before any run is made.
  if (!f.moesim.empty()) {
    std::error_code ec;
    const auto st = fs::status(f.moesim, ec);
    if (!fs::exists(st)) throw UsageError("--moesim " + f.moesim + ": no such file");
    if (!fs::is_regular_file(st))
      throw UsageError("--moesim " + f.moesim + ": not a regular file (name the executable)");
    if (::access(f.moesim.c_str(), X_OK) != 0)
      throw UsageError("--moesim " + f.moesim + ": not executable");
  }
  const std::vector<campaign::Run> runs = campaign::load_spec(f.spec, spec, so);

  campaign::CampaignOptions o;
  o.spec_path = f.spec;
  o.out = f.out;
  o.resume = f.resume;
  o.moesim = f.moesim.empty() ? fs::read_symlink("/proc/self/exe").string()
                              : fs::absolute(f.moesim).string();
  o.executor_words = f.exec.executor + " --jobs " + std::to_string(f.exec.jobs);
  const std::unique_ptr<campaign::Executor> ex = make_executor(f.exec, f.out, "moesim-campaign");
  return campaign::run_campaign(o, runs, *ex, std::cout);
}

}  // namespace

Subcommand add_campaign(CLI::App& app) {
  auto flags = std::make_shared<CampaignFlags>();
  CampaignFlags& f = *flags;
  CLI::App* sub = app.add_subcommand(
      "campaign",
      "run a campaign of co-simulations (a YAML spec of cross products; docs/campaigns.md)");
  reads(sub->add_option("spec", f.spec, "the campaign spec (YAML)")->required());
  writes(sub->add_option("--out", f.out, "campaign folder: summary.json, junit.xml, runs/<run>/")
             ->required(),
         "DIR");
  add_executor_flags(sub, f.exec,
                     "runs at a time (local: processes; slurm: the array's %J throttle)");
  sub->add_flag("--resume", f.resume,
                "complete the campaign in --out: run only what failed or never finished");
  reads(sub->add_option("--moesim", f.moesim,
                        "the moesim executable the runs call (default: this one; on a cluster it "
                        "must be reachable from every node)"));
  return {sub, [flags, &app](const isa::Spec& spec) { return cmd_campaign(spec, *flags, app); }};
}

}  // namespace moesim::cli
