// `moesim bench --report`: the JSON shape on the README demo program (--demo), not its timings
// (the figures are measured, never asserted: a timed test would fail on a busy machine).
#include <sys/wait.h>

#include <boost/test/unit_test.hpp>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "moesim_test/cli.hpp"

namespace fs = std::filesystem;
using json = nlohmann::json;

namespace {

using Result = moesim::test::CliResult;
using moesim::test::moesim_cli;
using moesim::test::slurp;
using moesim::test::workdir;

bool is_number(const json& j, const std::string& key) {
  return j.contains(key) && j.at(key).is_number();
}

bool is_count(const json& j, const std::string& key) {
  return j.contains(key) && j.at(key).is_number_unsigned();
}

}  // namespace

BOOST_AUTO_TEST_CASE(bench_demo_report_has_runs_per_engine_and_cosim) {
  const fs::path dir = workdir("bench_demo_report");
  const Result r = moesim_cli("bench --demo --report bench.json", dir);
  BOOST_TEST(r.code == 0);
  std::ifstream in(dir / "bench.json");
  BOOST_REQUIRE(in.good());
  const json j = json::parse(in);
  // The same object is printed on stdout.
  const auto brace = r.out.find("\n{");
  BOOST_REQUIRE(brace != std::string::npos);
  BOOST_TEST(json::parse(r.out.substr(brace + 1)) == j);

  BOOST_REQUIRE(j.contains("runs"));
  BOOST_REQUIRE(j.at("runs").is_array());
  BOOST_REQUIRE(j.at("runs").size() == 1u);
  const json& run = j.at("runs")[0];
  BOOST_TEST(run.at("tokens") == 4);
  BOOST_TEST(is_number(run, "build_seconds"));
  BOOST_TEST(is_count(run, "peak_rss_bytes"));
  BOOST_TEST(run.at("peak_rss_bytes").get<uint64_t>() > 0u);
  for (const char* engine : {"golden", "rtl"}) {
    BOOST_REQUIRE_MESSAGE(run.contains(engine) && run.at(engine).is_object(), engine);
    const json& e = run.at(engine);
    BOOST_TEST(is_number(e, "sim_seconds"), engine);
    BOOST_TEST(is_count(e, "instructions"), engine);
    BOOST_TEST(is_count(e, "cycles"), engine);
    BOOST_TEST(is_number(e, "cycles_per_second"), engine);
    BOOST_TEST(e.size() == 4u, engine);
  }
  // The README demo program: 29,729 instructions, 106,570 cycles on both engines.
  BOOST_TEST(run.at("golden").at("instructions") == run.at("rtl").at("instructions"));
  BOOST_TEST(run.at("golden").at("cycles") == run.at("rtl").at("cycles"));
  BOOST_TEST(run.at("golden").at("instructions").get<uint64_t>() > 0u);
  BOOST_REQUIRE(run.contains("cosim"));
  const json& c = run.at("cosim");
  BOOST_TEST(is_number(c, "sim_seconds"));
  BOOST_TEST(is_number(c, "overhead"));
  BOOST_TEST(c.at("verdict") == "EQUAL");
}

BOOST_AUTO_TEST_CASE(bench_bad_flags_exit_2_naming_the_flag) {
  const fs::path dir = workdir("bench_bad_flags");
  const Result missing = moesim_cli("bench --demo --report no/such/dir/b.json", dir);
  BOOST_TEST(missing.code == 2);
  BOOST_TEST(missing.err.find("--report") != std::string::npos);
  const Result zero = moesim_cli("bench --token-counts 0 --engine golden", dir);
  BOOST_TEST(zero.code == 2);
  BOOST_TEST(zero.err.find("--token-counts") != std::string::npos);
  const Result both = moesim_cli("bench --demo --model gpt-oss-20b", dir);
  BOOST_TEST(both.code == 2);
  BOOST_TEST(both.err.find("--demo") != std::string::npos);
}
