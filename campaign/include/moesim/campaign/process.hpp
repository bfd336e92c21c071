// Child processes of the campaign executors (POSIX fork/exec; no shell unless asked for).
#pragma once

#include <string>
#include <vector>

namespace moesim::campaign {

struct Captured {
  int status = -1;  ///< exit code; 128 + signal when killed; 127 when it could not start
  std::string out, err;
};

/// Runs argv[0] (searched on PATH) with `argv`, waits, and returns its exit status and output.
Captured run_captured(const std::vector<std::string>& argv);

/// Starts `argv` with stdin from /dev/null (stdout and stderr inherited) and returns its pid.
int spawn(const std::vector<std::string>& argv);

/// Waits for any child; returns its pid and sets `status` (exit code, or 128 + signal).
int wait_any(int& status);

}  // namespace moesim::campaign
