// moesim campaign SPEC.yaml --executor local|slurm [--jobs J] --out DIR [--resume]: many
// co-simulations as one regression (campaign/, docs/campaigns.md). Each run is a `moesim cosim`
// child process of this executable.
#include <filesystem>
#include <iostream>

#include "command.hpp"
#include "moesim/campaign/campaign.hpp"

namespace moesim::cli {

namespace fs = std::filesystem;

namespace {

struct CampaignFlags {
  std::string spec, out, executor = "local", moesim;
  unsigned jobs = 1;
  bool resume = false;
  campaign::SlurmOptions slurm;
};

int cmd_campaign(const isa::Spec& spec, CampaignFlags& f, CLI::App& root) {
  campaign::SpecOptions so;
  // Windowed co-simulation (issue 16) is passed through as --windows once `moesim cosim` has it.
  try {
    so.windows_supported =
        root.get_subcommand("cosim")->get_option_no_throw("--windows") != nullptr;
  } catch (const CLI::OptionNotFound&) {
    so.windows_supported = false;
  }
  const std::vector<campaign::Run> runs = campaign::load_spec(f.spec, spec, so);

  campaign::CampaignOptions o;
  o.spec_path = f.spec;
  o.out = f.out;
  o.resume = f.resume;
  o.moesim = f.moesim.empty() ? fs::read_symlink("/proc/self/exe").string()
                              : fs::absolute(f.moesim).string();
  o.executor_words = f.executor + " --jobs " + std::to_string(f.jobs);
  std::unique_ptr<campaign::Executor> ex;
  if (f.executor == "local") {
    ex = campaign::make_local_executor(f.jobs);
  } else {
    f.slurm.dir = fs::absolute(f.out).lexically_normal();
    f.slurm.jobs = f.jobs;
    ex = campaign::make_slurm_executor(f.slurm);
  }
  return campaign::run_campaign(o, runs, *ex, std::cout);
}

}  // namespace

Subcommand add_campaign(CLI::App& app) {
  auto flags = std::make_shared<CampaignFlags>();
  CampaignFlags& f = *flags;
  CLI::App* sub = app.add_subcommand(
      "campaign",
      "run a campaign of co-simulations (a YAML spec of cross products; docs/campaigns.md)");
  sub->add_option("spec", f.spec, "the campaign spec (YAML)")->required();
  sub->add_option("--out", f.out, "campaign folder: summary.json, junit.xml, runs/<run>/")
      ->required();
  sub->add_option("--executor", f.executor, "local (J child processes) or slurm (sbatch --array)")
      ->capture_default_str()
      ->check(CLI::IsMember({"local", "slurm"}));
  sub->add_option("--jobs", f.jobs,
                  "runs at a time (local: processes; slurm: the array's %J throttle)")
      ->capture_default_str()
      ->check(CLI::Range(1u, 4096u));
  sub->add_flag("--resume", f.resume,
                "complete the campaign in --out: run only what failed or never finished");
  sub->add_option("--moesim", f.moesim,
                  "the moesim executable the runs call (default: this one; on a cluster it must "
                  "be reachable from every node)");
  sub->add_option("--partition", f.slurm.partition, "slurm: sbatch --partition");
  sub->add_option("--account", f.slurm.account, "slurm: sbatch --account");
  sub->add_option("--time-limit", f.slurm.time_limit,
                  "slurm: sbatch --time of each array task (e.g. 30:00)");
  sub->add_option("--sbatch-arg", f.slurm.sbatch_args,
                  "slurm: one more sbatch argument, as it is (repeatable)");
  sub->add_option("--poll", f.slurm.poll_s, "slurm: seconds between squeue polls")
      ->capture_default_str()
      ->check(CLI::Range(0.05, 3600.0));
  sub->add_option("--unreachable-timeout", f.slurm.unreachable_s,
                  "slurm: give up waiting when squeue fails for this many seconds")
      ->capture_default_str()
      ->check(CLI::Range(0.0, 86400.0));
  return {sub, [flags, &app](const isa::Spec& spec) { return cmd_campaign(spec, *flags, app); }};
}

}  // namespace moesim::cli
