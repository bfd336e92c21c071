// The local executor: up to J run.sh processes at a time (executor.hpp).
#include <filesystem>
#include <set>

#include "moesim/campaign/executor.hpp"
#include "moesim/campaign/process.hpp"

namespace moesim::campaign {

namespace {

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
    while (next < tasks.size() || !running.empty()) {
      while (next < tasks.size() && running.size() < jobs_) {
        const Task& t = tasks[next++];
        try {
          running[spawn({"/bin/sh", (t.dir / "run.sh").string()})] = &t;
        } catch (const std::exception& e) {
          failed[t.id] = e.what();
        }
      }
      if (running.empty()) continue;
      int status = 0;
      const int pid = wait_any(status);
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
