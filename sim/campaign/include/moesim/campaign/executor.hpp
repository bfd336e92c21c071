// The executor interface of `moesim campaign` (docs/campaigns.md) and its two executors.
//
// A task is one run's folder holding `run.sh`, which runs the run's `moesim cosim` command, writes
// its output to log.txt and its report to report.json, and last records the command's exit code
// in `exit_code` (written to a temporary name and renamed, so a present `exit_code` means the run
// finished). An executor only has to run the scripts and say, for a task that left no
// `exit_code`, why; the campaign reads the results from the folders.
#pragma once

#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace moesim::campaign {

struct Task {
  std::string id;
  std::filesystem::path dir;  ///< absolute; holds run.sh
};

/// Writes the task folder `dir` (created): command.txt, `command` (one shell command line that
/// reproduces the task alone), and run.sh, which from `dir` removes exit_code and `outputs`
/// (files of `dir` the command writes), runs `command` followed by `output_args` with its output
/// in log.txt, and last records the exit code in exit_code (through a rename). `what` names the
/// task in run.sh's comment.
void write_task(const std::filesystem::path& dir, const std::string& what,
                const std::string& command, const std::string& output_args,
                const std::vector<std::string>& outputs);

/// The exit code a task's run.sh recorded in DIR/exit_code: one decimal number and a newline,
/// else none (not finished, or a damaged file).
std::optional<int> read_exit_code(const std::filesystem::path& dir);

class Executor {
 public:
  virtual ~Executor() = default;
  virtual std::string name() const = 0;
  /// Before deciding what is left to run (--resume): waits until no task of an earlier
  /// invocation of this campaign can still be running, so that nothing runs twice. Throws
  /// std::runtime_error when that cannot be known (the scheduler is not reachable).
  virtual void settle() {}
  /// Runs every task and returns once none is running; `done(id)` is called as a task leaves its
  /// `exit_code` (from the calling thread). Returns the reason for each task that ended without
  /// one (not started, killed, lost).
  virtual std::map<std::string, std::string> run(
      const std::vector<Task>& tasks, const std::function<void(const std::string&)>& done) = 0;
};

/// Runs up to `jobs` tasks at a time as child processes of this one.
std::unique_ptr<Executor> make_local_executor(unsigned jobs);

struct SlurmOptions {
  std::filesystem::path dir;  ///< a folder the compute nodes share (the campaign's --out)
  std::string job_name = "moesim-campaign";  ///< sbatch --job-name, and the console's word
  unsigned jobs = 0;                         ///< array throttle %J (0: none)
  std::string partition, account, time_limit;
  std::vector<std::string> sbatch_args;  ///< passed to sbatch as they are
  double poll_s = 1.0;                   ///< squeue interval
  double unreachable_s = 60.0;           ///< give up when squeue fails for this long
  bool quiet = false;                    ///< no console line when the job is submitted
};

/// Submits the tasks as one `sbatch --array` job (one array task per run) and polls squeue until
/// none is pending or running. Job ids are appended to DIR/slurm/jobs.txt.
std::unique_ptr<Executor> make_slurm_executor(const SlurmOptions& options);

}  // namespace moesim::campaign
