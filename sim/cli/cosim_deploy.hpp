// `moesim cosim --deployment NAME (--rank R | --all-ranks)`: per-rank programs of an
// expert-parallel deployment co-simulated golden vs RTL, the ranks' partial outputs combined and
// checked against the independent reference (docs/deployments.md, Per-rank programs). Internal to
// the moesim executable.
#pragma once

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>
#include <ostream>
#include <string>
#include <vector>

#include "moesim/isa/engine.hpp"
#include "moesim/isa/spec.hpp"
#include "output_flags.hpp"
#include "program_flags.hpp"

namespace moesim::cli {

struct DeployFlags {
  std::string deployment;   ///< --deployment NAME
  std::string deployments;  ///< --deployments FILE (default: the shipped file)
  unsigned rank = 0;
  bool all_ranks = false;
  CLI::Option* rank_opt = nullptr;
  bool active() const { return !deployment.empty(); }
};

/// Adds --deployment, --deployments, --rank, --all-ranks to `cosim` (after its program, output
/// and window flags, which --deployment partly excludes).
void add_deploy_flags(CLI::App* sub, DeployFlags& d);

/// --deployment with --rank R: the rank's program and image as the Workload cmd_cosim runs.
Workload make_deployment_workload(const isa::Spec& spec, const ProgramFlags& p,
                                  const DeployFlags& d);

/// After a --rank run: the rank's outputs of each engine against the independent reference of the
/// deployment (bit for bit); prints to `os`, clears `ok` on a difference, returns the JSON.
nlohmann::json deployment_rank_check(const Workload& w, const std::vector<const isa::Engine*>& ends,
                                     bool& ok, std::ostream& os);

/// --all-ranks: every rank a `moesim cosim --rank R` child (one after the other), then the stage
/// table in total, the per-rank load table, the combine of the ranks' outputs against the
/// reference and the error table against the single-accelerator layer. Returns the exit code.
int run_deployment_ranks(const isa::Spec& spec, const ProgramFlags& p, const DeployFlags& d,
                         const OutputFlags& o, bool quiet);

}  // namespace moesim::cli
