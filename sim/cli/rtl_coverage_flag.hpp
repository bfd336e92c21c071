// `--rtl-coverage DIR` of cosim, run, conformance and random: the RTL code coverage of a run on
// the coverage build (docs/coverage.md).
#pragma once

#include <CLI/CLI.hpp>
#include <functional>
#include <string>

#include "path_guard.hpp"

namespace moesim::cli {

/// Adds `--rtl-coverage DIR` to `sub`, stored in `dir` (an output directory: command.hpp).
void add_rtl_coverage_flag(CLI::App* sub, std::string& dir);

/// Adds `dir` to the command's output guard `g`: the command calls it with its other files,
/// then, after g.check(), check_rtl_coverage_build().
void guard_rtl_coverage(const std::string& dir, PathGuard& g);

/// With `dir` set, refuses (UsageError, exit 2) a moesim built without RTL coverage. Every
/// command of the flag calls it after its output guard and before it runs anything.
void check_rtl_coverage_build(const std::string& dir);

/// Runs `run` (a subcommand's work, which calls guard_rtl_coverage and
/// check_rtl_coverage_build first); with `dir` set, afterwards writes the coverage of every RTL
/// model the run created into `dir`, one file per process (also when the run throws after
/// check_rtl_coverage_build, before the exception goes on). Says on stderr which file it wrote,
/// or that no instrumented model ran.
int with_rtl_coverage(const std::string& dir, const std::function<int()>& run);

}  // namespace moesim::cli
