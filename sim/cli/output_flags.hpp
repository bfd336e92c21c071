// Output flags shared by cosim and run: report, HTML, profile, trace JSON, stage VCD, RTL FST
// and --reference, and the writers behind them. Internal to the moesim executable.
#pragma once

#include <CLI/CLI.hpp>
#include <filesystem>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

#include "moesim/cosim/cosim.hpp"
#include "moesim/cosim/engines.hpp"
#include "moesim/cosim/timeline.hpp"
#include "moesim/isa/engine.hpp"
#include "moesim/isa/spec.hpp"
#include "moesim/report/trace_json.hpp"
#include "moesim/report/trace_log.hpp"
#include "moesim/report/vcd_sink.hpp"
#include "path_guard.hpp"
#include "program_flags.hpp"

namespace moesim::cli {

/// The report, trace and profile files `cosim` and `run` write, and --reference.
struct OutputFlags {
  std::string report, html, trace_json, vcd, trace_rtl, profile, trace_log;
  std::string trace_window;  ///< --trace-window [cycle:|retire:]A:B
  bool reference = false;
  bool both = false;  ///< the command runs both engines (cosim): one trace log per engine
};

/// --trace-window: `A:B` or `cycle:A:B` = cycles [A, B), `retire:A:B` = the cycles of the
/// instructions with retire index in [A, B); empty = the whole run. Throws UsageError naming the
/// flag for bad syntax, B <= A, or a window without --trace-rtl.
cosim::TraceWindow trace_window(const OutputFlags& o);

/// `t.fst` -> `t.rtl.gtkw`, the save file written beside --trace-rtl's FST.
std::filesystem::path rtl_gtkw_path(const std::string& fst);

/// Registers OutputFlags on `app`; `both` says the command runs both engines (cosim).
void add_output_flags(CLI::App* app, OutputFlags& o, bool both);

/// Output files of one run: each checked by check_output_path and added to `g` with the files
/// derived from it (the VCD's .gtkw and .stages.filter, the FST's .rtl.gtkw and filter, the
/// per-engine trace logs) and --asm-out; the inputs of `p` (program and its .stages, images,
/// config.json, route trace, mix) added to `g` as inputs. The caller adds its own and calls
/// g.check() before anything is written.
void check_outputs(const OutputFlags& o, const ProgramFlags& p, PathGuard& g);

/// --dump DIR: adds DIR and the files the dump will write to `g`, in DIR/ENGINE/ for each of
/// `engines` ("" : DIR itself). The caller refuses a DIR that is a file (check_dump_dir) after
/// g.check(), which names the input or output a DIR over a file collides with.
void check_dump(const std::string& dir, const ProgramFlags& p,
                const std::vector<std::string>& engines, PathGuard& g);

/// The names of the files --dump writes: the layer's outputs, or every space and a manifest.
std::vector<std::string> dump_file_names(bool layer);
/// "hbm.bin": the file of a space in a --dump of a --program run.
std::string space_file(isa::Space s);

/// The report as YAML when `path` ends in .yaml or .yml, else as JSON.
void write_report(const std::string& path, const nlohmann::json& j);

/// --reference: the independent reference of the generated layer against each engine's output;
/// prints the check to `os` and returns {"bit_exact": ..., per engine {...}} for the report. `ok`
/// is cleared when an engine's output differs from the reference.
nlohmann::json reference_check(const Workload& w, const std::vector<const isa::Engine*>& engines,
                               bool& ok, std::ostream& os);

/// Refuses a --dump path that exists and is not a directory.
void check_dump_dir(const std::string& dir);

/// --dump DIR: the generated layer's outputs (accumulator, HBM output, manifest.json), or for
/// --program every memory space as raw bytes with a manifest (docs/images.md).
void dump_outputs(const std::filesystem::path& dir, const isa::Engine& e, const Workload& w);

/// The stage profile document (profile.hpp) as JSON.
void write_profile(const std::string& path, const nlohmann::json& j);

void write_html(const std::string& path, const isa::Spec& spec, const cosim::CosimResult* cosim,
                const cosim::RunResult* run, const nlohmann::json& context,
                const isa::MachinePreset* machine = nullptr);

std::unique_ptr<report::TraceJsonSink> open_trace_json(const isa::Spec& spec,
                                                       const std::string& path,
                                                       const std::vector<std::string>& engines);

/// --trace-log: the trace log of `engines` (trace_log_paths) headed by `header`.
std::unique_ptr<report::TraceLogSink> open_trace_log(const isa::Spec& spec, const std::string& path,
                                                     const std::vector<std::string>& engines,
                                                     const std::vector<std::string>& header);

/// --vcd: the stage timeline of `scopes`, with the DMA-queue track when the run's `machine` has
/// a DMA queue (DMA_QUEUE > 0).
std::unique_ptr<report::VcdSink> open_vcd(const isa::Spec& spec, const std::string& path,
                                          const std::vector<std::string>& scopes,
                                          const isa::MachinePreset& machine);

/// A timeline sink whose write errors (std::runtime_error: a full disk, /dev/full) become a
/// UsageError naming its flag ("--trace-json: PATH: write failed"), as a report's do: exit 2.
class FlaggedSink : public cosim::TimelineSink {
 public:
  FlaggedSink(cosim::TimelineSink& inner, std::string flag)
      : inner_(inner), flag_(std::move(flag)) {}
  void instruction(size_t e, const isa::RetireRecord& r, const cosim::WorkItem& w) override {
    guard([&] { inner_.instruction(e, r, w); });
  }
  void unit_busy(size_t e, const isa::UnitSpan& s) override {
    guard([&] { inner_.unit_busy(e, s); });
  }
  void dma_issue(size_t e, const isa::RetireRecord& r) override {
    guard([&] { inner_.dma_issue(e, r); });
  }
  void transfer(size_t e, const isa::RetireRecord& t) override {
    guard([&] { inner_.transfer(e, t); });
  }
  void mismatch(uint64_t cycle) override {
    guard([&] { inner_.mismatch(cycle); });
  }
  void finish(uint64_t end_cycle) override {
    guard([&] { inner_.finish(end_cycle); });
  }

 private:
  template <class F>
  void guard(F&& f) {
    try {
      f();
    } catch (const UsageError&) {
      throw;
    } catch (const std::runtime_error& e) {
      throw UsageError(flag_ + ": " + e.what());
    }
  }
  cosim::TimelineSink& inner_;
  std::string flag_;
};

/// The sinks of --vcd, --trace-json and --trace-log (those given), each behind a FlaggedSink.
struct FlaggedSinks {
  std::vector<std::unique_ptr<FlaggedSink>> sinks;
  void add(cosim::TimelineSink* s, const std::string& flag) {
    if (s != nullptr) sinks.push_back(std::make_unique<FlaggedSink>(*s, flag));
  }
  void into(std::vector<cosim::TimelineSink*>& out) const {
    for (const auto& s : sinks) out.push_back(s.get());
  }
};

/// The RTL engine, writing Verilator's FST of every RTL signal in `window` to `fst` when
/// non-empty.
std::unique_ptr<isa::Engine> make_rtl(const isa::Spec& spec, const isa::MachinePreset& preset,
                                      const std::string& fst,
                                      const cosim::TraceWindow& window = {});

/// After a run with --trace-rtl: the GTKWave save file rtl_gtkw_path(fst) naming the RTL's key
/// signals (clock, reset, issue, retire with its stage through the stage filter, trap, unit
/// busy, halt), opening on the window's cycles (a retire window: the whole file). `end_cycle`
/// is the run's last cycle; `divergence_cycle`, when given, gets the primary marker and the
/// named marker A "first divergence" (the start cycle of the first differing record).
void write_rtl_gtkw(const isa::Spec& spec, const OutputFlags& o, uint64_t end_cycle,
                    std::optional<uint64_t> divergence_cycle = std::nullopt);

}  // namespace moesim::cli
