// `moesim campaign`: runs the runs of a spec through an executor and merges their results
// (docs/campaigns.md).
#pragma once

#include <filesystem>
#include <ostream>
#include <string>
#include <vector>

#include "moesim/campaign/executor.hpp"
#include "moesim/campaign/spec.hpp"

namespace moesim::campaign {

struct CampaignOptions {
  std::string spec_path;
  std::filesystem::path out;   ///< DIR
  bool resume = false;         ///< complete the campaign already in DIR
  std::string moesim;          ///< the moesim executable the runs call (absolute)
  std::string executor_words;  ///< how the executor was asked for (summary.json)
};

/// Result of one run, read back from its folder.
struct RunResult {
  std::string id, where, command;
  std::string status;    ///< EQUAL, MISMATCH, STOPPED, FAILED, BAD INPUT, NOT FINISHED
  std::string reason;    ///< for anything but EQUAL: why (a log line, the executor's reason)
  int exit_code = -1;    ///< of `moesim cosim`; -1 when it did not finish
  bool ran_now = false;  ///< run by this invocation (not an earlier one)
  std::string verdict;   ///< report.json verdict ("" without a report)
  uint64_t instructions = 0, golden_cycles = 0, rtl_cycles = 0;
  double wall_time_s = 0;
  std::string report_digest;  ///< FNV-1a 64 of report.json without its timing fields
};

/// Prepares DIR (a new campaign, or with `resume` the one already there, which must hold the same
/// runs), runs every run not finished yet, and writes DIR/summary.json, DIR/junit.xml and the
/// console table to `os`. Returns the exit code: 0 every run EQUAL, 2 when a run met bad input,
/// 1 otherwise. Bad input of the campaign itself throws UsageError.
int run_campaign(const CampaignOptions& options, const std::vector<Run>& runs, Executor& executor,
                 std::ostream& os);

/// The result of a finished or unfinished run folder (no reason from an executor).
RunResult read_result(const Run& run, const std::filesystem::path& dir, const std::string& moesim);

}  // namespace moesim::campaign
