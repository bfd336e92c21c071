// `moesim cosim --windows W [--executor local|slurm] [--jobs J]` (windowed co-simulation in W
// processes or Slurm array tasks from golden checkpoints) and `--from-retire A [--to-retire B]` /
// `--from-checkpoint F` (one window in this process): docs/checkpoints.md. Internal to the moesim
// executable; cmd_cosim.cpp calls it.
#pragma once

#include <CLI/CLI.hpp>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "executor_flags.hpp"
#include "moesim/cosim/cosim.hpp"
#include "moesim/cosim/fault.hpp"
#include "moesim/cosim/window.hpp"
#include "moesim/isa/checkpoint.hpp"
#include "moesim/isa/engine.hpp"
#include "output_flags.hpp"
#include "program_flags.hpp"

namespace moesim::cli {

/// The most windows `cosim --windows` cuts a run into (campaign specs are held to it too).
constexpr unsigned kMaxWindows = 100000;

struct WindowFlags {
  unsigned windows = 0;        ///< 0 or 1: one process
  ExecutorFlags exec;          ///< where the windows run
  std::string checkpoint_dir;  ///< keep checkpoints and window results here
  uint64_t from_retire = 0, to_retire = 0;
  std::string from_checkpoint, to_checkpoint, window_result;
  bool window_last = false;
  CLI::Option* from_opt = nullptr;
  CLI::Option* to_opt = nullptr;
  CLI::App* app = nullptr;  ///< the cosim subcommand (its parsed flags repeat in windows)

  bool windowed() const { return windows > 1; }
  bool focused() const {
    return (from_opt && *from_opt) || !from_checkpoint.empty() || (to_opt && *to_opt);
  }
};

void add_window_flags(CLI::App* sub, WindowFlags& wf);

/// Refuses combinations that windows cannot honour (exit 2 naming the flags).
void check_window_flags(const WindowFlags& wf, const OutputFlags& o);
/// Throws UsageError when `preset` has HBM jitter (HBM_JITTER_SEED != 0, --hbm-jitter) and the
/// run would start or end at a checkpoint (--windows, --from-retire, --to-retire,
/// --from-checkpoint): a checkpoint holds no transfer number (docs/overlap.md section 12).
void check_jitter_without_checkpoints(const WindowFlags& wf, const isa::MachinePreset& preset);

/// What cmd_cosim needs after a windowed or focused run: the (merged) result, errors of window
/// end states, and the engines at the end of the run (for --reference; the RTL's end state is
/// the last checkpoint, which its window matched bit for bit).
/// Ends an end-state line (WindowedRun::errors) whose memory space differs, in the window's own
/// golden-vs-RTL comparison, only in units no retire record wrote: as a single run words it.
inline constexpr const char* kNotAnOutputNote = "never written by the program: not an output";

struct WindowedRun {
  cosim::CosimResult result;
  std::vector<std::string> errors;  ///< "window K (retires A..B): ENGINE end state ..."
  std::unique_ptr<isa::Engine> golden, rtl;
  uint64_t first_retire = 0;  ///< the run starts at this retire (focused: A)
  /// The window to re-run, set on a mismatch: retires [failing_from, failing_to), or to the
  /// program's end without failing_to (no later boundary with an empty DMA queue).
  std::optional<uint64_t> failing_from, failing_to;
  double golden_s = 0;
};

/// Steps the golden model `g`, loaded, to retire `a` (the boundary after `a` instructions),
/// feeding `queue` its records. Throws UsageError naming `flag` and `a` if the program traps or
/// ends first, or if a DMA transfer is pending there (docs/overlap.md section 8: a checkpoint
/// holds no queue state), naming the next boundary with an empty queue.
void run_to_boundary(isa::Engine& g, cosim::QueueWatch& queue, uint64_t a, const std::string& flag);

/// The windowed run (W processes of this executable, J at a time). With `end_engines`, an
/// EQUAL run's WindowedRun::rtl is an RTL restored from the last checkpoint (for --reference and
/// --dump); without, it stays null (making it costs an RTL and a 64 MiB restore in the demo).
WindowedRun run_windowed(const isa::Spec& spec, const Workload& w, const WindowFlags& wf,
                         uint64_t max_instructions, bool quiet, bool end_engines);

/// One window in this process: from --from-retire A (the golden model runs to A first) or
/// --from-checkpoint F, to --to-retire B or the end, with `sinks` and the RTL's FST.
/// --flip-bit flips its bit in that engine's state at the start of the range.
WindowedRun run_focused(const isa::Spec& spec, const Workload& w, const WindowFlags& wf,
                        const cosim::CosimOptions& opts, const std::string& trace_rtl,
                        const std::optional<cosim::BitFlip>& flip);

/// The internal window process (--from-checkpoint A --to-checkpoint B --window-result R):
/// writes R and returns the exit code.
/// --flip-bit applies in the window that starts at retire 0 (the initial image).
int run_window_process(const isa::Spec& spec, const Workload& w, const WindowFlags& wf,
                       size_t history, const std::optional<cosim::BitFlip>& flip);

}  // namespace moesim::cli
