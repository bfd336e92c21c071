// The Slurm executor: one `sbatch --array` job per invocation, one array task per run
// (executor.hpp, docs/campaigns.md).
#include <chrono>
#include <fstream>
#include <iostream>
#include <sstream>
#include <stdexcept>
#include <thread>

#include "moesim/campaign/executor.hpp"
#include "moesim/campaign/process.hpp"
#include "moesim/campaign/spec.hpp"

namespace moesim::campaign {

namespace fs = std::filesystem;

namespace {

std::string first_line(const std::string& s) {
  std::string t = s.substr(0, s.find('\n'));
  return t.empty() ? std::string("(no message)") : t;
}

class SlurmExecutor : public Executor {
 public:
  explicit SlurmExecutor(SlurmOptions o) : o_(std::move(o)) {}
  std::string name() const override { return "slurm"; }

  void settle() override {
    std::ifstream in(o_.dir / "slurm" / "jobs.txt");
    std::string job;
    while (std::getline(in, job))
      if (!job.empty()) {
        std::string err;
        if (!wait_job(job, {}, err))
          throw std::runtime_error("slurm not reachable: cannot tell whether job " + job +
                                   " of an earlier invocation still runs (" + err + ")");
      }
  }

  std::map<std::string, std::string> run(
      const std::vector<Task>& tasks,
      const std::function<void(const std::string&)>& done) override {
    std::map<std::string, std::string> failed;
    if (tasks.empty()) return failed;
    const fs::path sdir = o_.dir / "slurm";
    fs::create_directories(sdir);
    unsigned n = 1;
    while (fs::exists(sdir / ("submit-" + std::to_string(n)))) ++n;
    const fs::path sub = sdir / ("submit-" + std::to_string(n));
    fs::create_directories(sub);
    {
      std::ofstream list(sub / "tasks.txt");
      for (const Task& t : tasks) list << t.dir.string() << '\n';
      std::ofstream sh(sub / "array.sh");
      sh << "#!/bin/sh\n"
            "# moesim campaign: Slurm array task i runs line i+1 of tasks.txt (a run folder).\n"
            "dir=$(sed -n \"$((SLURM_ARRAY_TASK_ID + 1))p\" "
         << shell_quote((sub / "tasks.txt").string())
         << ")\n"
            "[ -n \"$dir\" ] || { echo \"no run for array task $SLURM_ARRAY_TASK_ID\" >&2; exit 2; "
            "}\n"
            "exec /bin/sh \"$dir/run.sh\"\n";
    }
    std::vector<std::string> argv = {"sbatch",
                                     "--parsable",
                                     "--job-name=" + o_.job_name,
                                     "--chdir=" + o_.dir.string(),
                                     "--output=" + (sub / "task-%a.out").string(),
                                     "--array=0-" + std::to_string(tasks.size() - 1) +
                                         (o_.jobs ? "%" + std::to_string(o_.jobs) : "")};
    if (!o_.partition.empty()) argv.push_back("--partition=" + o_.partition);
    if (!o_.account.empty()) argv.push_back("--account=" + o_.account);
    if (!o_.time_limit.empty()) argv.push_back("--time=" + o_.time_limit);
    argv.insert(argv.end(), o_.sbatch_args.begin(), o_.sbatch_args.end());
    argv.push_back((sub / "array.sh").string());
    const Captured c = run_captured(argv);
    const std::string job = c.out.substr(0, c.out.find_first_of(";\n"));
    if (c.status != 0 || job.empty() || job.find_first_not_of("0123456789") != std::string::npos) {
      const std::string why = "slurm not reachable: sbatch failed (status " +
                              std::to_string(c.status) + "): " + first_line(c.err + c.out);
      for (const Task& t : tasks) failed[t.id] = why;
      return failed;
    }
    std::ofstream(sdir / "jobs.txt", std::ios::app) << job << '\n';
    if (!o_.quiet)
      std::cout << "moesim: submitted Slurm job " << job << " " << o_.job_name << " ("
                << tasks.size() << " array tasks; " << (sub / "task-<i>.out").string() << ")"
                << std::endl;

    std::map<std::string, bool> reported;
    auto poll_done = [&] {
      for (const Task& t : tasks)
        if (!reported[t.id] && fs::exists(t.dir / "exit_code")) {
          reported[t.id] = true;
          done(t.id);
        }
    };
    std::string err;
    const bool ended = wait_job(job, poll_done, err);
    poll_done();
    for (size_t i = 0; i < tasks.size(); ++i) {
      const Task& t = tasks[i];
      if (fs::exists(t.dir / "exit_code")) continue;
      const std::string task = job + "_" + std::to_string(i);
      if (!ended) {
        failed[t.id] = "slurm not reachable while waiting for task " + task + " (" + err +
                       "); it may still run: --resume waits for it";
        continue;
      }
      failed[t.id] = "Slurm task " + task + " ended without a result (" + task_state(task) +
                     "; its output: " + (sub / ("task-" + std::to_string(i) + ".out")).string() +
                     ")";
    }
    return failed;
  }

 private:
  /// Polls squeue until job `job` has no pending or running task. False (with `err`) when squeue
  /// fails for longer than unreachable_s.
  bool wait_job(const std::string& job, const std::function<void()>& tick, std::string& err) {
    using Clock = std::chrono::steady_clock;
    auto failing_since = Clock::time_point::max();
    for (;;) {
      const Captured c =
          run_captured({"squeue", "--noheader", "--array", "--jobs=" + job, "--format=%i %T"});
      if (c.status == 0) {
        failing_since = Clock::time_point::max();
        if (c.out.find_first_not_of(" \n") == std::string::npos) return true;
      } else if ((c.err + c.out).find("Invalid job id") != std::string::npos) {
        return true;  // purged from slurmctld's memory: long ended
      } else {
        err = "squeue status " + std::to_string(c.status) + ": " + first_line(c.err + c.out);
        const auto now = Clock::now();
        if (failing_since == Clock::time_point::max()) failing_since = now;
        if (std::chrono::duration<double>(now - failing_since).count() > o_.unreachable_s)
          return false;
      }
      if (tick) tick();
      std::this_thread::sleep_for(std::chrono::duration<double>(o_.poll_s));
    }
  }

  /// "state CANCELLED, reason ..." from scontrol, or why it is not known.
  static std::string task_state(const std::string& task) {
    const Captured c = run_captured({"scontrol", "--oneliner", "show", "job", task});
    // A pending array task cancelled before it started leaves no record of its own; a record is
    // also purged MinJobAge seconds after its job ended.
    if (c.status != 0 || c.out.find("JobState=") == std::string::npos)
      return "slurmctld no longer knows it: cancelled before it started, or purged";
    std::string state, reason;
    std::istringstream words(c.out);
    for (std::string w; words >> w;) {
      if (w.rfind("JobState=", 0) == 0) state = w.substr(9);
      if (w.rfind("Reason=", 0) == 0) reason = w.substr(7);
    }
    return "state " + (state.empty() ? std::string("unknown") : state) +
           (reason.empty() || reason == "None" ? std::string() : ", reason " + reason);
  }

  SlurmOptions o_;
};

}  // namespace

std::unique_ptr<Executor> make_slurm_executor(const SlurmOptions& options) {
  return std::make_unique<SlurmExecutor>(options);
}

}  // namespace moesim::campaign
