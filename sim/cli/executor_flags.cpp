// Executor flags (executor_flags.hpp).
#include "executor_flags.hpp"

#include "moesim/isa/usage_error.hpp"

namespace moesim::cli {

const std::vector<std::string>& executor_flag_names() {
  static const std::vector<std::string> names = {
      "executor",   "jobs",       "partition", "account",
      "time-limit", "sbatch-arg", "poll",      "unreachable-timeout"};
  return names;
}

std::string executor_flag_given(const ExecutorFlags& f) {
  for (const std::string& name : executor_flag_names())
    if (f.app->count("--" + name) != 0) return "--" + name;
  return "";
}

void add_executor_flags(CLI::App* sub, ExecutorFlags& f, const std::string& jobs_help) {
  f.app = sub;
  sub->add_option("--executor", f.executor, "local (J child processes) or slurm (sbatch --array)")
      ->capture_default_str()
      ->check(CLI::IsMember({"local", "slurm"}));
  sub->add_option("--jobs", f.jobs, jobs_help)->capture_default_str()->check(CLI::Range(1u, 4096u));
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
}

void check_executor_flags(const ExecutorFlags& f) {
  if (f.executor == "slurm") return;
  const std::vector<std::string>& names = executor_flag_names();
  for (auto it = names.begin() + 2; it != names.end(); ++it)  // the slurm flags
    if (f.app->count("--" + *it) != 0)
      throw UsageError("--" + *it + ": a flag of --executor slurm (the executor is " + f.executor +
                       ")");
}

std::unique_ptr<campaign::Executor> make_executor(const ExecutorFlags& f,
                                                  const std::filesystem::path& dir,
                                                  const std::string& job_name, bool quiet) {
  if (f.executor == "local") return campaign::make_local_executor(f.jobs);
  campaign::SlurmOptions o = f.slurm;
  o.dir = std::filesystem::absolute(dir).lexically_normal();
  o.jobs = f.jobs;
  o.job_name = job_name;
  o.quiet = quiet;
  return campaign::make_slurm_executor(o);
}

}  // namespace moesim::cli
