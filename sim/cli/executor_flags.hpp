// The executor flags shared by `moesim campaign` and `moesim cosim --windows`: where the runs or
// windows go (campaign/executor.hpp, docs/campaigns.md). Internal to the moesim executable.
#pragma once

#include <CLI/CLI.hpp>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "moesim/campaign/executor.hpp"

namespace moesim::cli {

struct ExecutorFlags {
  std::string executor = "local";
  unsigned jobs = 1;
  campaign::SlurmOptions slurm;
  CLI::App* app = nullptr;
};

/// --executor local|slurm, --jobs J (`jobs_help`) and the slurm flags --partition, --account,
/// --time-limit, --sbatch-arg, --poll and --unreachable-timeout.
void add_executor_flags(CLI::App* sub, ExecutorFlags& f, const std::string& jobs_help);

/// The long names (without "--") of the flags add_executor_flags adds: executor, jobs, then
/// the slurm ones.
const std::vector<std::string>& executor_flag_names();

/// The first executor flag given on the command line ("--executor", ...), "" if none.
std::string executor_flag_given(const ExecutorFlags& f);

/// Refuses slurm flags given with the local executor (exit 2 naming the flag).
void check_executor_flags(const ExecutorFlags& f);

/// The executor the flags name; the slurm one keeps its files in `dir` (a folder the compute
/// nodes share) and names its job `job_name`; `quiet`: no console line when it submits.
std::unique_ptr<campaign::Executor> make_executor(const ExecutorFlags& f,
                                                  const std::filesystem::path& dir,
                                                  const std::string& job_name, bool quiet = false);

}  // namespace moesim::cli
