// Shared by the moesim subcommands (internal to the moesim executable): exit codes, the error
// mapping of bad input, and how a subcommand registers itself (one file per subcommand).
#pragma once

#include <CLI/CLI.hpp>
#include <charconv>
#include <chrono>
#include <cstdint>
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

#include "moesim/isa/spec.hpp"
#include "moesim/isa/usage_error.hpp"

namespace moesim::cli {

using Clock = std::chrono::steady_clock;

constexpr int kExitEqual = 0;
constexpr int kExitMismatch = 1;
constexpr int kExitUsage = 2;

/// Runs `f`; an exception of type E it throws (a file that cannot be read or written, a bad
/// assembly line) becomes a UsageError (exit 2) whose message starts with `prefix`.
template <class E = std::runtime_error, class F>
auto bad_input_of(const std::string& prefix, F&& f) -> decltype(f()) {
  try {
    return f();
  } catch (const E& e) {
    throw UsageError(prefix + e.what());
  }
}

inline double seconds_since(Clock::time_point t0) {
  return std::chrono::duration<double>(Clock::now() - t0).count();
}

/// Rejects a negative value for an unsigned option (which would otherwise wrap around) and a
/// decimal number beyond 64 bits (which CLI11 would saturate to 2^64 - 1 without a word).
inline const CLI::Validator kNotNegative(
    [](std::string& v) {
      if (!v.empty() && v[0] == '-') return "must not be negative, got " + v;
      uint64_t n = 0;
      const auto [end, ec] = std::from_chars(v.data(), v.data() + v.size(), n);
      if (ec == std::errc::result_out_of_range)
        return "is out of range (at most 18446744073709551615), got " + v;
      return std::string();
    },
    "");

/// The --help groups of the flags (and positional arguments) that name files: "Input files" are
/// read, "Output files" written. Every such flag is put in its group with reads() or writes(),
/// and the command registers its paths in its PathGuard (path_guard.hpp). The hidden command
/// `moesim help-files` lists the groups for scripts: the bad-input corpus generates an output
/// guard case for every pair of them (docs/fuzzing.md, The bad-input corpus).
inline constexpr const char* kInputFiles = "Input files";
inline constexpr const char* kOutputFiles = "Output files";

/// Puts `o` in the "Input files" group, its value named `type` in --help: FILE, DIR, or the
/// syntax of a value that holds a path (NAME|FILE: a preset name or a file; DIR|FILE;
/// SPACE=FILE[@OFFSET]). A type without FILE names a directory.
inline CLI::Option* reads(CLI::Option* o, const std::string& type = "FILE") {
  return o->group(kInputFiles)->type_name(type);
}

/// Puts `o` in the "Output files" group, its value named `type` (FILE, or DIR for a directory
/// the command writes files into).
inline CLI::Option* writes(CLI::Option* o, const std::string& type = "FILE") {
  return o->group(kOutputFiles)->type_name(type);
}

/// A subcommand registered on the CLI11 app: `run` executes it once the command line has parsed
/// and `app` names it. Its flags live in the closure.
struct Subcommand {
  CLI::App* app = nullptr;
  std::function<int(const isa::Spec&)> run;
};

/// The command line moesim was started with (argv), for the provenance of reports.
const std::vector<std::string>& command_line();
void set_command_line(int argc, char** argv);

Subcommand add_cosim(CLI::App& app);        ///< cmd_cosim.cpp
Subcommand add_run(CLI::App& app);          ///< cmd_run.cpp
Subcommand add_bench(CLI::App& app);        ///< cmd_bench.cpp
Subcommand add_conformance(CLI::App& app);  ///< cmd_conformance.cpp
Subcommand add_asm(CLI::App& app);          ///< cmd_asm.cpp
Subcommand add_disasm(CLI::App& app);       ///< cmd_asm.cpp
Subcommand add_random(CLI::App& app);       ///< cmd_random.cpp
Subcommand add_campaign(CLI::App& app);     ///< cmd_campaign.cpp
Subcommand add_deploy(CLI::App& app);       ///< cmd_deploy.cpp
Subcommand add_route_trace(CLI::App& app);  ///< cmd_route_trace.cpp
Subcommand add_checkpoint(CLI::App& app);   ///< cmd_checkpoint.cpp
Subcommand add_coverage(CLI::App& app);     ///< cmd_coverage.cpp

}  // namespace moesim::cli
