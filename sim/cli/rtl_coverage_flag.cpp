// `--rtl-coverage DIR` (rtl_coverage_flag.hpp).
#include "rtl_coverage_flag.hpp"

#include <iostream>

#include "cli_output.hpp"
#include "command.hpp"
#include "moesim/cosim/engines.hpp"

namespace moesim::cli {
namespace {

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
  sub->add_option("--rtl-coverage", dir,
                  "write the RTL's line, branch, toggle and cover-property counts into DIR, one "
                  ".dat file per process (a build configured with -DMOESIM_RTL_COVERAGE=ON; "
                  "moesim coverage DIR merges them; docs/coverage.md)");
}

int with_rtl_coverage(const std::string& dir, const std::function<int()>& run) {
  if (dir.empty()) return run();
  if (cosim::rtl_coverage_presets().empty())
    throw UsageError(
        "--rtl-coverage: this moesim was built without RTL coverage; configure a build folder "
        "of its own with -DMOESIM_RTL_COVERAGE=ON (docs/coverage.md)");
  int rc = 0;
  try {
    rc = run();
  } catch (...) {
    try {
      write(dir);
    } catch (const std::exception& e) {
      std::cerr << "moesim: error: " << printable(e.what()) << '\n';
    }
    throw;
  }
  write(dir);
  return rc;
}

}  // namespace moesim::cli
