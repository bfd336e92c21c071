// `moesim coverage DIR... [--waivers FILE] [--json FILE] [--html FILE] [--merged FILE]
// [--min-line P] [--min-branch P] [--min-toggle P] [--min-cover P]`: merges the RTL coverage
// files that `--rtl-coverage DIR` runs wrote, applies the waivers and judges each kind against its
// threshold (moesim/coverage/coverage.hpp, docs/coverage.md).
#include <filesystem>
#include <iostream>

#include "cli_output.hpp"
#include "command.hpp"
#include "moesim/coverage/coverage.hpp"
#include "moesim/isa/file_output.hpp"
#include "path_guard.hpp"

namespace moesim::cli {
namespace {

namespace cov = moesim::coverage;

struct CoverageFlags {
  std::vector<std::string> inputs;  ///< folders of .dat files, or .dat files
  std::string waivers;
  std::string json, html, merged;
  cov::Thresholds thresholds;
  bool quiet = false;  ///< the summary and the verdict only, not every uncovered point
};

/// Exit 0 when every kind reaches its threshold and no waiver is stale, 1 otherwise, 2 on bad
/// input.
int cmd_coverage(const CoverageFlags& f) {
  check_output_path("--json", f.json);
  check_output_path("--html", f.html);
  check_output_path("--merged", f.merged);
  PathGuard guard;
  for (const std::string& in : f.inputs)
    if (!std::filesystem::is_directory(in)) guard.input("", in);
  guard.input("--waivers", f.waivers);
  guard.output("--json " + f.json, f.json);
  guard.output("--html " + f.html, f.html);
  guard.output("--merged " + f.merged, f.merged);
  guard.check();
  cov::Data data;
  std::vector<cov::Waiver> waivers;
  try {
    for (const std::string& in : f.inputs) data.read_path(in);
    if (!f.waivers.empty()) waivers = cov::load_waivers(f.waivers);
  } catch (const cov::InputError& e) {
    throw UsageError(e.what());
  }
  const cov::Report r = cov::evaluate(data, waivers, f.thresholds);
  std::string text = cov::to_text(r);
  if (f.quiet) {
    // Keep the table, the stale waivers and the verdict; drop the list of uncovered points.
    const size_t a = text.find("uncovered (");
    const size_t b = text.find("COVERAGE: ");
    if (a != std::string::npos && b != std::string::npos) text.erase(a, b - a);
  }
  std::cout << text;
  if (!f.json.empty()) bad_input_of("--json ", [&] { isa::write_file(f.json, cov::to_json(r)); });
  if (!f.html.empty()) bad_input_of("--html ", [&] { isa::write_file(f.html, cov::to_html(r)); });
  if (!f.merged.empty())
    bad_input_of("--merged ", [&] { isa::write_file(f.merged, data.to_text()); });
  return r.pass() ? kExitEqual : kExitMismatch;
}

}  // namespace

Subcommand add_coverage(CLI::App& app) {
  auto flags = std::make_shared<CoverageFlags>();
  CoverageFlags& f = *flags;
  CLI::App* sub = app.add_subcommand(
      "coverage",
      "merge the RTL coverage files of --rtl-coverage runs and report line, branch, toggle and "
      "cover-property coverage (docs/coverage.md)");
  reads(sub->add_option("inputs", f.inputs, "folders of .dat files (each run's) or .dat files")
            ->required(),
        "DIR|FILE");
  reads(sub->add_option("--waivers", f.waivers,
                        "YAML list of {point, reason}: points (or * patterns) that may stay "
                        "uncovered; a waiver that matches no uncovered point is stale and fails "
                        "the report"));
  writes(sub->add_option("--json", f.json, "write the report as JSON to FILE"));
  writes(
      sub->add_option("--html", f.html, "write the report as a self-contained HTML page to FILE"));
  writes(sub->add_option(
      "--merged", f.merged,
      "write the merged counts as one coverage file (verilator_coverage reads it)"));
  const auto percent = CLI::Range(0.0, 100.0);
  sub->add_option("--min-line", f.thresholds.min[0], "minimum line coverage, percent")
      ->capture_default_str()
      ->check(percent);
  sub->add_option("--min-branch", f.thresholds.min[1], "minimum branch coverage, percent")
      ->capture_default_str()
      ->check(percent);
  sub->add_option("--min-toggle", f.thresholds.min[2], "minimum toggle coverage, percent")
      ->capture_default_str()
      ->check(percent);
  sub->add_option("--min-cover", f.thresholds.min[3],
                  "minimum share of cover properties hit, percent")
      ->capture_default_str()
      ->check(percent);
  sub->add_flag("--quiet", f.quiet, "print the summary and the verdict, not every uncovered point");
  return {sub, [flags](const isa::Spec&) { return cmd_coverage(*flags); }};
}

}  // namespace moesim::cli
