// Child processes: see process.hpp.
#include "moesim/campaign/process.hpp"

#include <fcntl.h>
#include <poll.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <ctime>
#include <stdexcept>

extern char** environ;

namespace moesim::campaign {

namespace {

std::vector<char*> c_argv(const std::vector<std::string>& argv) {
  std::vector<char*> a;
  for (const std::string& s : argv) a.push_back(const_cast<char*>(s.c_str()));
  a.push_back(nullptr);
  return a;
}

int decode(int wstatus) {
  if (WIFEXITED(wstatus)) return WEXITSTATUS(wstatus);
  if (WIFSIGNALED(wstatus)) return 128 + WTERMSIG(wstatus);
  return -1;
}

}  // namespace

Captured run_captured(const std::vector<std::string>& argv) {
  Captured c;
  int out[2], err[2];
  if (pipe(out) != 0 || pipe(err) != 0)
    throw std::runtime_error("pipe: " + std::string(strerror(errno)));
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_adddup2(&fa, out[1], 1);
  posix_spawn_file_actions_adddup2(&fa, err[1], 2);
  posix_spawn_file_actions_addclose(&fa, out[0]);
  posix_spawn_file_actions_addclose(&fa, err[0]);
  pid_t pid = 0;
  auto a = c_argv(argv);
  const int rc = posix_spawnp(&pid, a[0], &fa, nullptr, a.data(), environ);
  posix_spawn_file_actions_destroy(&fa);
  close(out[1]);
  close(err[1]);
  if (rc != 0) {
    close(out[0]);
    close(err[0]);
    c.status = 127;
    c.err = argv[0] + ": " + strerror(rc);
    return c;
  }
  pollfd fds[2] = {{out[0], POLLIN, 0}, {err[0], POLLIN, 0}};
  std::string* dst[2] = {&c.out, &c.err};
  int open_fds = 2;
  char buf[4096];
  while (open_fds > 0) {
    if (poll(fds, 2, -1) < 0) {
      if (errno == EINTR) continue;
      break;
    }
    for (int i = 0; i < 2; ++i) {
      if (fds[i].fd < 0 || !(fds[i].revents & (POLLIN | POLLHUP | POLLERR))) continue;
      const ssize_t n = read(fds[i].fd, buf, sizeof buf);
      if (n > 0) {
        dst[i]->append(buf, static_cast<size_t>(n));
      } else {
        close(fds[i].fd);
        fds[i].fd = -1;
        --open_fds;
      }
    }
  }
  int ws = 0;
  while (waitpid(pid, &ws, 0) < 0 && errno == EINTR) {
  }
  c.status = decode(ws);
  return c;
}

int spawn(const std::vector<std::string>& argv, bool own_group) {
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
  posix_spawnattr_t at;
  posix_spawnattr_init(&at);
  if (own_group) {
    posix_spawnattr_setflags(&at, POSIX_SPAWN_SETPGROUP);
    posix_spawnattr_setpgroup(&at, 0);
  }
  pid_t pid = 0;
  auto a = c_argv(argv);
  const int rc = posix_spawnp(&pid, a[0], &fa, &at, a.data(), environ);
  posix_spawnattr_destroy(&at);
  posix_spawn_file_actions_destroy(&fa);
  if (rc != 0) throw std::runtime_error("cannot start " + argv[0] + ": " + strerror(rc));
  return pid;
}

int wait_any(int& status, const volatile std::sig_atomic_t* stop) {
  int ws = 0;
  pid_t pid;
  for (;;) {
    if (stop && *stop) return -1;
    pid = waitpid(-1, &ws, stop ? WNOHANG : 0);
    if (pid > 0) break;
    if (pid < 0 && errno != EINTR)
      throw std::runtime_error("waitpid: " + std::string(strerror(errno)));
    if (pid == 0) {
      const timespec nap = {0, 50'000'000};
      nanosleep(&nap, nullptr);
    }
  }
  status = decode(ws);
  return pid;
}

}  // namespace moesim::campaign
