// The trace log: one text line per retired (or trapping) instruction, like the trace logs of
// Ibex and riscv-dv, as a timeline sink fed by run_cosim / run_single (docs/trace_log.md).
#pragma once

#include <cstdio>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "moesim/cosim/timeline.hpp"
#include "moesim/isa/spec.hpp"

namespace moesim::report {

/// The trace log files of `path` for engines `engines`: `path` itself for one engine, else
/// `<stem>.<engine><ext>` beside it per engine ("t.log" -> "t.golden.log", "t.rtl.log").
std::vector<std::filesystem::path> trace_log_paths(const std::filesystem::path& path,
                                                   const std::vector<std::string>& engines);

/// Writes one file per engine (engine index = index into `paths`). Each starts with `header`
/// lines (written as "# " + line), then a column header, then per retire:
///   retire start_cycle end_cycle pc word stage tags disassembly ; writes
/// where tags are "T,S,E" (`-` for an absent field, `-` for none) and writes lists the register
/// writes (`gp3=0x00000010`, `f1=0x3FC0(1.5)`, `a0=0x...`, `STRIDE=0x...`) and memory written
/// (`vram[12,14)` in the space's unit), or `TRAP <name>` for a trapping instruction. A
/// mismatch() adds a `# first divergence at cycle N` line to every file. Throws
/// std::runtime_error naming the path when a file cannot be written.
class TraceLogSink final : public cosim::TimelineSink {
 public:
  TraceLogSink(const isa::Spec& spec, const std::vector<std::filesystem::path>& paths,
               const std::vector<std::string>& header);
  ~TraceLogSink() override;
  void instruction(size_t engine, const isa::RetireRecord& r, const cosim::WorkItem& work) override;
  void unit_busy(size_t, const isa::UnitSpan&) override {}
  void mismatch(uint64_t cycle) override;
  void finish(uint64_t end_cycle) override;

  /// The text of one record's line (no newline); exposed for tests.
  static std::string line(const isa::Spec& spec, const isa::RetireRecord& r,
                          const cosim::WorkItem& work);

 private:
  struct File {
    std::filesystem::path path;
    std::FILE* f = nullptr;
  };
  void check(const File& f) const;
  const isa::Spec& spec_;
  std::vector<File> files_;
};

}  // namespace moesim::report
