// Windowed and focused co-simulation (cosim_windows.hpp, docs/checkpoints.md).
#include "cosim_windows.hpp"

#include <malloc.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <map>
#include <optional>
#include <set>
#include <sstream>

#include "cli_output.hpp"
#include "command.hpp"
#include "moesim/campaign/spec.hpp"
#include "moesim/cosim/engines.hpp"
#include "moesim/isa/file_output.hpp"

namespace moesim::cli {

namespace fs = std::filesystem;

namespace {

/// Flags of `moesim cosim` that a window process or a re-run does not repeat: outputs, the
/// window flags themselves (with the executor flags, executor_flag_names()), faults planted in
/// one engine, and console-only flags.
const std::set<std::string> kNotRepeated = {
    "help",           "report",      "html",      "profile",         "vcd",
    "trace-json",     "trace-rtl",   "reference", "quiet",           "windows",
    "checkpoint-dir", "from-retire", "to-retire", "from-checkpoint", "to-checkpoint",
    "window-result",  "window-last", "asm-out",   "progress-after",  "progress",
    "progress-every", "trace-log",   "dump",      "trace-window"};

/// This run's program flags as parsed (so a window builds the same program and image).
std::vector<std::string> repeated_args(const CLI::App& app) {
  std::vector<std::string> out;
  for (const CLI::Option* o : app.get_options()) {
    if (o->count() == 0 || o->get_lnames().empty()) continue;
    const std::string& name = o->get_lnames().front();
    const std::vector<std::string>& executor = executor_flag_names();
    if (kNotRepeated.count(name) != 0 ||
        std::find(executor.begin(), executor.end(), name) != executor.end())
      continue;
    if (o->get_expected_max() == 0) {  // a flag (CLI11 2.1 records its results as "true")
      out.push_back("--" + name);
      continue;
    }
    for (const std::string& v : o->results()) {
      out.push_back("--" + name);
      out.push_back(v);
    }
  }
  return out;
}

isa::CheckpointId run_id(const isa::Spec& spec, const Workload& w) {
  return isa::checkpoint_id(spec, *w.preset, w.program, w.image());
}

isa::Checkpoint read_ckpt(const fs::path& p, const isa::CheckpointId& id, const Workload& w,
                          const std::string& flag) {
  try {
    return isa::read_checkpoint(p, w.image(), &id, w.preset, &w.program);
  } catch (const isa::CheckpointError& e) {
    throw UsageError(flag + " " + e.what());
  }
}

/// "golden: VRAM: 3 bytes differ ..." for each difference of each engine's state from `want`.
std::vector<std::string> end_state_differences(const isa::ArchState& want,
                                               const std::vector<const isa::Engine*>& engines) {
  std::vector<std::string> out;
  for (const isa::Engine* e : engines)
    for (const std::string& d : isa::state_differences(want, e->save()))
      out.push_back(e->name() + " " + d);
  return out;
}

/// "; never written by the program: not an output" when end-state line `d` names a memory space
/// whose golden-vs-RTL difference in `r` lies only in units no retire record wrote.
std::string output_note(const std::string& d, const cosim::CosimResult& r) {
  for (const cosim::SpaceDiff& s : r.spaces)
    if (s.differing_bytes != 0 && s.outputs_equal() &&
        d.find(std::string(" ") + isa::space_name(s.space) + ": ") != std::string::npos)
      return std::string("; ") + kNotAnOutputNote;
  return "";
}

/// --flip-bit in a window: the bit flips in that engine's state at the start of the window.
isa::ArchState flipped(const isa::ArchState& s, const cosim::BitFlip& f) {
  isa::ArchState out = s;
  std::vector<uint8_t>& m = out.mem[static_cast<size_t>(f.space)];
  if (f.byte >= m.size())
    throw UsageError("--flip-bit: byte " + std::to_string(f.byte) + " is past the end of " +
                     isa::space_name(f.space) + " (" + std::to_string(m.size()) + " bytes)");
  m[f.byte] = static_cast<uint8_t>(m[f.byte] ^ (1u << f.bit));
  return out;
}

/// Restores both engines from `s`, the one `flip` names from the flipped state.
void restore_both(isa::Engine& g, isa::Engine& r, const isa::Program& p, const isa::ArchState& s,
                  const std::optional<cosim::BitFlip>& flip) {
  // (Not `cond ? flipped(s) : s`: that copies s, 64 MiB of HBM in the demo, for each engine.)
  for (isa::Engine* e : {&g, &r}) {
    if (flip && flip->engine == e->name())
      e->restore(p, flipped(s, *flip));
    else
      e->restore(p, s);
  }
}

/// Large blocks (a space's image: 64 MiB of HBM in the demo) come from the heap and return to
/// it when freed, instead of a fresh mmap each time: the next state read or save() reuses pages
/// already mapped, rather than the kernel zeroing new ones (page faults were most of a window
/// process's time; docs/checkpoints.md, "Cost of a window").
void reuse_freed_memory() {
  mallopt(M_MMAP_MAX, 0);
  mallopt(M_TRIM_THRESHOLD, 1 << 30);
}

std::string slurp(const fs::path& p) {
  std::ifstream f(p, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
}

/// A directory for checkpoints: --checkpoint-dir (created, kept) or a fresh temporary one
/// (removed by the destructor).
class WorkDir {
 public:
  explicit WorkDir(const std::string& keep) {
    if (!keep.empty()) {
      path_ = keep;
      std::error_code ec;
      fs::create_directories(path_, ec);
      if (!fs::is_directory(path_))
        throw UsageError("--checkpoint-dir " + keep + ": cannot create the directory");
      return;
    }
    std::string t = (fs::temp_directory_path() / "moesim-windows-XXXXXX").string();
    if (mkdtemp(t.data()) == nullptr)
      throw std::runtime_error("cannot create a temporary directory in " +
                               fs::temp_directory_path().string());
    path_ = t;
    remove_ = true;
  }
  ~WorkDir() {
    std::error_code ec;
    if (remove_) fs::remove_all(path_, ec);
  }
  WorkDir(const WorkDir&) = delete;
  WorkDir& operator=(const WorkDir&) = delete;
  const fs::path& path() const { return path_; }

 private:
  fs::path path_;
  bool remove_ = false;
};

}  // namespace

void add_window_flags(CLI::App* sub, WindowFlags& wf) {
  wf.app = sub;
  sub->add_option("--windows", wf.windows,
                  "cut the run into W windows at even retire counts: the golden model runs "
                  "first and leaves a checkpoint at each boundary, then each window co-simulates "
                  "from its checkpoint in its own process and its end state is compared with the "
                  "next checkpoint (docs/checkpoints.md)")
      ->check(CLI::Range(1u, kMaxWindows));
  add_executor_flags(sub, wf.exec,
                     "windows at a time (with --windows; local: processes, slurm: the array's %J "
                     "throttle)");
  writes(sub->add_option("--checkpoint-dir", wf.checkpoint_dir,
                         "keep the checkpoints (and window results and logs) of --windows or "
                         "--from-retire in DIR (default: a temporary directory, removed)"),
         "DIR");
  wf.from_opt = sub->add_option("--from-retire", wf.from_retire,
                                "co-simulate only from retire A on: the golden model runs to A "
                                "alone and both engines start from its checkpoint")
                    ->check(kNotNegative);
  wf.to_opt = sub->add_option("--to-retire", wf.to_retire,
                              "co-simulate only until B instructions have retired")
                  ->check(kNotNegative);
  reads(sub->add_option("--from-checkpoint", wf.from_checkpoint,
                        "start both engines from checkpoint FILE (made for this program, image, "
                        "preset and YAML) instead of retire 0"));
  // Internal: the window processes of --windows.
  sub->add_option("--to-checkpoint", wf.to_checkpoint)->group("");
  sub->add_option("--window-result", wf.window_result)->group("");
  sub->add_flag("--window-last", wf.window_last)->group("");
}

void check_window_flags(const WindowFlags& wf, const OutputFlags& o) {
  const bool from = wf.from_opt && *wf.from_opt;
  const bool to = wf.to_opt && *wf.to_opt;
  const bool windows_given = wf.app->count("--windows") != 0;
  if (const std::string flag = executor_flag_given(wf.exec); !flag.empty() && !windows_given)
    throw UsageError(flag +
                     ": says where the windows of --windows W run; this run has no --windows");
  check_executor_flags(wf.exec);
  if (wf.exec.executor == "slurm" && wf.checkpoint_dir.empty())
    throw UsageError(
        "--executor slurm: the window tasks read their checkpoints from --checkpoint-dir DIR, "
        "which must be a folder every compute node shares; give one");
  if (!wf.checkpoint_dir.empty() && !windows_given && !(wf.focused() && wf.from_checkpoint.empty()))
    throw UsageError("--checkpoint-dir " + wf.checkpoint_dir +
                     ": keeps the checkpoints of --windows or --from-retire/--to-retire; this run "
                     "makes none");
  if (wf.windowed() && (wf.focused() || !wf.to_checkpoint.empty()))
    throw UsageError(
        "--windows runs the whole program; it does not combine with --from-retire, "
        "--to-retire or --from-checkpoint");
  if (from && !wf.from_checkpoint.empty())
    throw UsageError("--from-retire and --from-checkpoint both name the start: give one");
  if (from && to && wf.to_retire <= wf.from_retire)
    throw UsageError("--to-retire " + std::to_string(wf.to_retire) +
                     " must be greater than --from-retire " + std::to_string(wf.from_retire));
  if (wf.windowed() &&
      (!o.vcd.empty() || !o.trace_json.empty() || !o.trace_rtl.empty() || !o.trace_log.empty()))
    throw UsageError(
        "--windows: --vcd, --trace-json, --trace-rtl and --trace-log need one process; re-run "
        "a window with --from-retire A --to-retire B to trace it");
  if (wf.focused() && o.reference)
    throw UsageError(
        "--reference checks the layer's output at the end of the whole program; "
        "it does not combine with --from-retire, --to-retire or --from-checkpoint");
  if ((!wf.to_checkpoint.empty() || wf.window_last) && wf.window_result.empty())
    throw UsageError(std::string(wf.window_last ? "--window-last" : "--to-checkpoint") +
                     " needs --window-result");
  if (!wf.window_result.empty() &&
      (wf.from_checkpoint.empty() || (wf.to_checkpoint.empty() && !wf.window_last)))
    throw UsageError(
        "--window-result needs --from-checkpoint and --to-checkpoint (or --window-last)");
}

void check_jitter_without_checkpoints(const WindowFlags& wf, const isa::MachinePreset& preset) {
  const int64_t seed = preset.get("HBM_JITTER_SEED");
  if (seed == 0) return;
  const std::string why =
      "a checkpoint holds no DMA transfer number, which the jitter of "
      "--hbm-jitter " +
      std::to_string(seed) + " depends on";
  if (!wf.from_checkpoint.empty())
    throw UsageError("--from-checkpoint " + wf.from_checkpoint +
                     ": made without HBM jitter and without the transfer number; " + why);
  if (wf.windowed() || wf.focused())
    throw UsageError(
        "--hbm-jitter: does not combine with --windows, --from-retire or --to-retire: " + why);
}

void run_to_boundary(isa::Engine& g, cosim::QueueWatch& queue, uint64_t a,
                     const std::string& flag) {
  isa::RetireRecord r;
  while (g.retired() < a) {
    if (!g.step(r) || r.trap)
      throw UsageError(flag + " " + std::to_string(a) + ": the program " +
                       (r.trap ? "traps" : "ends") + " after " + std::to_string(g.retired()) +
                       " retires");
    queue.add(r);
  }
  if (queue.pending() == 0) return;
  const uint64_t pending = queue.pending();
  // The next boundary with an empty queue, for the message. The queue may drain only after
  // the program's last retire (its transfer records come last): then there is none.
  bool found = false;
  while (g.step(r) && !r.trap) {
    queue.add(r);
    if (r.kind == isa::RecordKind::Retire && queue.pending() == 0) {
      found = true;
      break;
    }
  }
  std::string next = "no later boundary has an empty queue";
  if (found)
    next = "the next boundary with an empty queue is retire " + std::to_string(g.retired());
  else if (!r.trap)
    next += " (the queue drains after the program's last retire, " + std::to_string(g.retired()) +
            "; " +
            (flag == "--to-retire" ? "leave out --to-retire to run to the end)"
                                   : "start at an earlier boundary)");
  throw UsageError(flag + " " + std::to_string(a) + ": " + count_of(pending, "DMA transfer") +
                   " pending at this boundary, and a checkpoint holds no queue state "
                   "(docs/overlap.md section 8); " +
                   next);
}

WindowedRun run_windowed(const isa::Spec& spec, const Workload& w, const WindowFlags& wf,
                         uint64_t max_instructions, bool quiet, bool end_engines) {
  const auto t0 = Clock::now();
  reuse_freed_memory();
  const isa::MachinePreset& preset = *w.preset;
  WindowedRun out;
  out.golden = cosim::make_golden_engine(spec, preset);
  isa::Engine& g = *out.golden;
  // Pass 1: the golden model alone, to learn the retire count and, with a DMA queue, the
  // boundaries with no transfer pending (the only ones a checkpoint can be taken at).
  g.load(w.program, w.image());
  isa::RetireRecord r;
  cosim::QueueWatch queue(spec, preset);
  std::vector<bool> queue_empty{true};
  bool trapped = false;
  while (g.step(r)) {
    queue.add(r);
    trapped = trapped || r.trap;
    if (r.kind == isa::RecordKind::Retire && !r.trap) {
      queue_empty.resize(g.retired() + 1, false);
      queue_empty[g.retired()] = queue.pending() == 0;
    }
    if (max_instructions != 0 && g.retired() >= max_instructions && !g.halted())
      throw UsageError("the program did not end within --max-instructions " +
                       std::to_string(max_instructions) + " (golden model alone)");
  }
  const uint64_t total = g.retired();
  queue_empty.resize(total + 1, false);
  const std::vector<uint64_t> bounds = cosim::window_bounds(total, wf.windows, queue_empty);
  // A trap with a transfer pending at the last boundary leaves no checkpoint there (pass 2).
  const bool last_unsaved = trapped && !queue_empty[total];
  if (!quiet)
    std::cout << "windows: golden pass 1 (the retire count) " << seconds_since(t0) << " s; pass 2 "
              << "saves " << count_of(bounds.size() - (last_unsaved ? 1 : 0), "checkpoint")
              << std::endl;

  // Pass 2: the checkpoints at the boundaries.
  WorkDir dir(wf.checkpoint_dir);
  const isa::CheckpointId id = run_id(spec, w);
  std::vector<fs::path> ckpt;
  double save_s = 0;
  auto save = [&] {
    const auto ts = Clock::now();
    const fs::path p = dir.path() / ("retire_" + std::to_string(g.retired()) + ".ckpt");
    isa::write_checkpoint({id, g.save()}, w.image(), p);
    ckpt.push_back(p);
    save_s += seconds_since(ts);
  };
  g.load(w.program, w.image());
  cosim::QueueWatch queue2(spec, preset);
  size_t next = 0;
  // The last boundary with a queue: once the transfers after the last retire have completed.
  auto save_due = [&] {
    for (; next < bounds.size() && bounds[next] == g.retired() && queue2.pending() == 0; ++next)
      save();
  };
  save_due();
  bool past_trap = false;
  while (next < bounds.size() && g.step(r)) {
    queue2.add(r);
    past_trap = past_trap || r.trap;
    if (!past_trap) save_due();
  }
  while (g.step(r)) {  // past the last boundary only a trapping instruction is left
  }
  // A program that traps with a transfer pending at its last boundary has no checkpoint there:
  // the queue is not empty before the trap, and a trapped machine has none. Its last window
  // then runs to the trap (and the drained queue) without an end checkpoint.
  if (ckpt.size() + (last_unsaved ? 1 : 0) != bounds.size())
    throw std::logic_error("golden pass 2 saved " + std::to_string(ckpt.size()) +
                           " checkpoints for " + std::to_string(bounds.size()) + " boundaries");
  out.golden_s = seconds_since(t0);

  // The windows, each a task of the executor (--jobs J at a time): a folder window_K/ with
  // run.sh, which runs this executable on the window and leaves result.json and exit_code.
  const size_t n = bounds.size() - 1;
  const std::vector<std::string> base = repeated_args(*wf.app);
  const std::string exe = fs::read_symlink("/proc/self/exe").string();
  const fs::path root = fs::absolute(dir.path()).lexically_normal();
  auto task_dir = [&](size_t k) { return root / ("window_" + std::to_string(k)); };
  std::vector<campaign::Task> tasks;
  for (size_t k = 0; k < n; ++k) {
    // In this run's folder, where the program flags' relative paths (--program, --image, ...)
    // name their files; command.txt alone re-runs the window from anywhere.
    std::string command = "cd " + campaign::shell_quote(fs::current_path().string()) + " && " +
                          campaign::shell_quote(exe) + " cosim";
    for (const std::string& a : base) command += " " + campaign::shell_quote(a);
    command += " --from-checkpoint " + campaign::shell_quote(fs::absolute(ckpt[k]).string());
    if (k + 1 < ckpt.size())
      command += " --to-checkpoint " + campaign::shell_quote(fs::absolute(ckpt[k + 1]).string());
    if (k + 1 == n) command += " --window-last";
    command += " --window-result " + campaign::shell_quote((task_dir(k) / "result.json").string());
    campaign::write_task(task_dir(k),
                         "moesim cosim window " + std::to_string(k) + " (retires " +
                             std::to_string(bounds[k]) + ".." + std::to_string(bounds[k + 1]) + ")",
                         command, "--quiet", {"result.json"});
    tasks.push_back({"window_" + std::to_string(k), task_dir(k)});
  }
  if (!quiet) {
    uintmax_t bytes = 0;
    for (const fs::path& p : ckpt) bytes += fs::file_size(p);
    std::cout << "windows: golden passes " << out.golden_s << " s (" << total << " retires, "
              << count_of(ckpt.size(), "checkpoint") << " saved in " << save_s << " s, "
              << bytes / ckpt.size() << " bytes each on average); " << count_of(n, "window")
              << ", --executor " << wf.exec.executor << " --jobs " << wf.exec.jobs << std::endl;
  }
  std::vector<std::optional<cosim::WindowResult>> finished(n);
  size_t done = 0;
  auto collect = [&](size_t k) {
    const fs::path rp = task_dir(k) / "result.json";
    if (fs::exists(rp)) finished[k] = cosim::parse_window_result(slurp(rp), rp.string());
  };
  const std::unique_ptr<campaign::Executor> ex =
      make_executor(wf.exec, root, "moesim-windows", quiet);
  const std::map<std::string, std::string> lost = ex->run(tasks, [&](const std::string& id) {
    const size_t k = std::stoul(id.substr(id.find('_') + 1));
    collect(k);
    ++done;
    if (quiet) return;  // each window as it ends (the order they end in)
    std::cout << "  window " << k << ": retires " << bounds[k] << ".." << bounds[k + 1] << ", ";
    if (finished[k])
      std::cout << (finished[k]->equal() ? "EQUAL" : "MISMATCH") << ", " << finished[k]->wall_time_s
                << " s";
    else
      std::cout << "no result (exit code " << campaign::read_exit_code(task_dir(k)).value_or(-1)
                << ")";
    std::cout << " [" << done << "/" << n << " done, " << seconds_since(t0) << " s]" << std::endl;
  });
  if (!quiet) std::cout << '\n';

  std::vector<cosim::WindowResult> results;
  for (size_t k = 0; k < n; ++k) {
    if (!finished[k]) {
      const auto why = lost.find(tasks[k].id);
      const std::optional<int> rc = campaign::read_exit_code(task_dir(k));
      throw std::runtime_error(
          "window " + std::to_string(k) + " (retires " + std::to_string(bounds[k]) + ".." +
          std::to_string(bounds[k + 1]) + ") left no result: " +
          (why != lost.end() ? why->second
                             : "exit code " + (rc ? std::to_string(*rc) : std::string("none"))) +
          "; its log " + (task_dir(k) / "log.txt").string() + ": " +
          slurp(task_dir(k) / "log.txt").substr(0, 2000));
    }
    results.push_back(std::move(*finished[k]));
  }
  size_t last = 0;
  out.result = cosim::merge_windows(spec, results, last);
  for (size_t k = 0; k <= last && k < results.size(); ++k) {
    const cosim::WindowResult& wr = results[k];
    for (const std::string& d : wr.end_state)
      out.errors.push_back("window " + std::to_string(k) + " (retires " + std::to_string(wr.from) +
                           ".." + std::to_string(wr.to) + "): " + d);
  }
  if (!results[last].equal()) {
    // The re-run's --to-retire must be a boundary with an empty queue (docs/overlap.md section
    // 8): the first at or after the divergence's reach, at the latest the window's end; none
    // (a trap, or the end, with transfers pending): the re-run runs to the program's end.
    const cosim::WindowResult& wr = results[last];
    out.failing_from = wr.from;
    for (uint64_t b = wr.result.divergence ? wr.from + wr.result.divergence->reach + 1 : wr.to;
         b <= wr.to && b < queue_empty.size(); ++b)
      if (queue_empty[b]) {
        out.failing_to = b;
        break;
      }
  }
  // The RTL's end state for --reference and --dump: the last checkpoint, which the last window's
  // RTL matched bit for bit (a trapped run ends where its last checkpoint was taken, or runs on
  // from it to the trap when the trap left a transfer pending).
  if (end_engines && out.errors.empty() && out.result.equal()) {
    out.rtl = cosim::make_rtl_engine(spec, preset);
    out.rtl->restore(w.program, read_ckpt(ckpt.back(), id, w, "checkpoint").state);
    if (last_unsaved)  // to the trap and the transfers it left pending, as the last window ran
      while (out.rtl->step(r)) {
      }
  }
  return out;
}

namespace {

/// The end of a focused run's re-run that reaches retire `want`: `want` itself on a serial
/// machine; with a DMA queue the first boundary at or after it with no transfer pending
/// (docs/overlap.md section 8), found by running the golden model `g` again from `start`; `limit`
/// (the run's --to-retire, a boundary with an empty queue) at the latest. None when the program
/// traps or ends first: the re-run then runs to the end.
std::optional<uint64_t> rerun_end(const isa::Spec& spec, const isa::MachinePreset& preset,
                                  const isa::Program& program, isa::Engine& g,
                                  const isa::ArchState& start, uint64_t want, uint64_t limit) {
  cosim::QueueWatch queue(spec, preset);
  if (!queue.queued()) return std::min(want, limit);
  g.restore(program, start);
  isa::RetireRecord r;
  while (g.step(r) && !r.trap) {
    queue.add(r);
    if (r.kind != isa::RecordKind::Retire) continue;
    if (g.retired() >= limit) return limit;
    if (g.retired() >= want && queue.pending() == 0) return g.retired();
  }
  return std::nullopt;
}

}  // namespace

WindowedRun run_focused(const isa::Spec& spec, const Workload& w, const WindowFlags& wf,
                        const cosim::CosimOptions& opts, const std::string& trace_rtl,
                        const std::optional<cosim::BitFlip>& flip) {
  const isa::MachinePreset& preset = *w.preset;
  const isa::CheckpointId id = run_id(spec, w);
  WindowedRun out;
  out.golden = cosim::make_golden_engine(spec, preset);
  isa::Engine& g = *out.golden;
  isa::ArchState start;
  const auto t0 = Clock::now();
  if (!wf.from_checkpoint.empty()) {
    start = read_ckpt(wf.from_checkpoint, id, w, "--from-checkpoint").state;
  } else {
    const uint64_t a = wf.from_opt && *wf.from_opt ? wf.from_retire : 0;
    g.load(w.program, w.image());
    cosim::QueueWatch queue(spec, preset);
    run_to_boundary(g, queue, a, "--from-retire");
    start = g.save();
    // With a queue, --to-retire must name a boundary a checkpoint can be taken at, too.
    if (wf.to_opt && *wf.to_opt && queue.queued() && wf.to_retire > a)
      run_to_boundary(g, queue, wf.to_retire, "--to-retire");
    if (!wf.checkpoint_dir.empty()) {
      WorkDir dir(wf.checkpoint_dir);
      isa::write_checkpoint({id, start}, w.image(),
                            dir.path() / ("retire_" + std::to_string(start.retired) + ".ckpt"));
    }
  }
  out.golden_s = seconds_since(t0);
  out.first_retire = start.retired;
  const bool to = wf.to_opt && *wf.to_opt;
  if (to && wf.to_retire <= start.retired)
    throw UsageError("--to-retire " + std::to_string(wf.to_retire) +
                     " must be greater than the start, retire " + std::to_string(start.retired));
  out.rtl = make_rtl(spec, preset, trace_rtl);
  restore_both(g, *out.rtl, w.program, start, flip);
  cosim::StopAt ga(g, to ? wf.to_retire : UINT64_MAX), ra(*out.rtl, to ? wf.to_retire : UINT64_MAX);
  out.result = cosim::run_cosim(spec, ga, ra, opts);
  if (out.result.divergence) {
    cosim::operands_at_issue(*out.result.divergence, {&ga, &ra});
    out.result.divergence->index += start.retired;
    out.result.divergence->reach += start.retired;
  }
  if (out.result.completed && !out.result.divergence && !out.result.trap) {
    for (const std::string& d : end_state_differences(g.save(), {out.rtl.get()}))
      out.errors.push_back("retires " + std::to_string(start.retired) + ".." +
                           std::to_string(g.retired()) + ": " + d + " (vs golden" +
                           output_note(d, out.result) + ")");
  }
  if (!out.result.equal() || !out.errors.empty()) {
    out.failing_from = start.retired;
    out.failing_to = out.result.divergence ? rerun_end(spec, preset, w.program, g, start,
                                                       out.result.divergence->reach + 1,
                                                       to ? wf.to_retire : UINT64_MAX)
                                           : g.retired();
  }
  return out;
}

int run_window_process(const isa::Spec& spec, const Workload& w, const WindowFlags& wf,
                       size_t history, const std::optional<cosim::BitFlip>& flip) {
  const auto t0 = Clock::now();
  reuse_freed_memory();
  const isa::MachinePreset& preset = *w.preset;
  const isa::CheckpointId id = run_id(spec, w);
  auto golden = cosim::make_golden_engine(spec, preset);
  auto rtl = cosim::make_rtl_engine(spec, preset);
  cosim::WindowResult wr;
  const double setup_s = seconds_since(t0);
  const auto t_restore = Clock::now();
  {
    // The start state lives only until both engines hold it.
    const isa::Checkpoint a = read_ckpt(wf.from_checkpoint, id, w, "--from-checkpoint");
    wr.from = a.state.retired;
    // --flip-bit plants its fault in the initial image: in the window that starts at retire 0.
    restore_both(*golden, *rtl, w.program, a.state,
                 a.state.retired == 0 ? flip : std::optional<cosim::BitFlip>());
  }
  // Read into the memory the start state freed (reuse_freed_memory). The last window of a
  // program that traps with a transfer pending has none (run_windowed).
  std::optional<isa::Checkpoint> b;
  if (!wf.to_checkpoint.empty()) {
    b = read_ckpt(wf.to_checkpoint, id, w, "--to-checkpoint");
    if (b->state.retired < wr.from)
      throw UsageError("--to-checkpoint " + wf.to_checkpoint + " (retire " +
                       std::to_string(b->state.retired) + ") lies before --from-checkpoint " +
                       wf.from_checkpoint + " (retire " + std::to_string(wr.from) + ")");
  }
  // The last window runs to the program's end (a trapping instruction after the last
  // checkpoint included); the others stop at the next checkpoint.
  const uint64_t stop = wf.window_last ? UINT64_MAX : b->state.retired;
  cosim::StopAt ga(*golden, stop), ra(*rtl, stop);
  // As a single run's (cmd_cosim.cpp): MRAM bytes decoded with MLEN, records' work items.
  cosim::CosimOptions opts;
  opts.history = history;
  opts.mlen = static_cast<uint64_t>(preset.get("MLEN"));
  opts.work = w.program.work;
  const double restore_s = seconds_since(t_restore);
  const auto t_run = Clock::now();
  wr.result = cosim::run_cosim(spec, ga, ra, opts);
  if (wr.result.divergence) cosim::operands_at_issue(*wr.result.divergence, {&ga, &ra});
  wr.to = b ? b->state.retired : golden->retired();
  const double run_s = seconds_since(t_run);
  const auto t_check = Clock::now();
  if (wr.result.completed && !wr.result.divergence && !wr.result.trap) {
    if (!b)
      wr.end_state.push_back("the golden pass ended in a trap at retire " + std::to_string(wr.to) +
                             "; this window ran to the end without one");
    else
      for (const std::string& d : end_state_differences(b->state, {golden.get(), rtl.get()}))
        wr.end_state.push_back(d + " (vs the checkpoint at retire " +
                               std::to_string(b->state.retired) + output_note(d, wr.result) + ")");
  }
  wr.wall_time_s = seconds_since(t0);
  isa::write_file(wf.window_result, cosim::window_result_json(wr));
  const double check_s = seconds_since(t_check);
  // Where a window's time goes (its log in --checkpoint-dir; docs/checkpoints.md).
  std::cout << "window retires " << wr.from << ".." << wr.to << ": "
            << (wr.equal() ? "EQUAL" : "MISMATCH") << " (engines made " << setup_s
            << " s, checkpoints read and restored " << restore_s << " s, co-simulation " << run_s
            << " s, end state checked " << check_s << " s)\n";
  return wr.equal() ? kExitEqual : kExitMismatch;
}

}  // namespace moesim::cli
