// Stage timelines as a streaming VCD for GTKWave (DESIGN.md §5, §6; docs/architecture.md).
//
// File layout (timescale 1 ns = one machine cycle):
//   $scope module <scope> $end       one per engine, e.g. `golden` and `rtl`
//     $var string 1 <id> stage $end  stage name, changes written as `s<name> <id>` (the de-facto
//                                    VCD string extension GTKWave and Surfer read)
//     $var wire 4 <id> stage_code $end   stage code from stages.yaml (use the translate filter)
//     $var wire 32 <id> pc $end      instruction index
//   $upscope $end
//   $var wire 1 <id> mismatch $end   top level: 0, set to 1 at the first co-simulation divergence
//
// Streaming: nothing is held for the whole run. Each scope's events must arrive in
// non-decreasing time; the writer merges the scopes in time order through a small buffer whose
// watermark is the smallest latest time over all scopes: an event older than the watermark can
// no longer be preceded by another and is written out. With engines stepped in lockstep the
// buffer holds a handful of events.
#pragma once

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "moesim/isa/spec.hpp"

namespace moesim::waveforms {

class VcdWriter {
 public:
  /// Creates `path` and writes the header. `stages` is the vocabulary of stages.yaml: its code-0
  /// stage is every scope's initial stage and its largest code sets the width of `stage_code`.
  /// The time-0 values ($dumpvars: that stage, pc 0, mismatch 0, with any change made at time 0
  /// already applied, so no signal gets two values at one time) follow once every scope has
  /// moved past time 0, or at finish(). `scopes` must be non-empty, distinct VCD identifiers.
  /// Throws std::runtime_error naming the path if it cannot be written, std::invalid_argument
  /// for bad scope names.
  VcdWriter(const std::filesystem::path& path, const std::vector<std::string>& scopes,
            const std::vector<isa::StageSpec>& stages);
  /// Calls finish() with the latest time seen if finish() was not called; never throws.
  ~VcdWriter();
  VcdWriter(const VcdWriter&) = delete;
  VcdWriter& operator=(const VcdWriter&) = delete;

  /// Scope `scope` (index into the constructor's list) starts an instruction at cycle `time`:
  /// its `stage`, `stage_code` and `pc` take these values from `time` on. Only changed values
  /// are written. Throws std::invalid_argument if `time` is below this scope's previous time,
  /// `scope` is out of range or `stage_code` does not fit the stage_code width.
  void instruction(size_t scope, uint64_t time, uint8_t stage_code, std::string_view stage,
                   uint32_t pc);
  /// Sets `mismatch` to 1 at cycle `time`. Throws std::invalid_argument if `time` is before a
  /// time already written to the file.
  void mismatch(uint64_t time);
  /// Writes every buffered change, a final timestamp max(end_time, latest event) and closes
  /// the file. Throws std::runtime_error if writing failed. Further calls do nothing.
  void finish(uint64_t end_time);

  /// Events currently held back by the merge buffer (for tests of the streaming bound).
  size_t buffered() const { return pending_.size(); }
  const std::filesystem::path& path() const { return path_; }

 private:
  struct Signals {
    std::string stage_id, code_id, pc_id;
    std::string stage;
    uint8_t code = 0;
    uint32_t pc = 0;
    uint64_t last_time = 0;
  };
  struct Event {
    size_t scope;  // == scopes_.size() for the mismatch marker
    uint8_t code;
    std::string stage;
    uint32_t pc;
  };
  void flush_before(uint64_t watermark);
  /// Applies `e` to the current values; writes the changed ones when `emit`.
  void write_event(const Event& e, bool emit);
  void dump_initial();
  void timestamp(uint64_t t);

  std::filesystem::path path_;
  std::ofstream out_;
  std::vector<Signals> scopes_;
  std::string mismatch_id_;
  unsigned code_bits_ = 1;  // width of stage_code
  bool mismatch_set_ = false;
  bool dumped_ = false;                     // $dumpvars written
  std::multimap<uint64_t, Event> pending_;  // time -> event, insertion order kept per time
  uint64_t written_time_ = 0;               // last timestamp written to the file
  uint64_t latest_time_ = 0;
  bool finished_ = false;
};

/// `t.vcd` -> `t.stages.filter` (beside the VCD).
std::filesystem::path stage_filter_path(const std::filesystem::path& vcd_path);

/// GTKWave translate filter for `stage_code`: one line `<hex value> <name>` per stage of
/// stages.yaml, in code order. Throws std::runtime_error naming the path on a write error.
void write_stage_filter(const std::filesystem::path& path,
                        const std::vector<isa::StageSpec>& stages);

}  // namespace moesim::waveforms
