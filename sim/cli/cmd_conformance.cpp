// `moesim conformance`: runs the ISA conformance suite (moesim/conformance/conformance.hpp) on one
// or both engines.
#include <boost/property_tree/ptree.hpp>
#include <boost/property_tree/xml_parser.hpp>
#include <chrono>
#include <fstream>
#include <iostream>
#include <map>
#include <set>
#include <sstream>

#include "cli_output.hpp"
#include "command.hpp"
#include "moesim/conformance/conformance.hpp"
#include "moesim/cosim/engines.hpp"
#include "moesim/isa/engine.hpp"
#include "moesim/isa/file_output.hpp"
#include "moesim/workload/presets.hpp"
#include "path_guard.hpp"
#include "rtl_coverage_flag.hpp"

namespace moesim::cli {
namespace {

namespace conf = moesim::conformance;

struct ConformanceFlags {
  std::string engine = "both";  ///< golden | rtl | both
  std::string suite;            ///< empty: the compiled-in testbenches/conformance
  std::string filter;           ///< regex on "<MNEMONIC>/<case>"
  std::string machine = "default";
  std::string junit;  ///< JUnit XML output path
  /// Coverage items (as printed) whose absence does not fail the run, added to the suite's
  /// waivers.yaml. An item that isa.yaml does not declare is an error.
  std::vector<std::string> waive;
  bool quiet = false;  ///< only failures and the summary
};

struct EngineRun {
  std::string engine;
  std::vector<conf::Outcome> outcomes;
  std::vector<double> seconds;
  conf::Coverage coverage;
  size_t failed = 0;
};

/// Coverage counts of `run`; the list of items not covered unless `list_missing` is false.
void print_coverage(const EngineRun& run, bool list_missing,
                    const std::map<std::string, std::string>& waived) {
  auto count = [](const std::vector<conf::Coverage::Item>& items) {
    size_t n = 0;
    for (const auto& i : items) n += i.covered ? 1 : 0;
    return std::to_string(n) + "/" + std::to_string(items.size());
  };
  std::cout << "coverage (" << run.engine << "): opcodes " << count(run.coverage.opcodes)
            << ", forms " << count(run.coverage.forms) << ", traps " << count(run.coverage.traps)
            << '\n';
  const auto missing = run.coverage.missing();
  if (list_missing && !missing.empty()) {
    std::cout << "  not covered (" << missing.size() << "):";
    for (const auto& m : missing)
      std::cout << "\n    " << m << (waived.count(m) ? "  (waived)" : "");
    std::cout << '\n';
  }
}

/// A suite-level finding that is a failure of the run without being a case: an unwaived
/// coverage gap or a stale waiver. JUnit lists it as a failing testcase, so the XML fails
/// exactly when the exit code does.
struct Finding {
  std::string engine, classname, name, message;
};

void write_junit(const std::string& path, const std::vector<conf::Case>& cases,
                 const std::vector<conf::Case>& malformed, size_t skipped,
                 const std::vector<EngineRun>& runs, const std::vector<Finding>& findings) {
  namespace pt = boost::property_tree;
  // One <testcase> of `suite`, classname "conformance.<engine>.<group>".
  const auto testcase = [](pt::ptree& suite, const std::string& engine, const std::string& group,
                           const std::string& name, double time) -> pt::ptree& {
    pt::ptree& tc = suite.add("testcase", "");
    tc.put("<xmlattr>.classname", "conformance." + engine + "." + group);
    tc.put("<xmlattr>.name", name);
    tc.put("<xmlattr>.time", time);
    return tc;
  };
  pt::ptree root;
  pt::ptree& suites = root.add("testsuites", "");
  for (const EngineRun& run : runs) {
    pt::ptree& suite = suites.add("testsuite", "");
    size_t failures = run.failed, tests = cases.size() + malformed.size() + skipped;
    double time = 0;
    for (double s : run.seconds) time += s;
    for (const Finding& f : findings) {
      if (f.engine != run.engine) continue;
      ++failures;
      ++tests;
    }
    suite.put("<xmlattr>.name", "conformance." + run.engine);
    suite.put("<xmlattr>.tests", tests);
    suite.put("<xmlattr>.failures", failures);
    suite.put("<xmlattr>.errors", malformed.size());
    suite.put("<xmlattr>.skipped", skipped);
    suite.put("<xmlattr>.time", time);
    for (size_t i = 0; i < cases.size(); ++i) {
      pt::ptree& tc = testcase(suite, run.engine, cases[i].mnemonic, cases[i].name, run.seconds[i]);
      const conf::Outcome& o = run.outcomes[i];
      if (o.pass) continue;
      std::string text;
      for (const auto& f : o.failures) text += f + "\n";
      pt::ptree& fail = tc.add("failure", text);
      fail.put("<xmlattr>.message", o.failures.front());
    }
    for (const conf::Case& c : malformed) {
      testcase(suite, run.engine, c.mnemonic, c.name, 0.0)
          .add("error", c.error)
          .put("<xmlattr>.message", c.error);
    }
    for (const Finding& f : findings) {
      if (f.engine != run.engine) continue;
      testcase(suite, run.engine, f.classname, f.name, 0.0)
          .add("failure", f.message)
          .put("<xmlattr>.message", f.message);
    }
    if (skipped != 0) {
      testcase(suite, run.engine, "other_machines",
               std::to_string(skipped) + " cases of other machine presets", 0.0)
          .add("skipped", "")
          .put("<xmlattr>.message", "written for another --machine");
    }
  }
  std::ostringstream xml;
  pt::write_xml(xml, root, pt::xml_writer_make_settings<std::string>(' ', 2));
  bad_input_of("--junit ", [&] { isa::write_file(path, xml.str()); });
}

/// Exit code 0 when every selected case passes on every engine run and (without --filter) the
/// suite covers everything isa.yaml declares but the waived items, and no waiver is stale; 1
/// otherwise. Bad input throws UsageError.
int cmd_conformance(const isa::Spec& spec, const ConformanceFlags& f,
                    const std::string& rtl_coverage) {
  check_output_path("--junit", f.junit);
  const isa::MachinePreset& preset = machine_preset(spec, f.machine);
  const std::filesystem::path suite =
      f.suite.empty() ? conf::default_suite() : std::filesystem::path(f.suite);
  if (std::error_code ec; !std::filesystem::is_directory(suite, ec))
    throw UsageError(
        f.suite.empty()
            ? "the built-in suite " + suite.string() +
                  " is not a directory (the source tree moved?); give one with --suite DIR"
            : "--suite " + f.suite + ": not a directory");
  // Outputs never overwrite inputs: the JUnit file and the coverage folder may not lie inside
  // the suite (a file there would be read as part of it).
  PathGuard guard;
  guard.input_dir(f.suite.empty() ? "the built-in suite" : "--suite", suite);
  guard.output("--junit " + f.junit, f.junit);
  guard_rtl_coverage(rtl_coverage, guard);
  guard.check();
  check_rtl_coverage_build(rtl_coverage);
  // Documented gaps (waivers.yaml) and --waive items, checked against isa.yaml before running.
  std::map<std::string, std::string> waived;
  for (const conf::Waiver& w : conf::load_waivers(spec, suite)) waived[w.item] = w.reason;
  const std::set<std::string> items = conf::coverage(spec, {}, {}).names();
  for (const std::string& w : f.waive) {
    if (items.count(w) == 0) throw UsageError("--waive '" + w + "': no such coverage item");
    waived.emplace(w, "--waive");
  }
  std::vector<conf::Case> all = conf::load_suite(spec, suite, f.filter);
  std::vector<conf::Case> cases, malformed;
  for (auto& c : all) {
    if (!c.error.empty())
      malformed.push_back(std::move(c));
    else if (c.machine == f.machine)
      cases.push_back(std::move(c));
  }
  const size_t other = all.size() - cases.size() - malformed.size();
  for (const conf::Case& c : malformed)
    std::cerr << "moesim: error: " << printable(c.error) << '\n';
  if (cases.empty() && malformed.empty())
    throw UsageError("no selected case is written for --machine " + f.machine);

  std::vector<std::string> engines;
  if (f.engine == "golden" || f.engine == "both") engines.push_back("golden");
  if (f.engine == "rtl" || f.engine == "both") engines.push_back("rtl");
  if (engines.back() == "rtl") cli::check_rtl_preset(spec, f.machine);

  std::vector<EngineRun> runs;
  for (const std::string& name : engines) {
    auto engine = name == "golden" ? cosim::make_golden_engine(spec, preset)
                                   : cosim::make_rtl_engine(spec, preset);
    EngineRun run;
    run.engine = name;
    for (const conf::Case& c : cases) {
      const auto t0 = Clock::now();
      run.outcomes.push_back(conf::run_case(spec, *engine, c));
      run.seconds.push_back(std::chrono::duration<double>(Clock::now() - t0).count());
      const conf::Outcome& o = run.outcomes.back();
      if (!o.pass) ++run.failed;
      if (f.quiet && o.pass) continue;
      std::cout << (o.pass ? "PASS " : "FAIL ") << name << ' ' << c.name << "  (" << o.retired
                << " retired, " << o.cycles << " cycles)\n";
      for (const auto& line : o.failures) std::cout << "       " << line << '\n';
    }
    run.coverage = conf::coverage(spec, cases, run.outcomes);
    runs.push_back(std::move(run));
  }

  bool ok = true;
  bool gaps = false;  // an unwaived coverage gap failed the run
  std::vector<Finding> findings;
  std::cout << '\n';
  for (size_t i = 0; i < runs.size(); ++i) {
    const EngineRun& run = runs[i];
    std::cout << run.engine << ": " << cases.size() - run.failed << " passed, " << run.failed
              << " failed of " << cases.size() << " cases\n";
    // The second engine's gaps are listed only where they differ from the first's.
    print_coverage(
        run, !f.quiet && (i == 0 || run.coverage.missing() != runs[0].coverage.missing()), waived);
    ok = ok && run.failed == 0;
    for (const std::string& m : run.coverage.missing())
      if (f.filter.empty() && waived.count(m) == 0) {
        ok = false;
        gaps = true;
        findings.push_back({run.engine, "coverage", m,
                            m + " is not covered by any passing case (add a case, or --waive)"});
      }
  }
  // A waiver for an item the whole suite now covers is stale: the suite must drop it.
  if (f.filter.empty()) {
    for (const auto& [item, reason] : waived) {
      bool missing = false;
      for (const EngineRun& run : runs)
        for (const std::string& m : run.coverage.missing()) missing = missing || m == item;
      if (!missing) {
        std::cout << "stale waiver: '" << item << "' is covered now; remove it\n";
        ok = false;
        for (const EngineRun& run : runs)
          findings.push_back({run.engine, "waiver", item,
                              "stale waiver: '" + item + "' is covered now; remove it"});
      }
    }
  }
  if (!f.quiet)
    for (const auto& [item, reason] : waived)
      std::cout << "waived: " << item << ": " << reason << '\n';
  if (other != 0) std::cout << other << " case(s) written for other machine presets were not run\n";
  if (!f.filter.empty()) std::cout << "--filter given: coverage gaps do not fail the run\n";
  if (gaps)
    std::cout << "coverage gaps fail a run of the whole suite: add cases for the items not "
                 "covered, select cases with --filter, or waive items with --waive\n";
  if (!malformed.empty())
    std::cout << malformed.size() << " malformed case(s) were not run (listed on stderr)\n";
  if (!f.junit.empty()) write_junit(f.junit, cases, malformed, other, runs, findings);
  std::cout << "CONFORMANCE: " << (ok && malformed.empty() ? "PASS" : "FAIL") << '\n';
  return !malformed.empty() ? kExitUsage : ok ? kExitEqual : kExitMismatch;
}

}  // namespace

Subcommand add_conformance(CLI::App& app) {
  auto flags = std::make_shared<ConformanceFlags>();
  ConformanceFlags& kf = *flags;
  CLI::App* sub = app.add_subcommand(
      "conformance", "run the ISA conformance suite (testbenches/conformance) on golden/rtl");
  sub->add_option("--engine", kf.engine, "golden, rtl or both")
      ->capture_default_str()
      ->check(CLI::IsMember({"golden", "rtl", "both"}));
  sub->add_option("--filter", kf.filter, "only cases whose MNEMONIC/case matches this regex");
  reads(sub->add_option("--suite", kf.suite,
                        "suite directory (default: " + conformance::default_suite().string() + ")"),
        "DIR");
  sub->add_option("--machine", kf.machine, "run the cases written for this machine preset")
      ->capture_default_str();
  writes(sub->add_option("--junit", kf.junit, "write JUnit XML to FILE"));
  sub->add_option("--waive", kf.waive,
                  "a coverage item (as printed) whose absence does not fail the run; repeatable")
      ->allow_extra_args(false);
  sub->add_flag("--quiet", kf.quiet, "print failures and the summary only");
  auto rtl_cov = std::make_shared<std::string>();
  add_rtl_coverage_flag(sub, *rtl_cov);
  return {sub, [flags, rtl_cov](const isa::Spec& spec) {
            return with_rtl_coverage(*rtl_cov,
                                     [&] { return cmd_conformance(spec, *flags, *rtl_cov); });
          }};
}

}  // namespace moesim::cli
