// The run as a Chrome trace-event JSON file (the "JSON Object Format" of the Trace Event
// Format), which ui.perfetto.dev and chrome://tracing open. A timeline sink: run_cosim() and
// run_single() feed it as the run goes.
//
// Time: one machine cycle is written as 1 us ("ts" and "dur" are cycle numbers), so a viewer's
// "us" reads as "cycles" (1 cycle = 1 ns in the stage VCD and the RTL FST). The top-level
// "otherData" object, each process name (kTimeMapping) and a process label say so.
//
// Shape of the file: {"otherData": {...}, "traceEvents": [event, ...]}.
//  * One process per engine (pid = engine index + 1), named after the engine + kTimeMapping ("M"
//  events
//    process_name, process_sort_index, process_labels).
//  * Thread tid 1 "stages": one complete ("X") slice per run of consecutive instructions of the
//    same stage (each starting where the previous one ended), named after the stage, with args
//    {instructions, cycles}. The slices tile [0, total cycles) of that engine, so their "dur"
//    values add up to the engine's total cycles.
//  * Thread tid 2 + u for unit u of isa.yaml `units`, named after the unit: one "X" slice per
//    busy span (UnitSpan), not merged. A span inside [start, end) of the latest instruction of
//    that engine is named after its mnemonic and carries args {unit, pc}; any other span is
//    named after the unit.
//  * An instant ("i", thread scope) "trap <cause name>" on the stages thread at the start cycle
//    of a trapping instruction, with args {pc, cause}.
//  * A global instant ("i", scope "g") "mismatch" at the cycle of the first co-simulation
//    divergence.
//  * With a DMA queue (docs/overlap.md; docs/waveforms.md, "The DMA-queue track"), from the
//    first queued transfer on: a thread tid 2 + (number of units) "dma queue" with one "X"
//    slice per transfer in progress [s, f), named after its DMA instruction's mnemonic, args
//    {pc, issue_cycle, queued_cycles = s - issue}; a counter ("C") "dma queue" with args
//    {pending} (transfers queued or in progress) at each cycle it changes; and on the stages
//    thread an "X" slice "stall <cause>" (cat "stall") over each instruction's stall [ready,
//    start), args {pc, cause}, between the stage slices; after the last instruction, one "X"
//    slice (cat "drain") per transfer still in progress, named after its DMA instruction's
//    stage, over its part of the drain, args {pc, cycles}. Stall cycles and the drain are billed
//    to the transfers' stages (docs/overlap.md section 7), so stage, stall and drain slices tile
//    [0, total cycles) of that engine.
// Events are written as they come; only each engine's open stage slice is held back, so the
// memory use does not grow with the run. Per thread, "ts" never decreases in file order.
#pragma once

#include <array>
#include <cstdint>
#include <deque>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "moesim/cosim/timeline.hpp"
#include "moesim/isa/spec.hpp"

namespace moesim::report {

/// Appended to each engine's process name: the trace-event format reads "ts" and "dur" in
/// microseconds and Perfetto ignores displayTimeUnit, so the axis unit is stated on the track.
inline constexpr const char* kTimeMapping = " (1 us on this axis = 1 cycle = 1 ns)";

class TraceJsonSink final : public cosim::TimelineSink {
 public:
  /// Opens `path` and writes the header and the metadata events of one process per name in
  /// `engines` (engine index = position, 1 or 2 engines). Throws std::runtime_error naming the
  /// path if the file cannot be opened or written.
  TraceJsonSink(const isa::Spec& spec, const std::filesystem::path& path,
                const std::vector<std::string>& engines);
  void instruction(size_t engine, const isa::RetireRecord& r, const cosim::WorkItem& work) override;
  void unit_busy(size_t engine, const isa::UnitSpan& span) override;
  void dma_issue(size_t engine, const isa::RetireRecord& r) override;
  void transfer(size_t engine, const isa::RetireRecord& t) override;
  void mismatch(uint64_t cycle) override;
  /// Closes the open stage slices and the JSON document. Throws std::runtime_error naming the
  /// path on a write error. A file whose sink was never finished is not valid JSON.
  void finish(uint64_t end_cycle) override;

 private:
  /// Consecutive instructions of one stage not written yet.
  struct OpenSlice {
    uint8_t stage = 0;
    uint64_t begin = 0;
    uint64_t end = 0;
    uint64_t instructions = 0;
  };
  /// The latest instruction of an engine, to name the unit spans that come after it.
  struct Latest {
    uint64_t start = 0;
    uint64_t end = 0;
    uint32_t pc = 0;
    std::string mnemonic;
  };
  void flush(size_t engine);
  /// Writes engine `engine`'s "dma queue" counter for the changes before cycle `before`.
  void flush_queue(size_t engine, uint64_t before);
  void write(const nlohmann::json& event);
  void check_engine(size_t engine) const;

  const isa::Spec& spec_;
  std::filesystem::path path_;
  std::ofstream out_;
  size_t engines_;
  bool first_event_ = true;
  std::array<std::optional<OpenSlice>, 2> open_;
  std::array<std::optional<Latest>, 2> latest_;
  /// A reported transfer that completes after the end of the latest instruction: it may be
  /// part of the drain.
  struct Tail {
    uint64_t start = 0;
    uint64_t end = 0;
    uint32_t pc = 0;
    uint8_t stage = 0;
  };
  /// The DMA-queue track of each engine: issue cycles of the transfers not yet reported, changes
  /// of the pending count not written yet (cycle -> change), the count last written, the
  /// transfers that may be part of the drain (completion order).
  struct Queue {
    bool declared = false;
    std::deque<uint64_t> issued;
    std::map<uint64_t, int64_t> changes;
    int64_t pending = 0;
    std::deque<Tail> tail;
  };
  std::array<Queue, 2> queue_;
};

}  // namespace moesim::report
