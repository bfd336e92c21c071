// Shared by the campaign tests: writing a spec, running `moesim campaign`, reading summary.json.
#pragma once

#include <boost/test/unit_test.hpp>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <string>

#include "moesim_test/cli.hpp"

namespace moesim::test {

/// Four quick co-simulations on the `tiny` machine (about a second each).
inline const char* kTinySpec = R"(runs:
  - models: [gpt-oss-20b, qwen1.5-moe-a2.7b]
    machines: [tiny]
    lowerings: [pair, expert]
    tokens: [2]
    hidden: [32]
    intermediate: [32]
)";

// Three runs, the first the slowest (expert-major over 128 experts, several seconds): it is still
// running when the others have finished, so the lost-run tests can kill or cancel it then.
inline const char* kSlowFirstSpec = R"(runs:
  - model: qwen3-30b-a3b
    lowering: expert
    tokens: 2
    hidden: 64
    intermediate: 64
  - models: [gpt-oss-20b]
    machines: [tiny]
    lowerings: [pair, expert]
    tokens: 2
    hidden: 32
    intermediate: 32
)";
inline const char* kSlowRun = "default.qwen3-30b-a3b.routed.expert.s1.t2.h64.i64";
inline const char* kQuickPairRun = "tiny.gpt-oss-20b.routed.pair.s1.t2.h32.i32";
inline const char* kQuickExpertRun = "tiny.gpt-oss-20b.routed.expert.s1.t2.h32.i32";

inline std::filesystem::path write_spec(const std::filesystem::path& dir, const std::string& yaml,
                                        const std::string& name = "campaign.yaml") {
  std::ofstream(dir / name) << yaml;
  return dir / name;
}

inline nlohmann::json summary_of(const std::filesystem::path& out) {
  return nlohmann::json::parse(slurp(out / "summary.json"));
}

/// What must not depend on how a campaign was executed: per run id, status, verdict, exit code,
/// instructions, cycles and the digest of its report (timing fields left out).
inline nlohmann::json results_of(const nlohmann::json& summary) {
  nlohmann::json r = nlohmann::json::array();
  for (const auto& run : summary.at("runs"))
    r.push_back({run.at("id"), run.at("status"), run.at("verdict"), run.at("exit_code"),
                 run.at("instructions"), run.at("cycles"), run.at("report_digest")});
  return r;
}

inline const nlohmann::json& run_named(const nlohmann::json& summary, const std::string& id) {
  for (const auto& run : summary.at("runs"))
    if (run.at("id") == id) return run;
  BOOST_FAIL("no run " << id << " in summary.json");
  return summary;
}

/// A stand-in for the moesim executable (`--moesim` of a campaign) that appends the folder it
/// runs in (the run's folder: run.sh changes into it) and its pid to `dir`/executions.txt, then
/// becomes the real moesim (exec, same pid): every execution of every run is counted.
inline std::filesystem::path counting_moesim(const std::filesystem::path& dir) {
  const std::filesystem::path p = dir / "counting-moesim";
  std::ofstream(p) << "#!/bin/sh\necho \"$(basename \"$PWD\") $$\" >>'"
                   << (dir / "executions.txt").string() << "'\nexec '" << MOESIM_BIN
                   << "' \"$@\"\n";
  std::filesystem::permissions(p, std::filesystem::perms::owner_all);
  return p;
}

/// How many times each run was executed (counting_moesim's log); 0 for a run never started.
inline std::map<std::string, int> executions(const std::filesystem::path& dir) {
  std::map<std::string, int> n;
  std::ifstream in(dir / "executions.txt");
  std::string id, pid;
  while (in >> id >> pid) ++n[id];
  return n;
}

/// The pid of the execution of run `id` logged last by counting_moesim, or 0.
inline int execution_pid(const std::filesystem::path& dir, const std::string& id) {
  std::ifstream in(dir / "executions.txt");
  std::string run;
  int pid = 0, last = 0;
  while (in >> run >> pid)
    if (run == id) last = pid;
  return last;
}

}  // namespace moesim::test
