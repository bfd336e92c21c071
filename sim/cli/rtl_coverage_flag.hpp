// `--rtl-coverage DIR` of cosim, run, conformance and random: the RTL code coverage of a run on
// the coverage build (docs/coverage.md).
#pragma once

#include <CLI/CLI.hpp>
#include <functional>
#include <string>

namespace moesim::cli {

/// Adds `--rtl-coverage DIR` to `sub`, stored in `dir`.
void add_rtl_coverage_flag(CLI::App* sub, std::string& dir);

/// Runs `run` (a subcommand's work); with `dir` set, first checks that this moesim was built with
/// RTL coverage (else UsageError, exit 2) and afterwards writes the coverage of every RTL model
/// the run created into `dir`, one file per process (also when the run throws, before the
/// exception goes on). Says on stderr which file it wrote, or that no instrumented model ran.
int with_rtl_coverage(const std::string& dir, const std::function<int()>& run);

}  // namespace moesim::cli
