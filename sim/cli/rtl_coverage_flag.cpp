// `--rtl-coverage DIR` (rtl_coverage_flag.hpp).
#include "rtl_coverage_flag.hpp"

#include <iostream>
#include <stdexcept>

#include "cli_output.hpp"
#include "command.hpp"
#include "moesim/cosim/engines.hpp"

namespace moesim::cli {
namespace {

/// Set by check_rtl_coverage_build: the command got past its checks, and with_rtl_coverage
/// writes what its RTL models counted.
bool g_checked = false;

std::string joined(const std::vector<std::string>& v) {
  std::string s;
  for (const std::string& x : v) s += (s.empty() ? "" : ", ") + x;
  return s;
}

void write(const std::string& dir) {
  std::vector<std::string> files;
  try {
    files = cosim::write_rtl_coverage(dir);
  } catch (const std::runtime_error& e) {
    throw UsageError(std::string("--rtl-coverage ") + e.what());
  }
  for (const std::string& f : files) std::cerr << "moesim: RTL coverage written to " << f << '\n';
  if (files.empty())
    std::cerr << "moesim: --rtl-coverage: no RTL model with coverage ran (instrumented: "
              << joined(cosim::rtl_coverage_presets()) << "); no file written\n";
}

}  // namespace

void add_rtl_coverage_flag(CLI::App* sub, std::string& dir) {
  writes(sub->add_option("--rtl-coverage", dir,
                         "write the RTL's line, branch, toggle and cover-property counts into "
                         "DIR, one .dat file per process (a build configured with "
                         "-DMOESIM_RTL_COVERAGE=ON; moesim coverage DIR merges them; "
                         "docs/coverage.md)"),
         "DIR");
}

void guard_rtl_coverage(const std::string& dir, PathGuard& g) {
  g.output_dir("--rtl-coverage " + dir, dir);
}

void check_rtl_coverage_build(const std::string& dir) {
  if (dir.empty()) return;
  if (cosim::rtl_coverage_presets().empty())
    throw UsageError(
        "--rtl-coverage: this moesim was built without RTL coverage; configure a build folder "
        "of its own with -DMOESIM_RTL_COVERAGE=ON (docs/coverage.md)");
  g_checked = true;
}

int with_rtl_coverage(const std::string& dir, const std::function<int()>& run) {
  if (dir.empty()) return run();
  int rc = 0;
  try {
    rc = run();
  } catch (...) {
    // Refused before it ran (bad input, an output over an input): nothing to write.
    if (g_checked) {
      try {
        write(dir);
      } catch (const std::exception& e) {
        std::cerr << "moesim: error: " << printable(e.what()) << '\n';
      }
    }
    throw;
  }
  if (!g_checked)
    throw std::logic_error("--rtl-coverage: the command did not call check_rtl_coverage_build");
  write(dir);
  return rc;
}

}  // namespace moesim::cli
