// `moesim campaign` through the local executor, as a subprocess: outputs, exit codes, the JUnit
// file agreeing with them, per-run folders whose command reproduces the run alone, --resume, and
// the determinism gate (the same campaign serially and in parallel gives identical results).
#include <signal.h>
#include <sys/wait.h>

#include <chrono>
#include <regex>
#include <thread>

#include "campaign_test.hpp"
#include "moesim/campaign/process.hpp"

using namespace moesim::test;
namespace fs = std::filesystem;

namespace {

size_t count_of(const std::string& s, const std::string& what) {
  size_t n = 0;
  for (size_t p = s.find(what); p != std::string::npos; p = s.find(what, p + 1)) ++n;
  return n;
}

template <class F>
bool wait_until(F&& f, double seconds) {
  const auto end = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
  while (std::chrono::steady_clock::now() < end) {
    if (f()) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  return f();
}

}  // namespace

BOOST_AUTO_TEST_CASE(campaign_local_equal_and_mismatch_runs) {
  const fs::path dir = workdir("equal_and_mismatch");
  // One planted fault (a bit of the RTL's initial HBM image) among two good runs.
  write_spec(dir, R"(runs:
  - models: [gpt-oss-20b]
    machines: [tiny]
    lowerings: [pair, expert]
    tokens: [2]
    hidden: [32]
    intermediate: [32]
  - model: gpt-oss-20b
    machine: tiny
    tokens: 2
    hidden: 32
    intermediate: 32
    flip_bit: rtl:hbm:0:0
)");
  const CliResult r = moesim_cli("campaign campaign.yaml --jobs 2 --out out", dir);
  BOOST_TEST(r.code == 1);
  const auto s = summary_of(dir / "out");
  BOOST_TEST_REQUIRE(s.at("runs").size() == 3u);
  BOOST_TEST(s.at("exit_code") == 1);
  const std::string bad = "tiny.gpt-oss-20b.routed.pair.s1.t2.h32.i32.flip-rtl-hbm-0-0";
  const auto& m = run_named(s, bad);
  BOOST_TEST(m.at("status") == "MISMATCH");
  BOOST_TEST(m.at("where").get<std::string>().find("campaign.yaml:8") != std::string::npos);
  BOOST_TEST(r.out.find("MISMATCH " + bad + ": VERDICT: MISMATCH") != std::string::npos);
  for (const char* good : {"tiny.gpt-oss-20b.routed.pair.s1.t2.h32.i32",
                           "tiny.gpt-oss-20b.routed.expert.s1.t2.h32.i32"}) {
    const auto& g = run_named(s, good);
    BOOST_TEST(g.at("status") == "EQUAL");
    BOOST_TEST(g.at("cycles").at("golden") == g.at("cycles").at("rtl"));
    BOOST_TEST(g.at("cycles").at("golden").get<uint64_t>() > 0u);
    BOOST_TEST(g.at("report_digest").get<std::string>().size() == 16u);
  }
  // JUnit: one testcase per run, the one failure is the mismatch.
  const std::string junit = slurp(dir / "out" / "junit.xml");
  BOOST_TEST(count_of(junit, "<testcase ") == 3u);
  BOOST_TEST(count_of(junit, "<failure ") == 1u);
  BOOST_TEST(count_of(junit, "<error ") == 0u);
  BOOST_TEST(junit.find("tests=\"3\" failures=\"1\" errors=\"0\"") != std::string::npos);
  // Each run's folder: its report, log and the command that reproduces it alone.
  for (const auto& run : s.at("runs")) {
    const fs::path rd = dir / "out" / run.at("dir").get<std::string>();
    BOOST_TEST(fs::exists(rd / "report.json"));
    BOOST_TEST(fs::exists(rd / "log.txt"));
    BOOST_TEST(slurp(rd / "command.txt") == run.at("command").get<std::string>() + "\n");
  }
  const fs::path alone = workdir("equal_and_mismatch_alone");
  for (const auto& [id, code] :
       {std::pair<std::string, int>{bad, 1}, {"tiny.gpt-oss-20b.routed.expert.s1.t2.h32.i32", 0}}) {
    const std::string cmd = "cd '" + alone.string() + "' && " +
                            run_named(s, id).at("command").get<std::string>() + " >/dev/null";
    const int st = std::system(cmd.c_str());
    BOOST_TEST((WIFEXITED(st) ? WEXITSTATUS(st) : -1) == code, id);
  }
}

BOOST_AUTO_TEST_CASE(campaign_bad_input_exits_2_with_file_line) {
  const fs::path dir = workdir("bad_input");
  write_spec(dir, "runs:\n  - models: [gpt-oss-20b, no-such-model]\n");
  CliResult r = moesim_cli("campaign campaign.yaml --out out", dir);
  BOOST_TEST(r.code == 2);
  // The model is named by the spec's key, not by a --model flag the user never gave.
  BOOST_TEST(r.err.find("moesim: error: campaign.yaml:2:27: 'models': no-such-model: not a model "
                        "preset (known: ") == 0u,
             r.err);
  BOOST_TEST(count_of(r.err, "\n") == 1u);
  BOOST_TEST(!fs::exists(dir / "out"));
  // An existing campaign folder is not overwritten; --resume needs one.
  write_spec(dir,
             "runs:\n  - tokens: 2\n    machine: tiny\n    hidden: 32\n    intermediate: 32\n");
  fs::create_directories(dir / "full");
  std::ofstream(dir / "full" / "keep.txt") << "x";
  r = moesim_cli("campaign campaign.yaml --out full", dir);
  BOOST_TEST(r.code == 2);
  BOOST_TEST(r.err.find("full exists and is not empty") != std::string::npos, r.err);
  r = moesim_cli("campaign campaign.yaml --out fresh --resume", dir);
  BOOST_TEST(r.code == 2);
  BOOST_TEST(r.err.find("holds no campaign") != std::string::npos, r.err);
  r = moesim_cli("campaign campaign.yaml --out o --executor pbs", dir);
  BOOST_TEST(r.code == 2);
  BOOST_TEST(r.err.find("--executor") != std::string::npos, r.err);
}

BOOST_AUTO_TEST_CASE(campaign_local_resume_runs_only_what_did_not_finish) {
  const fs::path dir = workdir("resume");
  write_spec(dir, kTinySpec);
  CliResult r = moesim_cli("campaign campaign.yaml --jobs 2 --out out", dir);
  BOOST_TEST_REQUIRE(r.code == 0);
  const auto first = summary_of(dir / "out");
  // A run that never finished (no exit_code) and one whose process was killed (exit 137).
  const std::string lost = "tiny.gpt-oss-20b.routed.expert.s1.t2.h32.i32";
  const std::string killed = "tiny.qwen1.5-moe-a2.7b.routed.pair.s1.t2.h32.i32";
  BOOST_TEST_REQUIRE(fs::exists(dir / "out" / "runs" / killed / "exit_code"));
  fs::remove(dir / "out" / "runs" / lost / "exit_code");
  std::ofstream(dir / "out" / "runs" / killed / "exit_code", std::ios::trunc) << "137\n";
  std::map<std::string, fs::file_time_type> mtime;
  for (const auto& run : first.at("runs"))
    mtime[run.at("id")] =
        fs::last_write_time(dir / "out" / run.at("dir").get<std::string>() / "report.json");
  // Without --resume the folder is refused; with it, only the two runs run again.
  BOOST_TEST(moesim_cli("campaign campaign.yaml --out out", dir).code == 2);
  r = moesim_cli("campaign campaign.yaml --jobs 2 --out out --resume", dir);
  BOOST_TEST(r.code == 0);
  BOOST_TEST(r.out.find("4 runs (2 finished before), 2 to run") != std::string::npos, r.out);
  const auto second = summary_of(dir / "out");
  BOOST_TEST(results_of(second) == results_of(first));
  for (const auto& run : second.at("runs")) {
    const std::string id = run.at("id");
    const bool again = id == lost || id == killed;
    BOOST_TEST(run.at("ran_now").get<bool>() == again, id);
    const auto t =
        fs::last_write_time(dir / "out" / run.at("dir").get<std::string>() / "report.json");
    BOOST_TEST((t == mtime[id]) == !again, id);
  }
  // A spec that gives other runs cannot resume this campaign.
  write_spec(dir, "runs:\n  - tokens: 2\n    machine: tiny\n    hidden: 32\n    intermediate: 32\n",
             "other.yaml");
  r = moesim_cli("campaign other.yaml --out out --resume", dir);
  BOOST_TEST(r.code == 2);
  BOOST_TEST(r.err.find("does not give the runs of the campaign") != std::string::npos, r.err);
}

// A run record that is damaged counts as not finished: an exit_code file that is not one number
// ("0garbage"), and exit 0 with a report.json cut short. Both are listed, the campaign exits 1,
// and --resume runs exactly those two again.
BOOST_AUTO_TEST_CASE(campaign_resume_runs_again_a_damaged_record) {
  const fs::path dir = workdir("damaged");
  write_spec(dir, kTinySpec);
  BOOST_TEST_REQUIRE(moesim_cli("campaign campaign.yaml --jobs 2 --out out", dir).code == 0);
  const std::string garbage = "tiny.gpt-oss-20b.routed.pair.s1.t2.h32.i32";
  const std::string cut = "tiny.qwen1.5-moe-a2.7b.routed.expert.s1.t2.h32.i32";
  std::ofstream(dir / "out" / "runs" / garbage / "exit_code", std::ios::trunc) << "0garbage\n";
  const fs::path report = dir / "out" / "runs" / cut / "report.json";
  const std::string text = slurp(report);
  std::ofstream(report, std::ios::trunc) << text.substr(0, text.size() / 2);
  CliResult r = moesim_cli("campaign campaign.yaml --jobs 2 --out out --resume", dir);
  BOOST_TEST(r.code == 0, r.out + r.err);
  BOOST_TEST(r.out.find("4 runs (2 finished before), 2 to run") != std::string::npos, r.out);
  for (const auto& run : summary_of(dir / "out").at("runs")) {
    BOOST_TEST(run.at("status") == "EQUAL", run.at("id"));
    BOOST_TEST(run.at("ran_now").get<bool>() == (run.at("id") == garbage || run.at("id") == cut),
               run.at("id"));
  }
}

// A campaign stopped by SIGTERM (a scheduler's time limit, kill) stops the runs it started —
// run.sh and the moesim under it — before it ends by that signal; runs never started stay so;
// --resume completes the campaign.
BOOST_AUTO_TEST_CASE(campaign_sigterm_stops_its_runs_and_resume_completes) {
  const fs::path dir = workdir("sigterm");
  write_spec(dir, kSlowFirstSpec);
  const std::string slow = kSlowRun;
  const std::string moesim = counting_moesim(dir).string();
  const int pid =
      moesim::campaign::spawn({MOESIM_BIN, "campaign", (dir / "campaign.yaml").string(), "--jobs",
                               "1", "--moesim", moesim, "--out", (dir / "out").string()});
  BOOST_TEST_REQUIRE(wait_until([&] { return execution_pid(dir, slow) != 0; }, 120));
  const int child = execution_pid(dir, slow);
  BOOST_TEST_REQUIRE(kill(pid, SIGTERM) == 0);
  int st = 0;
  waitpid(pid, &st, 0);
  BOOST_TEST((WIFSIGNALED(st) && WTERMSIG(st) == SIGTERM), "wait status " << st);
  // The run's moesim is gone (or a zombie nobody has reaped yet), not left running.
  auto alive = [](int p) {
    const std::string stat = slurp("/proc/" + std::to_string(p) + "/stat");
    const size_t close = stat.rfind(')');
    return close != std::string::npos && close + 2 < stat.size() && stat[close + 2] != 'Z';
  };
  BOOST_TEST(wait_until([&] { return !alive(child); }, 3), "moesim " << child << " still runs");
  std::map<std::string, int> n = executions(dir);
  BOOST_TEST(n[slow] == 1);
  BOOST_TEST(n.size() == 1u);  // --jobs 1: the other two never started

  const CliResult r = moesim_cli(
      "campaign campaign.yaml --jobs 2 --moesim '" + moesim + "' --out out --resume", dir);
  BOOST_TEST(r.code == 0, r.out + r.err);
  BOOST_TEST(r.out.find("3 runs (0 finished before), 3 to run") != std::string::npos, r.out);
  n = executions(dir);
  BOOST_TEST(n[slow] == 2);
  BOOST_TEST(n[kQuickPairRun] == 1);
  BOOST_TEST(n[kQuickExpertRun] == 1);
}

// The determinism gate: serially (--jobs 1) and in parallel (--jobs 2) the same campaign gives
// the same verdicts, cycles and report digests, run by run.
BOOST_AUTO_TEST_CASE(campaign_serial_and_parallel_give_identical_results) {
  const fs::path dir = workdir("determinism");
  write_spec(dir, kTinySpec);
  const CliResult serial = moesim_cli("campaign campaign.yaml --jobs 1 --out serial", dir);
  const CliResult parallel = moesim_cli("campaign campaign.yaml --jobs 2 --out parallel", dir);
  BOOST_TEST(serial.code == 0);
  BOOST_TEST(parallel.code == 0);
  const auto a = results_of(summary_of(dir / "serial"));
  const auto b = results_of(summary_of(dir / "parallel"));
  BOOST_TEST(a.size() == 4u);
  BOOST_TEST(a.dump(1) == b.dump(1));
}

// A run whose process is killed while it runs (SIGKILL, as the OOM killer would) is reported
// per run and the campaign exits 1 listing it; --resume runs exactly that run again. Executions
// are counted (counting_moesim): every run that finished ran once, the killed one twice.
BOOST_AUTO_TEST_CASE(campaign_local_killed_run_is_reported_and_resume_runs_only_it) {
  const fs::path dir = workdir("local_killed");
  // The first run is the slowest (expert-major over 128 experts, several seconds): it is still
  // running when the others have finished, and is killed then.
  write_spec(dir, kSlowFirstSpec);
  const std::string slow = kSlowRun;
  const std::vector<std::string> quick = {kQuickPairRun, kQuickExpertRun};
  const std::string moesim = counting_moesim(dir).string();
  const std::string cmd = "cd '" + dir.string() + "' && '" + MOESIM_BIN +
                          "' campaign campaign.yaml --jobs 2 --moesim '" + moesim +
                          "' --out out >first.txt 2>&1";
  const int pid = moesim::campaign::spawn({"/bin/sh", "-c", cmd});
  auto ended = [&](const std::string& id) {
    return fs::exists(dir / "out" / "runs" / id / "exit_code");
  };
  BOOST_TEST_REQUIRE(wait_until(
      [&] { return execution_pid(dir, slow) != 0 && ended(quick[0]) && ended(quick[1]); }, 120));
  BOOST_TEST_REQUIRE(!ended(slow));  // still running
  BOOST_TEST_REQUIRE(kill(execution_pid(dir, slow), SIGKILL) == 0);
  int st = 0;
  waitpid(pid, &st, 0);
  const std::string first = slurp(dir / "first.txt");
  BOOST_TEST_MESSAGE(first);
  BOOST_TEST((WIFEXITED(st) ? WEXITSTATUS(st) : -1) == 1);
  auto s = summary_of(dir / "out");
  BOOST_TEST(run_named(s, slow).at("status") == "FAILED");
  BOOST_TEST(run_named(s, slow).at("reason").get<std::string>().find("killed by signal 9") !=
                 std::string::npos,
             run_named(s, slow).at("reason"));
  BOOST_TEST(first.find("  FAILED " + slow + ": ") != std::string::npos);
  for (const std::string& id : quick) BOOST_TEST(run_named(s, id).at("status") == "EQUAL", id);
  BOOST_TEST(slurp(dir / "out" / "junit.xml").find("tests=\"3\" failures=\"0\" errors=\"1\"") !=
             std::string::npos);
  std::map<std::string, int> n = executions(dir);
  BOOST_TEST(n[slow] == 1);
  for (const std::string& id : quick) BOOST_TEST(n[id] == 1, id);

  const CliResult r = moesim_cli(
      "campaign campaign.yaml --jobs 2 --moesim '" + moesim + "' --out out --resume", dir);
  BOOST_TEST(r.code == 0, r.out + r.err);
  BOOST_TEST(r.out.find("3 runs (2 finished before), 1 to run") != std::string::npos, r.out);
  s = summary_of(dir / "out");
  for (const auto& run : s.at("runs")) {
    BOOST_TEST(run.at("status") == "EQUAL", run.at("id"));
    BOOST_TEST(run.at("ran_now").get<bool>() == (run.at("id") == slow), run.at("id"));
  }
  n = executions(dir);
  BOOST_TEST(n[slow] == 2);  // the killed execution and the one of --resume
  for (const std::string& id : quick) BOOST_TEST(n[id] == 1, id);  // never again
  BOOST_TEST(n.size() == 3u);
}

// Random batches through the campaign: every batch EQUAL, and the merged coverage.json equals the
// coverage of the same seeds run as one `moesim random` (hits summed over the batches).
BOOST_AUTO_TEST_CASE(campaign_random_batches_merge_their_coverage) {
  const fs::path dir = workdir("random_batches");
  write_spec(dir, "runs:\n  - random: {seed: 40, count: 12, batch: 5}\n    machines: [tiny]\n");
  const CliResult r = moesim_cli("campaign campaign.yaml --jobs 2 --out out", dir);
  BOOST_TEST(r.code == 0, r.out << r.err);
  const auto s = summary_of(dir / "out");
  BOOST_TEST(s.at("runs").size() == 3u);
  BOOST_TEST(run_named(s, "tiny.random.s50-51").at("status") == "EQUAL");
  BOOST_TEST(r.out.find("random programs on tiny: 12 programs in 3 batches") != std::string::npos,
             r.out);
  const CliResult one = moesim_cli(
      "random --cosim --seed 40 --count 12 --machine tiny --quiet --coverage one.json", dir);
  BOOST_TEST_REQUIRE(one.code == 0);
  const auto merged =
      nlohmann::json::parse(slurp(dir / "out" / "coverage.json"))["machines"]["tiny"];
  const auto whole = nlohmann::json::parse(slurp(dir / "one.json"));
  BOOST_TEST(merged.at("programs") == whole.at("programs"));
  BOOST_TEST(merged.at("instructions_retired") == whole.at("instructions_retired"));
  BOOST_TEST(merged.at("cycles") == whole.at("cycles"));
  BOOST_TEST(merged.at("groups").dump() == whole.at("groups").dump());
  BOOST_TEST(merged.at("missing").dump() == whole.at("missing").dump());
}
