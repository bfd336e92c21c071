// Child processes of the campaign executors (POSIX fork/exec; no shell unless asked for).
#pragma once

#include <csignal>
#include <string>
#include <vector>

namespace moesim::campaign {

struct Captured {
  int status = -1;  ///< exit code; 128 + signal when killed; 127 when it could not start
  std::string out, err;
};

/// Runs argv[0] (searched on PATH) with `argv`, waits, and returns its exit status and output.
Captured run_captured(const std::vector<std::string>& argv);

/// Starts `argv` with stdin from /dev/null (stdout and stderr inherited) and returns its pid;
/// with `own_group` the child leads a process group of its own (pgid = pid), so that
/// kill(-pid, sig) reaches it and everything it starts.
int spawn(const std::vector<std::string>& argv, bool own_group = false);

/// Waits for any child; returns its pid and sets `status` (exit code, or 128 + signal). With
/// `stop`, returns -1 as soon as *stop is non-zero (a signal handler sets it; checked every
/// 50 ms, so a signal that arrives at any moment is seen).
int wait_any(int& status, const volatile std::sig_atomic_t* stop = nullptr);

}  // namespace moesim::campaign
