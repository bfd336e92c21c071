// The local executor: up to J run.sh processes at a time (executor.hpp).
#include <signal.h>

#include <array>
#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <set>

#include "moesim/campaign/executor.hpp"
#include "moesim/campaign/process.hpp"

namespace moesim::campaign {

namespace {

/// The signal (SIGINT, SIGTERM, SIGHUP) that asked the campaign to stop, 0 while none did.
volatile std::sig_atomic_t g_stop = 0;
extern "C" void on_stop_signal(int sig) { g_stop = sig; }

/// While alive, SIGINT, SIGTERM and SIGHUP set g_stop instead of ending the process; the old
/// dispositions come back when it goes.
class StopSignals {
 public:
  StopSignals() {
    g_stop = 0;
    struct sigaction sa {};
    sa.sa_handler = on_stop_signal;
    sigemptyset(&sa.sa_mask);
    for (size_t i = 0; i < kSignals.size(); ++i) sigaction(kSignals[i], &sa, &old_[i]);
  }
  ~StopSignals() {
    for (size_t i = 0; i < kSignals.size(); ++i) sigaction(kSignals[i], &old_[i], nullptr);
  }
  StopSignals(const StopSignals&) = delete;
  StopSignals& operator=(const StopSignals&) = delete;

 private:
  static constexpr std::array<int, 3> kSignals = {SIGINT, SIGTERM, SIGHUP};
  std::array<struct sigaction, 3> old_{};
};

class LocalExecutor : public Executor {
 public:
  explicit LocalExecutor(unsigned jobs) : jobs_(jobs == 0 ? 1 : jobs) {}
  std::string name() const override { return "local"; }

  std::map<std::string, std::string> run(
      const std::vector<Task>& tasks,
      const std::function<void(const std::string&)>& done) override {
    std::map<std::string, std::string> failed;
    std::map<int, const Task*> running;
    size_t next = 0;
    // Each run.sh leads its own process group (run.sh and its moesim): a campaign asked to stop
    // by a signal stops them all, then ends by that signal; --resume runs them again.
    StopSignals signals;
    while (next < tasks.size() || !running.empty()) {
      while (next < tasks.size() && running.size() < jobs_ && !g_stop) {
        const Task& t = tasks[next++];
        try {
          running[spawn({"/bin/sh", (t.dir / "run.sh").string()}, true)] = &t;
        } catch (const std::exception& e) {
          failed[t.id] = e.what();
        }
      }
      if (running.empty() && !g_stop) continue;
      int status = 0;
      const int pid = running.empty() ? -1 : wait_any(status, &g_stop);
      if (pid < 0) {
        const int sig = g_stop;
        for (const auto& [group, task] : running) kill(-group, SIGTERM);
        for (size_t n = running.size(); n > 0; --n) wait_any(status);
        std::signal(sig, SIG_DFL);
        std::raise(sig);
        std::_Exit(128 + sig);  // not reached: the default action of sig ends the process
      }
      const auto it = running.find(pid);
      if (it == running.end()) continue;
      const Task& t = *it->second;
      running.erase(it);
      if (std::filesystem::exists(t.dir / "exit_code"))
        done(t.id);
      else
        failed[t.id] = status > 128 ? "run.sh was killed by signal " + std::to_string(status - 128)
                                    : "run.sh ended (status " + std::to_string(status) +
                                          ") without recording an exit code";
    }
    return failed;
  }

 private:
  size_t jobs_;
};

}  // namespace

std::unique_ptr<Executor> make_local_executor(unsigned jobs) {
  return std::make_unique<LocalExecutor>(jobs);
}

}  // namespace moesim::campaign
