// The progress line of long runs (cosim, run, bench) and the cheap count of a program's dynamic
// instructions it takes its percent from (docs/progress.md). Internal to the moesim executable.
#pragma once

#include <unistd.h>

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>

#include "command.hpp"
#include "moesim/cosim/timeline.hpp"
#include "moesim/isa/program.hpp"
#include "moesim/isa/spec.hpp"

namespace moesim::cli {

/// Dynamic instructions `p` retires, counted from its loop structure without running it: every
/// instruction counts once per iteration of the C_LOOP_START .. C_LOOP_END loops around it
/// (immediate trip counts). `exact` is false when the program holds a C_BREAK (the count is then
/// an upper bound); nullopt when the loops do not nest properly (a C_LOOP_END without its start,
/// a start left open, or an undecodable word where a loop ends) or the count overflows.
struct InstructionCount {
  uint64_t total = 0;
  bool exact = true;
};
std::optional<InstructionCount> count_dynamic_instructions(const isa::Spec& spec,
                                                           const isa::Program& p);

/// --progress auto|always|never, --progress-after S, --progress-every S.
struct ProgressFlags {
  std::string mode = "auto";
  double after_s = 2.0;   ///< terminal: first line once the run has taken this long
  double every_s = 30.0;  ///< not a terminal: one plain line this often
};

/// Progress on stderr: percent of `total` (when known), ETA, the stage engine 0 is in, rates
/// (instr/s, cycles/s) and the elapsed time. On a terminal one line redrawn at most every
/// 250 ms and cleared by done(); otherwise (CI logs) a plain line every `every_s` seconds.
/// Fed either as a timeline sink (instruction(): knows the stage) or through update().
class Progress final : public cosim::TimelineSink {
 public:
  Progress(const isa::Spec& spec, const ProgressFlags& f,
           std::optional<InstructionCount> total = std::nullopt);
  /// Progress from the CosimOptions::progress callback (no stage).
  void update(uint64_t retired, uint64_t cycles);
  void instruction(size_t engine, const isa::RetireRecord& r, const cosim::WorkItem&) override;
  void unit_busy(size_t, const isa::UnitSpan&) override {}
  void mismatch(uint64_t) override {}
  void finish(uint64_t) override {}
  /// Clears the terminal line (or prints the last plain line with --progress always).
  void done();
  /// The text of a progress line at `elapsed_s` (exposed for tests).
  std::string text(double elapsed_s) const;

 private:
  void tick();
  const isa::Spec& spec_;
  bool tty_;
  bool enabled_;
  bool always_;
  double after_s_, every_s_;
  std::optional<InstructionCount> total_;
  uint64_t retired_ = 0, cycles_ = 0;
  int stage_ = -1;
  bool printed_ = false;  // a terminal line is on screen
  uint32_t calls_ = 0;
  Clock::time_point start_ = Clock::now();
  Clock::time_point last_;
  bool any_line_ = false;
};

}  // namespace moesim::cli
