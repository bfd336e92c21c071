// `moesim random` and `moesim cosim --random-seed` as a user runs them (docs/random.md): written
// programs load as conformance cases, one seed co-simulates, bad input exits 2, and the shrinker
// reduces a planted divergence to a handful of instructions.
#define BOOST_TEST_MODULE test_random_cli
#include <boost/test/unit_test.hpp>
#include <filesystem>
#include <regex>

#include "moesim_test/cli.hpp"

using namespace moesim::test;
namespace fs = std::filesystem;

namespace {

/// Instruction lines of an .asm file (not comments, not blank).
size_t instructions(const fs::path& asm_file) {
  std::istringstream in(slurp(asm_file));
  size_t n = 0;
  for (std::string line; std::getline(in, line);) {
    const size_t b = line.find_first_not_of(' ');
    if (b != std::string::npos && line[b] != ';') ++n;
  }
  return n;
}

}  // namespace

BOOST_AUTO_TEST_CASE(written_programs_are_conformance_cases_without_expectation) {
  const fs::path d = workdir("written");
  const CliResult r = moesim_cli("random --seed 10 --count 4 --machine tiny -o progs", d);
  BOOST_TEST_REQUIRE(r.code == 0);
  BOOST_TEST(r.out.find("wrote 4 programs (seeds 10..13") != std::string::npos);
  // As a suite: the conformance loader reads them (init, machine, budget) and, with an
  // expectation appended, runs them: failures of the made-up expectation, never a load error.
  fs::create_directories(d / "suite" / "_global");
  for (int s = 10; s < 14; ++s) {
    const std::string stem = "random_" + std::to_string(s);
    BOOST_TEST_REQUIRE(fs::exists(d / "progs" / (stem + ".asm")));
    const std::string y = slurp(d / "progs" / (stem + ".yaml"));
    BOOST_TEST(y.find("\nexpect:") == std::string::npos);
    fs::copy_file(d / "progs" / (stem + ".asm"), d / "suite" / "_global" / (stem + ".asm"));
    std::ofstream(d / "suite" / "_global" / (stem + ".yaml"))
        << y << "expect: {retired: 0, cycles: 0}\n";
  }
  const CliResult c = moesim_cli("conformance --suite suite --engine golden --machine tiny", d);
  BOOST_TEST(c.code == 1);
  BOOST_TEST(c.err.find("error") == std::string::npos);
  BOOST_TEST(c.out.find("FAIL golden _global/random_10") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(cosim_random_seed_runs_one_program) {
  const fs::path d = workdir("cosim_seed");
  const CliResult r = moesim_cli("cosim --random-seed 3 --machine tiny --quiet", d);
  BOOST_TEST(r.code == 0);
  BOOST_TEST(r.out.find("VERDICT: EQUAL") != std::string::npos);
  BOOST_TEST(moesim_cli("cosim --random-seed 3 --program x.asm", d).code == 2);
  BOOST_TEST(moesim_cli("cosim --mix m.yaml", d).code == 2);  // --mix needs --random-seed
}

BOOST_AUTO_TEST_CASE(bad_input_exits_2) {
  const fs::path d = workdir("bad_input");
  std::ofstream(d / "mix.yaml") << "loops: 1\n";
  const struct {
    std::string args, message;
  } cases[] = {
      {"random --seed 1", "give -o DIR"},
      {"random --cosim --count 0", "--count: must be at least 1"},
      {"random --shrink", "--shrink: give -o DIR"},
      {"random --cosim --mix mix.yaml", "mix.yaml: loops: unknown key"},
      {"random --cosim --mix none.yaml", "none.yaml"},
      {"random --cosim --machine nope", "unknown --machine 'nope'"},
      {"random --plant-divergence V_NOPE", "--plant-divergence V_NOPE: not an instruction"},
      {"random --seed 18446744073709551615 --count 2 --cosim", "run past 2^64 - 1"},
      {"random --cosim --coverage nodir/c.json", "--coverage nodir/c.json"},
  };
  for (const auto& c : cases) {
    const CliResult r = moesim_cli(c.args, d);
    BOOST_TEST(r.code == 2, c.args);
    BOOST_TEST(r.err.find("moesim: error:") == 0u, c.args);
    BOOST_TEST(r.err.find(c.message) != std::string::npos, c.args << ": " << r.err);
  }
}

// The shrinker on a planted divergence (the RTL engine's register writes of V_RED_SUM with bit 0
// flipped): a random program of ~100 instructions shrinks to the instruction that diverges.
// A program that has not ended at --max-instructions, the engines agreeing, is STOPPED (as
// `moesim cosim` says), not a mismatch: exit 2 naming the flag, and its line gives the command
// with the same limit.
BOOST_AUTO_TEST_CASE(budget_stop_is_not_a_mismatch) {
  const fs::path d = workdir("budget_stop");
  const CliResult r =
      moesim_cli("random --cosim --seed 1 --count 2 --machine tiny --max-instructions 3", d);
  BOOST_TEST(r.code == 2, r.out + r.err);
  BOOST_TEST(r.out.find("MISMATCH") == std::string::npos, r.out);
  BOOST_TEST(r.out.find("0 mismatches") != std::string::npos, r.out);
  BOOST_TEST(std::regex_search(r.out, std::regex("STOPPED seed 1 \\(moesim cosim --random-seed 1 "
                                                 "--machine tiny --max-instructions 3\\)")),
             r.out);
  BOOST_TEST(r.err.find("moesim: error:") != std::string::npos, r.err);
  BOOST_TEST(r.err.find("--max-instructions 3") != std::string::npos, r.err);
}

BOOST_AUTO_TEST_CASE(shrink_planted_divergence) {
  const fs::path d = workdir("shrink");
  const CliResult r = moesim_cli(
      "random --seed 1 --count 40 --machine tiny --plant-divergence V_RED_SUM --shrink -o out "
      "--quiet --mix mix.yaml",
      [&] {
        std::ofstream(d / "mix.yaml") << "trap_share: 0\nweights: {V_RED_SUM: 5}\n";
        return d;
      }());
  BOOST_TEST(r.code == 1);
  // The command printed for a mismatch makes the same program: it keeps --mix.
  BOOST_TEST(std::regex_search(r.out, std::regex("MISMATCH seed [0-9]+ \\(moesim cosim "
                                                 "--random-seed [0-9]+ --machine tiny --mix "
                                                 "mix.yaml\\)")),
             r.out);
  std::smatch m;
  const std::regex shrunk("shrunk seed ([0-9]+): ([0-9]+) -> ([0-9]+) instructions");
  BOOST_TEST_REQUIRE(std::regex_search(r.out, m, shrunk));
  const std::string seed = m[1];
  BOOST_TEST(std::stoul(m[2]) > 10u);
  BOOST_TEST(std::stoul(m[3]) <= 2u);
  const fs::path a = d / "out" / ("shrunk_" + seed + ".asm");
  BOOST_TEST_REQUIRE(fs::exists(a));
  BOOST_TEST(instructions(a) == std::stoul(m[3]));
  BOOST_TEST(slurp(a).find("V_RED_SUM") != std::string::npos);
  const std::string y = slurp(d / "out" / ("shrunk_" + seed + ".yaml"));
  BOOST_TEST(y.find("Golden and RTL diverge: first divergence at retire") != std::string::npos);
  BOOST_TEST(y.find("\nexpect:") == std::string::npos);
  // Without the plant the same seed co-simulates equal; one program is "1 program" (it printed
  // "1 programs").
  const auto one = moesim_cli("random --cosim --seed " + seed +
                                  " --count 1 --machine tiny --quiet "
                                  "--mix mix.yaml",
                              d);
  BOOST_TEST(one.code == 0);
  BOOST_TEST(one.out.find(": 1 program, ") != std::string::npos, one.out);
  BOOST_TEST(one.out.find(" 0 mismatches, ") != std::string::npos, one.out);
}
