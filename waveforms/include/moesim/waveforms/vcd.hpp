// Stage timelines as a streaming VCD for GTKWave (docs/architecture.md, Stages; the file layout
// and every signal: docs/waveforms.md, Signals and File layout). Timescale 1 ns = one machine
// cycle; one scope per engine, a top-level `mismatch` line.
//
// Every signal has at most one value per timestamp: all changes of one cycle are applied first
// and only the signals whose value then differs from the one last written are written (a busy
// fall and rise of one unit in the same cycle leave the line high, without a glitch).
//
// Streaming: nothing is held for the whole run. Each scope's instruction times must be
// non-decreasing and busy spans and traps may not start before the scope's latest instruction;
// busy falls may lie in the future. The writer merges the scopes in time order through a
// buffer whose watermark is the smallest latest instruction time over all scopes: a change
// before the watermark can no longer be preceded by another and is written out. With engines
// stepped in lockstep the buffer holds a handful of events per scope (pending falls included).
// With a DMA-queue track a scope's watermark is held at the issue cycle of its oldest transfer
// not yet reported (dma_issue() .. dma_transfer()): the buffer then also holds the changes made
// while transfers are pending (at most DMA_QUEUE transfers' worth of cycles).
#pragma once

#include <cstdint>
#include <deque>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_set>
#include <vector>

#include "moesim/isa/spec.hpp"

namespace moesim::waveforms {

/// What a scope shows from an instruction's start cycle on. Strings must be non-empty printable
/// ASCII without blanks (VCD string values).
struct InstructionValues {
  uint8_t stage_code = 0;
  std::string_view stage;
  uint32_t pc = 0;
  std::string_view mnemonic;
  int32_t token = -1;  ///< -1 = none (written as z, undriven); likewise slot and expert
  int32_t slot = -1;
  int32_t expert = -1;
  /// The instruction waited this many cycles before `time` (its ready cycle is time -
  /// stall_cycles) for `stall_cause` (docs/overlap.md section 3); shown only by a writer with a
  /// DMA-queue track.
  uint64_t stall_cycles = 0;
  std::string_view stall_cause = "none";
};

/// One declared VCD variable. `scope` is empty for top-level signals.
struct VcdSignal {
  std::string scope;
  std::string name;
  unsigned width = 1;
  bool text = false;  ///< a `string` variable
  /// The hierarchical name GTKWave uses: `scope.name`, with `[width-1:0]` for vectors.
  std::string gtkwave_name() const;
};

class VcdWriter {
 public:
  /// Creates `path` and writes the header. `stages` is the vocabulary of stages.yaml: its code-0
  /// stage is every scope's initial stage and its largest code sets the width of `stage_code`.
  /// `units` (isa.yaml `units`) names the `<unit>_busy` signals of every scope. The time-0
  /// values ($dumpvars: that stage, pc 0, mnemonic `none`, x work item, busy 0, trap 0,
  /// trap_cause `none`, mismatch 0, with any change made at time 0 already applied) follow once
  /// every scope has moved past time 0, or at finish(). `scopes` must be non-empty, distinct
  /// identifiers; unit names identifiers. Throws std::runtime_error naming the path if it cannot
  /// be written, std::invalid_argument for bad scope or unit names.
  ///
  /// `queue_bits` > 0 adds every scope's DMA-queue track (docs/waveforms.md, "The DMA-queue
  /// track"), after trap_cause: `stall` and `stall_cause` (the core waiting, from
  /// InstructionValues), `dma_queue` (`queue_bits` wide: transfers pending, queued or in
  /// progress), `dma_pc` and `dma_mnemonic` (the transfer in progress; z and `none` when none).
  VcdWriter(const std::filesystem::path& path, const std::vector<std::string>& scopes,
            const std::vector<isa::StageSpec>& stages, const std::vector<std::string>& units,
            unsigned queue_bits = 0);
  /// Calls finish() with the latest time seen if finish() was not called; never throws.
  ~VcdWriter();
  VcdWriter(const VcdWriter&) = delete;
  VcdWriter& operator=(const VcdWriter&) = delete;

  /// Scope `scope` (index into the constructor's list) starts an instruction at cycle `time`;
  /// its instruction signals take `v` from `time` on. Throws std::invalid_argument if `time` is
  /// below this scope's previous instruction time, `scope` is out of range, `v.stage_code` does
  /// not fit the stage_code width or a string is not a VCD string.
  void instruction(size_t scope, uint64_t time, const InstructionValues& v);
  /// Unit `unit` (index into `units`) of `scope` is busy in cycles [begin, end): its busy line
  /// rises at `begin` and falls at `end` unless another span keeps it busy. Throws
  /// std::invalid_argument if end <= begin, `begin` is before the scope's latest instruction
  /// time, or an index is out of range.
  void unit_busy(size_t scope, size_t unit, uint64_t begin, uint64_t end);
  /// DMA-queue track: `scope`'s DMA instruction issued a transfer at cycle `time`, pending from
  /// then (dma_queue + 1) until its dma_transfer(). Until that call the scope's events may start
  /// as early as `time` again (unit_busy() of the transfer's span): the merge buffer holds them.
  /// Throws std::invalid_argument like trap() for `time`, std::logic_error without a track.
  void dma_issue(size_t scope, uint64_t time);
  /// The oldest transfer dma_issue() left pending is in progress in [start, end) (dma_pc,
  /// dma_mnemonic) and completes at `end` (dma_queue - 1). Throws std::invalid_argument if none
  /// is pending, start is before its issue or end <= start; std::logic_error without a track.
  void dma_transfer(size_t scope, uint64_t start, uint64_t end, uint32_t pc,
                    std::string_view mnemonic);
  /// `scope` trapped with cause `cause` (trap name) at cycle `time`: trap goes to 1 and
  /// trap_cause to `cause`. Throws std::invalid_argument like unit_busy() for `time`.
  void trap(size_t scope, uint64_t time, std::string_view cause);
  /// Sets `mismatch` to 1 at cycle `time`. Throws std::invalid_argument if `time` is before a
  /// time already written to the file.
  void mismatch(uint64_t time);
  /// Writes every buffered change, a final timestamp max(end_time, latest event) and closes
  /// the file. Throws std::runtime_error if writing failed. Further calls do nothing.
  void finish(uint64_t end_time);

  /// Events currently held back by the merge buffer (for tests of the streaming bound).
  size_t buffered() const { return pending_.size(); }
  const std::filesystem::path& path() const { return path_; }
  /// Every declared variable in declaration order (scopes first, then `mismatch`).
  const std::vector<VcdSignal>& signals() const { return signals_; }

 private:
  /// Current value of one variable: `value` for wires (kX = x), `text` for strings (interned).
  struct Var {
    std::string id;
    unsigned width = 1;
    uint64_t value = 0, written_value = 0;
    const std::string* text = nullptr;
    const std::string* written_text = nullptr;
    bool dirty = false;
  };
  /// Variable indices of one scope and its per-unit count of open busy spans.
  struct Scope {
    size_t stage, code, pc, mnemonic, token, slot, expert, trap, cause;
    size_t stall = 0, stall_cause = 0, queue = 0, dma_pc = 0, dma_mnemonic = 0;  // queue track
    std::vector<size_t> busy;
    std::vector<unsigned> open;
    uint64_t last_time = 0;
    std::deque<uint64_t> issued;  ///< issue cycles of the transfers not yet dma_transfer()ed
    uint64_t pending = 0;         ///< dma_queue's value as applied
    /// Earliest time an event of this scope may still come.
    uint64_t floor() const { return issued.empty() ? last_time : std::min(last_time, issued[0]); }
  };
  enum class Kind : uint8_t {
    Instruction,
    Rise,
    Fall,
    Trap,
    Mismatch,
    Stall,
    QueueUp,
    DmaStart,
    DmaEnd
  };
  struct Event {
    Kind kind;
    size_t scope;
    size_t unit;  // Rise / Fall
    uint8_t code;
    uint32_t pc;
    int32_t token, slot, expert;
    const std::string* stage;  // Trap: the cause
    const std::string* mnemonic;
  };
  static constexpr uint64_t kX = UINT64_MAX;

  size_t declare(const std::string& scope, const std::string& name, unsigned width, bool text);
  const std::string* intern(std::string_view s);
  Scope& checked_scope(size_t scope, uint64_t time, const char* what);
  Scope& track_scope(size_t scope, uint64_t time, const char* what);
  void set(size_t var, uint64_t value);
  void set_text(size_t var, const std::string* text);
  void apply(const Event& e);
  void flush_before(uint64_t watermark);
  void write_dirty();
  void write_value(Var& v);
  void dump_initial();
  void timestamp(uint64_t t);

  std::filesystem::path path_;
  std::ofstream out_;
  std::vector<VcdSignal> signals_;
  std::vector<Var> vars_;
  std::vector<Scope> scopes_;
  size_t mismatch_ = 0;
  unsigned code_bits_ = 1;                  // width of stage_code
  unsigned queue_bits_ = 0;                 // width of dma_queue; 0: no DMA-queue track
  std::unordered_set<std::string> texts_;   // interned string values (stable addresses)
  std::vector<size_t> dirty_;               // vars changed in the cycle being written
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

/// `t.vcd` -> `t.gtkw` (beside the VCD).
std::filesystem::path gtkw_path(const std::filesystem::path& vcd_path);

/// A named marker of a GTKWave save file.
struct GtkwMarker {
  uint64_t time = 0;
  std::string name;
};

/// What a save file opens on: the time range [begin, end) zoomed to fill the wave area (end <=
/// begin: GTKWave's default zoom from `begin`), the primary marker, and up to 26 named markers
/// (A..Z, in order; more are dropped).
struct GtkwView {
  uint64_t begin = 0;
  uint64_t end = 0;
  std::optional<uint64_t> marker;
  std::vector<GtkwMarker> markers;
};

/// Window size written to save files ([size]) and the wave area's width in pixels assumed for
/// the zoom: GTKWave 3.3.118 on a 1600-pixel window drew about 1070-1140 pixels of waves with a
/// 230-pixel signal pane (measured with gtkwave::getWindowStartTime/EndTime under Xvfb); the
/// stage save file's pane is now 330 pixels (values at the marker fit), so about 100 fewer.
/// The zoom assumes more than GTKWave draws, so that the window never runs past the end of the
/// dump (GTKWave then moves it back to time 0).
inline constexpr int kGtkwWidth = 1600;
inline constexpr int kGtkwHeight = 1000;
inline constexpr int kGtkwWavePixels = 1100;

/// GTKWave's zoom value (the `*` line of a save file) that shows `span` time units across
/// kGtkwWavePixels pixels: GTKWave shows 2^-zoom time units per frame of 200 pixels.
double gtkw_zoom(uint64_t span);

/// GTKWave's time unit for the RTL's FST is the picosecond (Verilator's 100 ps precision): one
/// cycle (1 ns) is 1000 of it in a save file.
inline constexpr uint64_t kFstPsPerCycle = 1000;

/// Writes a GTKWave save file for a VCD with variables `signals` (VcdWriter::signals()):
/// top-level signals first, then the scopes' signals of the same name next to each other
/// (golden.stage, rtl.stage, golden.stage_code, ...) in the first scope's declaration order,
/// each with the alias `scope name` (`+{golden stage} golden.stage`: GTKWave shows only a
/// name's last level, and cuts an alias at a dot too);
/// `stage_code` shown in hex through the translate filter `filter_path` (`^1 <path>`), 32-bit
/// wires in decimal; opening on `view`. `vcd_path` and `filter_path` are written as absolute
/// paths so the file works from any directory. Returns the trace names it references
/// (VcdSignal::gtkwave_name, in file order). Throws std::runtime_error naming the path on a
/// write error.
std::vector<std::string> write_gtkw(const std::filesystem::path& path,
                                    const std::filesystem::path& vcd_path,
                                    const std::filesystem::path& filter_path,
                                    const std::vector<VcdSignal>& signals,
                                    const GtkwView& view = {});

/// Writes a GTKWave save file for the RTL's FST (moesim --trace-rtl) naming its key signals,
/// the ports of the Verilated top (`TOP.<port>`): clk_i, rst_ni, issue_valid_o, issue_pc_o,
/// retire_valid_o, retire_pc_o, retire_word_o, retire_stage_o (through the stage translate
/// filter `filter_path`), trap_valid_o, trap_cause_o, halted_o, unit_busy_o. `stage_bits`,
/// `trap_bits` and `units` are the widths of retire_stage_o, trap_cause_o and unit_busy_o
/// (isa::kStageW, isa::kTrapW, the number of isa.yaml units). `view` is in cycles (written in
/// picoseconds, kFstPsPerCycle). Returns the trace names. Throws
/// std::runtime_error naming the path on a write error.
std::vector<std::string> write_rtl_gtkw(const std::filesystem::path& path,
                                        const std::filesystem::path& fst_path,
                                        const std::filesystem::path& filter_path,
                                        unsigned stage_bits, unsigned trap_bits, unsigned units,
                                        const GtkwView& view = {});

}  // namespace moesim::waveforms
