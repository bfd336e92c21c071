// Program flags shared by cosim, run and bench: which program runs (the generated MoE layer of a
// model preset, or --program FILE) on which machine preset, and the progress line of long runs.
// Internal to the moesim executable.
#pragma once

#include <unistd.h>

#include <CLI/CLI.hpp>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "command.hpp"
#include "moesim/isa/program.hpp"
#include "moesim/isa/spec.hpp"
#include "moesim/workload/builder.hpp"
#include "moesim/workload/presets.hpp"

namespace moesim::cli {

struct ProgramFlags {
  std::string model = "gpt-oss-20b";
  std::string machine = "default";
  unsigned tokens = 4;
  unsigned hidden = 0;
  unsigned intermediate = 0;
  bool shared = false;
  unsigned shared_intermediate = 0;
  std::string topk_policy = "auto";
  std::string lowering = "pair";
  uint64_t seed = 1;
  uint64_t max_instructions = 2000000;
  double progress_after = 2.0;  ///< seconds before the progress line (on a terminal only)
  std::string asm_out;
  std::string plant_fault;
  std::string program_file;
  CLI::Option* hidden_opt = nullptr;
  CLI::Option* intermediate_opt = nullptr;
};

void add_progress_flag(CLI::App* app, ProgramFlags& f);
void add_program_flags(CLI::App* app, ProgramFlags& f);

/// The program to run, its initial memories and the spec objects it was built for. `built`
/// (and `model`) are set for the generated MoE layer, not for --program.
struct Workload {
  const isa::MachinePreset* preset = nullptr;
  std::optional<workload::ModelPreset> model;
  std::vector<std::string> ignored_config_keys;  ///< config.json keys accepted without effect
  std::optional<workload::BuiltProgram> built;
  isa::Program program;
  isa::MemoryImage program_image;  ///< --program: the initial memories (all zero today)
  /// The initial memories: the built layer's image (not copied: it is 680 MB at full size) or
  /// program_image.
  const isa::MemoryImage& image() const { return built ? built->image : program_image; }
  std::string name;
};

Workload make_workload(const isa::Spec& spec, const ProgramFlags& f);

/// "gpt-oss-20b T=4 H=128 I=128 E=32 k=4 seed=1 machine=default" or "FILE machine=default".
std::string describe(const Workload& w, const ProgramFlags& f);

/// "\r[moesim] ..." on stderr, at most every 250 ms, once a run has taken `after_s` seconds;
/// only when stderr is a terminal.
class Progress {
 public:
  explicit Progress(double after_s) : enabled_(isatty(STDERR_FILENO) != 0), after_s_(after_s) {}
  void operator()(uint64_t retired, uint64_t cycles) {
    if (!enabled_) return;
    const auto now = Clock::now();
    const double t = std::chrono::duration<double>(now - start_).count();
    if (t < after_s_ || now - last_ < std::chrono::milliseconds(250)) return;
    last_ = now;
    std::fprintf(stderr, "\r[moesim] %llu instructions, %llu cycles, %.0f instr/s   ",
                 static_cast<unsigned long long>(retired), static_cast<unsigned long long>(cycles),
                 static_cast<double>(retired) / t);
    std::fflush(stderr);
    printed_ = true;
  }
  void done() {
    if (printed_) std::fputc('\n', stderr);
    printed_ = false;
  }

 private:
  bool enabled_;
  double after_s_;
  bool printed_ = false;
  Clock::time_point start_ = Clock::now();
  Clock::time_point last_ =
      start_ - std::chrono::milliseconds(250);  // the first line is not held back
};

/// The builder's matrix-unit utilisation per part (routed, shared).
/// `stopped_after`: the run ended early (divergence, limit) after this many retired instructions.
void print_utilisation(std::ostream& os, const Workload& w,
                       std::optional<uint64_t> stopped_after = std::nullopt);

nlohmann::json context_json(const isa::Spec& spec, const ProgramFlags& f, const Workload& w);

/// The one error line of a run stopped by --max-instructions; returns the exit code.
int limit_error(const ProgramFlags& f);

}  // namespace moesim::cli
