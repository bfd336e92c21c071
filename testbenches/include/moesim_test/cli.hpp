// Running the moesim executable from a test: a fresh work directory per case, the command's
// exit code, stdout and stderr (MOESIM_BIN and MOESIM_TEST_WORK_DIR come from CMake).
#pragma once

#include <sys/wait.h>

#include <boost/test/unit_test.hpp>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace moesim::test {

struct CliResult {
  int code = -1;
  std::string out, err;
};

inline std::string slurp(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

/// A fresh directory for one test case.
inline std::filesystem::path workdir(const std::string& name) {
  const std::filesystem::path d = std::filesystem::path(MOESIM_TEST_WORK_DIR) / name;
  std::filesystem::remove_all(d);
  std::filesystem::create_directories(d);
  return d;
}

/// Runs `moesim <args>` in `dir`, capturing stdout and stderr.
inline CliResult moesim_cli(const std::string& args, const std::filesystem::path& dir) {
  const std::filesystem::path out = dir / "stdout.txt", err = dir / "stderr.txt";
  const std::string cmd = "cd '" + dir.string() + "' && '" + std::string(MOESIM_BIN) + "' " + args +
                          " >'" + out.string() + "' 2>'" + err.string() + "'";
  const int st = std::system(cmd.c_str());
  CliResult r;
  r.code = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
  r.out = slurp(out);
  r.err = slurp(err);
  BOOST_TEST_MESSAGE("moesim " << args << " -> " << r.code << "\n" << r.out << r.err);
  return r;
}

}  // namespace moesim::test
