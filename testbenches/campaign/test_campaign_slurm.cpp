// `moesim campaign --executor slurm` on the one-node cluster of scripts/slurm_cluster.sh (ctest
// fixture `slurm`; SLURM_CONF names it): the same results as the local executor, a killed task
// reported and completed by --resume, and an unreachable controller reported per run.
#include <sys/wait.h>

#include <algorithm>
#include <chrono>
#include <regex>
#include <thread>

#include "campaign_test.hpp"
#include "moesim/campaign/process.hpp"

using namespace moesim::test;
namespace fs = std::filesystem;

namespace {

/// squeue's "TASK STATE" lines of job `job` (pending and running tasks).
std::string task_states(const std::string& job) {
  return moesim::campaign::run_captured(
             {"squeue", "--noheader", "--array", "--jobs=" + job, "--format=%K %T"})
      .out;
}

template <class F>
bool wait_until(F&& f, double seconds) {
  const auto end = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
  while (std::chrono::steady_clock::now() < end) {
    if (f()) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  return f();
}

}  // namespace

BOOST_AUTO_TEST_CASE(slurm_campaign_gives_the_local_results) {
  const fs::path dir = workdir("slurm_vs_local");
  write_spec(dir, kTinySpec);
  const CliResult slurm =
      moesim_cli("campaign campaign.yaml --executor slurm --jobs 2 --poll 0.2 --out slurm", dir);
  BOOST_TEST(slurm.code == 0);
  BOOST_TEST(slurm.out.find("submitted Slurm job") != std::string::npos);
  const CliResult local = moesim_cli("campaign campaign.yaml --jobs 2 --out local", dir);
  BOOST_TEST(local.code == 0);
  const auto s = summary_of(dir / "slurm");
  BOOST_TEST(s.at("runs").size() == 4u);
  BOOST_TEST(results_of(s).dump(1) == results_of(summary_of(dir / "local")).dump(1));
  // One array job, its tasks' output files in the shared folder.
  const std::string jobs = slurp(dir / "slurm" / "slurm" / "jobs.txt");
  BOOST_TEST(std::count(jobs.begin(), jobs.end(), '\n') == 1);
  BOOST_TEST(fs::exists(dir / "slurm" / "slurm" / "submit-1" / "task-3.out"));
  BOOST_TEST(slurp(dir / "slurm" / "junit.xml").find("tests=\"4\" failures=\"0\" errors=\"0\"") !=
             std::string::npos);
}

// `moesim cosim --windows --executor slurm`: each window an array task reading its checkpoints
// from the shared --checkpoint-dir; the merged report is the local executor's, apart from
// timing and the command line.
BOOST_AUTO_TEST_CASE(slurm_windows_give_the_local_report) {
  const fs::path dir = workdir("slurm_windows");
  const std::string run =
      "cosim --model gpt-oss-20b --tokens 2 --hidden 64 --intermediate 64 --windows 3 ";
  const CliResult slurm = moesim_cli(
      run + "--executor slurm --jobs 2 --poll 0.2 --checkpoint-dir ck --report slurm.json", dir);
  BOOST_TEST(slurm.code == 0, slurm.out << slurm.err);
  BOOST_TEST(slurm.out.find("submitted Slurm job") != std::string::npos, slurm.out);
  BOOST_TEST(slurm.out.find("3/3 done") != std::string::npos, slurm.out);
  for (const char* f : {"result.json", "exit_code", "log.txt", "run.sh", "command.txt"})
    BOOST_TEST(fs::exists(dir / "ck" / "window_2" / f), f);
  const CliResult local = moesim_cli(run + "--report local.json", dir);
  BOOST_TEST(local.code == 0, local.out << local.err);
  auto untimed = [](nlohmann::json j) {
    for (const char* varying : {"simulation_time_s", "wall_time_s", "provenance"}) j.erase(varying);
    return j;
  };
  const nlohmann::json a = untimed(nlohmann::json::parse(slurp(dir / "slurm.json")));
  const nlohmann::json b = untimed(nlohmann::json::parse(slurp(dir / "local.json")));
  BOOST_TEST(a.at("verdict") == "EQUAL");
  BOOST_TEST(a.dump(1) == b.dump(1));
  // --quiet: the verdict, and no console line from the executor (it printed "submitted").
  const CliResult quiet =
      moesim_cli(run + "--executor slurm --poll 0.2 --checkpoint-dir ckq --quiet", dir);
  BOOST_TEST(quiet.code == 0, quiet.out << quiet.err);
  BOOST_TEST(quiet.out.find("VERDICT: EQUAL") != std::string::npos, quiet.out);
  BOOST_TEST(quiet.out.find("submitted") == std::string::npos, quiet.out);
  // The window tasks need a folder the nodes share: no temporary one.
  const CliResult no_dir = moesim_cli(run + "--executor slurm", dir);
  BOOST_TEST(no_dir.code == 2);
  BOOST_TEST(no_dir.err.find("--executor slurm: the window tasks read their checkpoints from "
                             "--checkpoint-dir") != std::string::npos,
             no_dir.err);
}

// A task killed with scancel while it runs (and one cancelled before it started): the campaign
// exits 1 listing both; --resume runs exactly those two and completes the campaign.
BOOST_AUTO_TEST_CASE(slurm_scancel_is_reported_and_resume_completes) {
  const fs::path dir = workdir("slurm_scancel");
  // Task 0 is the slowest run (expert-major over 128 experts, several seconds), so it is still
  // running when it is cancelled; --jobs 1 keeps tasks 1 and 2 pending meanwhile.
  write_spec(dir, kSlowFirstSpec);
  const std::string moesim = counting_moesim(dir).string();
  const std::string cmd =
      "cd '" + dir.string() + "' && '" + MOESIM_BIN +
      "' campaign campaign.yaml --executor slurm --jobs 1 --poll 0.2 --moesim '" + moesim +
      "' --out out >first.txt 2>&1";
  const int pid = moesim::campaign::spawn({"/bin/sh", "-c", cmd});
  const fs::path jobs_file = dir / "out" / "slurm" / "jobs.txt";
  BOOST_TEST_REQUIRE(wait_until([&] { return !slurp(jobs_file).empty(); }, 60));
  const std::string job = slurp(jobs_file).substr(0, slurp(jobs_file).find('\n'));
  const std::string slow = kSlowRun;
  const std::string pending = kQuickPairRun;
  const std::string other = kQuickExpertRun;
  // Slurm says RUNNING as soon as it starts the task's batch step, before run.sh has started
  // moesim (a CI run once cancelled it in between): wait for the execution itself to be logged.
  BOOST_TEST_REQUIRE(wait_until(
                         [&] {
                           return ("\n" + task_states(job)).find("\n0 RUNNING\n") !=
                                      std::string::npos &&
                                  executions(dir)[slow] == 1;
                         },
                         120),
                     task_states(job));
  BOOST_TEST(!fs::exists(dir / "out" / "runs" / slow / "exit_code"));  // still running
  const auto c = moesim::campaign::run_captured({"scancel", job + "_0", job + "_1"});
  BOOST_TEST_REQUIRE(c.status == 0, c.err);
  int st = 0;
  waitpid(pid, &st, 0);
  const std::string first = slurp(dir / "first.txt");
  BOOST_TEST_MESSAGE(first);
  BOOST_TEST((WIFEXITED(st) ? WEXITSTATUS(st) : -1) == 1);
  auto s = summary_of(dir / "out");
  // The killed task's state is CANCELLED. scancel signals every process of the task: when
  // moesim dies first, run.sh may still record its exit code 143 (SIGTERM) before it is
  // signalled itself, and the run is FAILED, killed by signal 15 (seen once in a loaded run);
  // either way it is listed and --resume runs it again. A pending task cancelled before it
  // started leaves no record in slurmctld.
  {
    const auto& run = run_named(s, slow);
    const std::string reason = run.at("reason");
    const bool cancelled =
        run.at("status") == "NOT FINISHED" && reason.find("state CANCELLED") != std::string::npos &&
        first.find("NOT FINISHED " + slow + ": Slurm task " + job + "_") != std::string::npos;
    const bool killed = run.at("status") == "FAILED" &&
                        reason.find("killed by signal 15") != std::string::npos &&
                        first.find("FAILED " + slow + ": ") != std::string::npos;
    BOOST_TEST((cancelled || killed), run.dump() + "\n" + first);
  }
  {
    const auto& run = run_named(s, pending);
    BOOST_TEST(run.at("status") == "NOT FINISHED");
    BOOST_TEST(run.at("reason").get<std::string>().find("cancelled before it started") !=
                   std::string::npos,
               run.at("reason"));
    BOOST_TEST(first.find("NOT FINISHED " + pending + ": Slurm task " + job + "_") !=
               std::string::npos);
  }
  BOOST_TEST(run_named(s, other).at("status") == "EQUAL");
  const std::string junit = slurp(dir / "out" / "junit.xml");
  BOOST_TEST(junit.find("tests=\"3\" failures=\"0\" errors=\"2\"") != std::string::npos);
  const auto done_at = fs::last_write_time(dir / "out" / "runs" / other / "report.json");
  // Executions (counting_moesim): the cancelled running task started once, the cancelled
  // pending one never.
  std::map<std::string, int> n = executions(dir);
  BOOST_TEST(n[slow] == 1);
  BOOST_TEST(n[pending] == 0);
  BOOST_TEST(n[other] == 1);

  const CliResult r = moesim_cli(
      "campaign campaign.yaml --executor slurm --jobs 2 --poll 0.2 "
      "--moesim '" +
          moesim + "' --out out --resume",
      dir);
  BOOST_TEST(r.code == 0);
  BOOST_TEST(r.out.find("3 runs (1 finished before), 2 to run") != std::string::npos);
  s = summary_of(dir / "out");
  for (const auto& run : s.at("runs")) {
    BOOST_TEST(run.at("status") == "EQUAL", run.at("id"));
    BOOST_TEST(run.at("ran_now").get<bool>() == (run.at("id") != other), run.at("id"));
  }
  BOOST_TEST((fs::last_write_time(dir / "out" / "runs" / other / "report.json") == done_at));
  // --resume ran the two that did not finish once each and the finished one not again.
  n = executions(dir);
  BOOST_TEST(n[slow] == 2);
  BOOST_TEST(n[pending] == 1);
  BOOST_TEST(n[other] == 1);
  BOOST_TEST(n.size() == 3u);
  const std::string jobs = slurp(jobs_file);
  BOOST_TEST(std::count(jobs.begin(), jobs.end(), '\n') == 2);
}

// sbatch cannot reach a controller: every run is reported as not run, exit 1; --resume with the
// cluster reachable again runs each of them once.
BOOST_AUTO_TEST_CASE(slurm_unreachable_is_reported_per_run) {
  const fs::path dir = workdir("slurm_unreachable");
  write_spec(dir,
             "runs:\n  - machine: tiny\n    seeds: [1, 2]\n    tokens: 2\n    hidden: 32\n"
             "    intermediate: 32\n");
  // A copy of the cluster's configuration whose controller port nothing listens on.
  std::string conf = slurp(std::getenv("SLURM_CONF"));
  conf = std::regex_replace(conf, std::regex("SlurmctldPort=[0-9]+"), "SlurmctldPort=9");
  std::ofstream(dir / "slurm.conf") << conf;
  const std::string moesim = counting_moesim(dir).string();
  const std::string cmd = "cd '" + dir.string() + "' && SLURM_CONF=slurm.conf '" + MOESIM_BIN +
                          "' campaign campaign.yaml --executor slurm --moesim '" + moesim +
                          "' --out out2 >out.txt 2>&1";
  const int st = std::system(cmd.c_str());
  BOOST_TEST((WIFEXITED(st) ? WEXITSTATUS(st) : -1) == 1);
  const std::string out = slurp(dir / "out.txt");
  BOOST_TEST_MESSAGE(out);
  const auto s = summary_of(dir / "out2");
  BOOST_TEST(s.at("runs").size() == 2u);
  for (const auto& run : s.at("runs")) {
    BOOST_TEST(run.at("status") == "NOT FINISHED");
    BOOST_TEST(run.at("reason").get<std::string>().find("slurm not reachable: sbatch failed") == 0u,
               run.at("reason"));
    BOOST_TEST(out.find("NOT FINISHED " + run.at("id").get<std::string>() +
                        ": slurm not reachable") != std::string::npos);
  }
  BOOST_TEST(executions(dir).empty());
  // The cluster back (the test's SLURM_CONF): --resume runs both, each once.
  const CliResult r = moesim_cli("campaign campaign.yaml --executor slurm --poll 0.2 --moesim '" +
                                     moesim + "' --out out2 --resume",
                                 dir);
  BOOST_TEST(r.code == 0, r.out + r.err);
  BOOST_TEST(r.out.find("2 runs (0 finished before), 2 to run") != std::string::npos, r.out);
  for (const auto& run : summary_of(dir / "out2").at("runs")) {
    BOOST_TEST(run.at("status") == "EQUAL", run.at("id"));
    BOOST_TEST(executions(dir)[run.at("id").get<std::string>()] == 1, run.at("id"));
  }
  BOOST_TEST(executions(dir).size() == 2u);
}
