// Windowed co-simulation and the focused debug loop through the moesim CLI
// (docs/checkpoints.md): the merged report of --windows equals one run's, a window that
// disagrees is a named mismatch whose printed re-run command reproduces it, --from-retire /
// --to-retire co-simulate a range, and checkpoint files that cannot be trusted are refused.
#define BOOST_TEST_MODULE checkpoint_cli
#include <sys/wait.h>

#include <algorithm>
#include <boost/test/unit_test.hpp>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "moesim/isa/checkpoint.hpp"
#include "moesim_test/cli.hpp"
#include "moesim_test/dma_programs.hpp"
#include "moesim_test/json_diff.hpp"

namespace {

namespace fs = std::filesystem;
using moesim::test::moesim_cli;
using moesim::test::slurp;
using moesim::test::workdir;
using nlohmann::json;

const std::string kDemo = "--model gpt-oss-20b --tokens 4 --hidden 128 --intermediate 128";
/// The demo on the serial machine (`default` with DMA_QUEUE 0, docs/overlap.md section 9), for
/// the tests whose retire numbers are those of the serial program.
const std::string kSerialDemo = "--machine serial " + kDemo;
const std::string kShared =
    "--model qwen1.5-moe-a2.7b --shared --tokens 2 --hidden 64 --intermediate 64";

json read_json(const fs::path& p) { return json::parse(slurp(p)); }

/// The report without the fields that measure time.
/// The report without what differs between any two runs: timings and the provenance (its
/// command line names --windows; docs/reproducibility.md).
json untimed(json j) {
  for (const char* varying : {"simulation_time_s", "wall_time_s", "provenance"}) {
    BOOST_TEST(j.contains(varying));
    j.erase(varying);
  }
  return j;
}

std::string first_difference(const json& a, const json& b) {
  return moesim::test::first_difference(a, b, "the first", "the second");
}

/// The line of `out` that starts with `prefix` (without it), "" if none.
std::string line_after(const std::string& out, const std::string& prefix) {
  const size_t at = out.find(prefix);
  if (at == std::string::npos) return "";
  const size_t b = at + prefix.size();
  return out.substr(b, out.find('\n', b) - b);
}

}  // namespace

BOOST_AUTO_TEST_CASE(windowed_report_equals_one_run) {
  for (const auto& [name, flags] : {std::pair{"demo", kDemo}, std::pair{"shared", kShared}}) {
    BOOST_TEST_CONTEXT(name) {
      const fs::path dir = workdir(std::string("windows_") + name);
      const auto one = moesim_cli("cosim " + flags + " --report one.json --quiet", dir);
      BOOST_TEST(one.code == 0);
      const auto win = moesim_cli(
          "cosim " + flags + " --windows 4 --jobs 2 --checkpoint-dir ck --report win.json", dir);
      BOOST_TEST(win.code == 0);
      BOOST_TEST(win.out.find("VERDICT: EQUAL") != std::string::npos);
      const json a = untimed(read_json(dir / "one.json"));
      const json b = untimed(read_json(dir / "win.json"));
      BOOST_TEST(first_difference(a, b).empty(),
                 "windowed report differs from one run's at " << first_difference(a, b));
      // Four windows ran, each from a kept checkpoint, each a task folder with its result; the
      // parent printed each as it ended.
      for (int k = 0; k < 4; ++k) {
        const fs::path task = dir / "ck" / ("window_" + std::to_string(k));
        for (const char* f : {"run.sh", "command.txt", "log.txt", "exit_code", "result.json"})
          BOOST_TEST(fs::exists(task / f), task / f);
        BOOST_TEST(slurp(task / "exit_code") == "0\n");
        if (k == 3) {  // command.txt re-runs the window alone, in its folder
          fs::remove(task / "result.json");
          std::string command = slurp(task / "command.txt");
          command.pop_back();  // its newline
          const int st = std::system(
              ("cd '" + task.string() + "' && " + command + " --quiet >/dev/null 2>&1").c_str());
          BOOST_TEST((WIFEXITED(st) && WEXITSTATUS(st) == 0), command);
          BOOST_TEST(fs::exists(task / "result.json"));
        }
        BOOST_TEST(win.out.find("  window " + std::to_string(k) + ": retires ") !=
                   std::string::npos);
      }
      BOOST_TEST(win.out.find("[4/4 done, ") != std::string::npos, win.out);
    }
  }
}

// A window that ends at a retire in whose cycle a transfer also ends. On `default` (DMA queue of
// 2) the transfer's record and the retire's leave the RTL in the same cycle; the transfer's is
// returned first, and the RTL's retire count must not include the retire whose record is still
// held back, or a window stopping there ends one retire early on the RTL only ("rtl stopped after
// 24383 instructions; golden retired pc 4652") and the stage tables differ by one instruction.
// Both the focused range and the five windows of this layer were false mismatches that way while
// the single run was EQUAL (docs/checkpoints.md, "Where a window stops").
BOOST_AUTO_TEST_CASE(window_ends_where_a_transfer_and_a_retire_end_together) {
  const std::string layer =
      "--model deepseek-v2-lite --shared --tokens 4 --hidden 128 --intermediate 64";
  const fs::path dir = workdir("window_transfer_and_retire");
  const auto focused =
      moesim_cli("cosim " + layer + " --from-retire 18243 --to-retire 24383 --quiet", dir);
  BOOST_TEST(focused.code == 0, focused.out + focused.err);
  BOOST_TEST(focused.out.find("VERDICT: EQUAL") != std::string::npos, focused.out);
  const auto one = moesim_cli("cosim " + layer + " --report one.json --quiet", dir);
  BOOST_TEST(one.code == 0, one.out + one.err);
  const auto win =
      moesim_cli("cosim " + layer + " --windows 5 --jobs 2 --report win.json --quiet", dir);
  BOOST_TEST(win.code == 0, win.out + win.err);
  BOOST_TEST(win.out.find("VERDICT: EQUAL") != std::string::npos, win.out);
  const json a = untimed(read_json(dir / "one.json"));
  const json b = untimed(read_json(dir / "win.json"));
  BOOST_TEST(first_difference(a, b).empty(),
             "windowed report differs from one run's at " << first_difference(a, b));
}

// A planted divergence: the merged report of the windows tells why as one run does. One bit of
// the golden model's initial HBM in the first E8M0 scale of expert 2 (a1 + SCALE = 93056 + 32768
// in the demo's serial program, on `serial`), read by the first H_PREFETCH_M at retire 2798, in
// window 0 of 4 (--flip-bit plants in the window that starts at retire 0). The report's first
// divergence then decodes operands at issue (a1, SCALE and STRIDE set by earlier instructions),
// effective addresses, the work item (token 0, slot 0, expert 2) and the differing MRAM byte as
// "scale 0" (which needs MLEN: without it every MRAM byte reads as a code), and the final state at
// the stop counts the flipped HBM byte as never written (unwritten_differing_bytes) with the last
// writer of MRAM's first differing byte. Everything but the timing fields and the re-run command
// (the window's --from-retire form vs one run's --max-instructions form, docs/checkpoints.md)
// must be equal.
BOOST_AUTO_TEST_CASE(windowed_report_of_a_divergence_equals_one_run) {
  const fs::path dir = workdir("windows_divergence");
  const std::string flags = kSerialDemo + " --flip-bit golden:hbm:125824:6";
  const auto one = moesim_cli("cosim " + flags + " --report one.json", dir);
  BOOST_TEST(one.code == 1);
  const auto win = moesim_cli("cosim " + flags + " --windows 4 --jobs 2 --report win.json", dir);
  BOOST_TEST(win.code == 1);
  json a = untimed(read_json(dir / "one.json"));
  json b = untimed(read_json(dir / "win.json"));
  for (json* j : {&a, &b}) {
    BOOST_TEST_REQUIRE((*j)["first_divergence"].contains("rerun"));
    (*j)["first_divergence"].erase("rerun");
  }
  // Not vacuous: the decoded fields hold what one run reports.
  const json& d = a["first_divergence"];
  BOOST_TEST(d["index"] == 2798);
  BOOST_TEST(d["decoded"]["rtl"]["operands_at_issue"][2]["value"] == "0x16B80");
  BOOST_TEST(d["decoded"]["rtl"]["work"]["expert"] == 2);
  BOOST_TEST(d["memory_differences"][0]["elements"][0]["element"] == "scale 0");
  BOOST_TEST(a["final_state"]["memories"]["hbm"]["unwritten_differing_bytes"] == 1);
  BOOST_TEST(
      a["final_state"]["memories"]["mram"]["first_difference"]["last_writer"]["rtl"]["index"] ==
      2798);
  BOOST_TEST(first_difference(a, b).empty(),
             "windowed report differs from one run's at " << first_difference(a, b));
  // The console tells the same story.
  for (const char* line :
       {"operands at issue: ", "never written by the program", "last writer of byte"})
    BOOST_TEST((!line_after(one.out, line).empty() &&
                line_after(win.out, line) == line_after(one.out, line)),
               line << "\none run:  " << line_after(one.out, line)
                    << "\nwindowed: " << line_after(win.out, line));
}

// A focused run from retire A decodes its divergence's operands with the values they held at
// issue, also those last written before A (a1 at retire 2787, SCALE and STRIDE after it): the
// same as one run from retire 0, though the window's engines start from A's checkpoint. The
// serial program's retire numbers (on `serial`, as the test above).
BOOST_AUTO_TEST_CASE(focused_divergence_decodes_operands_written_before_the_range) {
  const fs::path dir = workdir("focused_operands");
  const std::string flags = kSerialDemo + " --flip-bit golden:hbm:125824:6";
  const auto one = moesim_cli("cosim " + flags + " --report one.json --quiet", dir);
  BOOST_TEST(one.code == 1);
  const auto f = moesim_cli("cosim " + flags + " --from-retire 2790 --report f.json --quiet", dir);
  BOOST_TEST(f.code == 1);
  const json a = read_json(dir / "one.json")["first_divergence"];
  const json b = read_json(dir / "f.json")["first_divergence"];
  BOOST_TEST(b["index"] == a["index"]);
  BOOST_TEST(a["decoded"]["rtl"]["operands_at_issue"][2]["value"] == "0x16B80");
  for (const char* key : {"decoded", "memory_differences"})
    BOOST_TEST(first_difference(a[key], b[key]).empty(),
               key << " of the focused run differs from one run's at "
                   << first_difference(a[key], b[key]));
}

BOOST_AUTO_TEST_CASE(window_mismatch_is_named_and_its_rerun_command_reproduces_it) {
  const fs::path dir = workdir("windows_mismatch");
  // One bit of the RTL's initial VRAM, in a row the demo never touches: every record agrees,
  // so only the end state of window 0 tells.
  const auto r =
      moesim_cli("cosim " + kDemo + " --windows 3 --jobs 2 --flip-bit rtl:vram:1000000:3", dir);
  BOOST_TEST(r.code == 1);
  BOOST_TEST(r.out.find("VERDICT: MISMATCH") != std::string::npos);
  BOOST_TEST(r.out.find("end state differs: window 0 (retires 0..") != std::string::npos, r.out);
  BOOST_TEST(r.out.find("rtl vram: 1 bytes differ, first byte 1000000") != std::string::npos,
             r.out);
  const std::string rerun = line_after(r.out, "re-run this window alone: moesim ");
  BOOST_TEST(rerun.find("--from-retire 0 --to-retire ") != std::string::npos, rerun);
  const auto again = moesim_cli(rerun, dir);
  BOOST_TEST(again.code == 1);
  BOOST_TEST(again.out.find("VERDICT: MISMATCH") != std::string::npos);

  // A fault the records show: the first divergence keeps its global retire number.
  const auto one = moesim_cli("cosim " + kDemo + " --flip-bit golden:hbm:0:6 --quiet", dir);
  const auto win =
      moesim_cli("cosim " + kDemo + " --flip-bit golden:hbm:0:6 --windows 4 --jobs 2 --quiet", dir);
  BOOST_TEST(one.code == 1);
  BOOST_TEST(win.code == 1);
  const std::string at = line_after(one.out, "first divergence at retire #");
  BOOST_TEST(!at.empty(), one.out);
  BOOST_TEST(line_after(win.out, "first divergence at retire #") == at, win.out);
}

// One re-run command for every kind of run (report::rerun_command): console, JSON and HTML print
// the same string, and that string, run as printed, reproduces the same first divergence. On the
// queued default a windowed or focused re-run's --to-retire is the next boundary with an empty
// queue (the focused run's divergence here is a transfer record whose retire + 1 has transfers
// pending: before the re-run's end moved on, the printed command was refused with exit 2).
BOOST_AUTO_TEST_CASE(printed_rerun_command_reproduces_the_first_divergence) {
  const fs::path dir = workdir("rerun");
  // A bit of the RTL's initial HBM that the demo reads: the records diverge in window 0.
  const std::string fault = " --flip-bit rtl:hbm:0:6";
  struct Case {
    std::string flags, range;  ///< the run's flags; what its re-run must contain
  };
  for (const Case& c :
       {Case{" --windows 4 --jobs 2 --checkpoint-dir ck", "--from-retire 0 --to-retire "},
        Case{" --from-retire 0", "--from-retire 0 --to-retire "},
        Case{"", "--max-instructions "}}) {
    BOOST_TEST_CONTEXT(c.flags) {
      const auto r =
          moesim_cli("cosim " + kDemo + fault + c.flags + " --report r.json --html r.html", dir);
      BOOST_TEST(r.code == 1);
      const std::string at = line_after(r.out, "first divergence at retire #");
      BOOST_TEST_REQUIRE(!at.empty(), r.out);
      const std::string rerun = line_after(r.out, "re-run this window alone: ");
      BOOST_TEST_REQUIRE(rerun.rfind("moesim cosim ", 0) == 0u, r.out);
      BOOST_TEST(rerun.find(c.range) != std::string::npos, rerun);
      BOOST_TEST(rerun.find("--windows") == std::string::npos, rerun);
      BOOST_TEST(r.out.find("re-run just the failing part:\n    " + rerun) != std::string::npos,
                 r.out);
      BOOST_TEST(read_json(dir / "r.json")["first_divergence"]["rerun"] == rerun);
      BOOST_TEST(slurp(dir / "r.html").find(rerun.substr(0, rerun.find('\''))) !=
                 std::string::npos);
      // As printed (without "moesim ", which moesim_cli adds): the same divergence.
      const auto again = moesim_cli(rerun.substr(7), dir);
      BOOST_TEST(again.code == 1, again.out + again.err);
      BOOST_TEST(line_after(again.out, "first divergence at retire #") == at, again.out);
    }
  }
  // A focused run from retire A > 0: the window starts at A, and re-runs from A.
  const auto f = moesim_cli("cosim " + kDemo + " --from-retire 5000 --flip-bit rtl:vram:0:6", dir);
  BOOST_TEST(f.code == 1);
  const std::string at = line_after(f.out, "first divergence at retire #");
  BOOST_TEST_REQUIRE(!at.empty(), f.out);
  const std::string rerun = line_after(f.out, "re-run this window alone: ");
  BOOST_TEST(rerun.find("--from-retire 5000 --to-retire ") != std::string::npos, rerun);
  const auto again = moesim_cli(rerun.substr(7), dir);
  BOOST_TEST(again.code == 1);
  BOOST_TEST(line_after(again.out, "first divergence at retire #") == at, again.out);
}

// On `serial`: any retire is a boundary a checkpoint can be taken at there; on the queued
// default 5300 has a transfer pending (checkpoint_at_a_pending_transfer_is_refused covers that).
BOOST_AUTO_TEST_CASE(focused_range_and_its_checkpoint) {
  const fs::path dir = workdir("focused");
  const auto r = moesim_cli("cosim " + kSerialDemo +
                                " --from-retire 5000 --to-retire 5300 --checkpoint-dir ck "
                                "--trace-rtl w.fst --report r.json",
                            dir);
  BOOST_TEST(r.code == 0);
  BOOST_TEST(r.out.find("retires 5000..5300") != std::string::npos, r.out);
  const json j = read_json(dir / "r.json");
  BOOST_TEST(j["instructions"] == 300);
  BOOST_TEST(fs::exists(dir / "w.fst"));
  BOOST_TEST(fs::exists(dir / "ck" / "retire_5000.ckpt"));
  // The same range from the kept checkpoint.
  const auto c = moesim_cli("cosim " + kSerialDemo +
                                " --from-checkpoint ck/retire_5000.ckpt --to-retire 5300 "
                                "--report c.json --quiet",
                            dir);
  BOOST_TEST(c.code == 0);
  const json a = untimed(read_json(dir / "r.json")), b = untimed(read_json(dir / "c.json"));
  BOOST_TEST(a["stages"] == b["stages"]);
  BOOST_TEST(a["final_state"] == b["final_state"]);
  // Bad ranges.
  const auto bad = moesim_cli("cosim " + kDemo + " --from-retire 300 --to-retire 200", dir);
  BOOST_TEST(bad.code == 2);
  BOOST_TEST(bad.err.find("--to-retire 200 must be greater than --from-retire 300") !=
             std::string::npos);
  const auto past = moesim_cli("cosim " + kDemo + " --from-retire 99999999", dir);
  BOOST_TEST(past.code == 2);
  BOOST_TEST(past.err.find("--from-retire 99999999: the program ends after") != std::string::npos,
             past.err);
}

BOOST_AUTO_TEST_CASE(untrusted_checkpoint_files_are_refused) {
  const fs::path dir = workdir("bad_checkpoints");
  std::ofstream(dir / "p.asm") << "S_ADDI_INT gp1, gp0, 1\nS_ADDI_INT gp2, gp1, 2\n"
                                  "S_ADDI_INT gp3, gp2, 3\nS_ADDI_INT gp4, gp3, 4\n";
  std::ofstream(dir / "q.asm") << "S_ADDI_INT gp1, gp0, 7\nS_ADDI_INT gp2, gp1, 2\n";
  const auto made =
      moesim_cli("cosim --program p.asm --from-retire 2 --checkpoint-dir ck --quiet", dir);
  BOOST_REQUIRE(made.code == 0);
  const std::string good = slurp(dir / "ck" / "retire_2.ckpt");
  BOOST_REQUIRE(good.size() > 64);
  auto write = [&](const std::string& name, const std::string& bytes) {
    std::ofstream(dir / name, std::ios::binary) << bytes;
  };
  std::string corrupt = good;
  corrupt[good.size() / 2] = static_cast<char>(corrupt[good.size() / 2] ^ 0x10);
  write("corrupt.ckpt", corrupt);
  write("short.ckpt", good.substr(0, good.size() - 7));
  std::string v9 = good;
  v9[8] = 9;
  write("v9.ckpt", v9);
  write("text.ckpt", "hello\n");
  // Valid checksums around states no run of p.asm reaches.
  auto crafted = [&](const std::string& name, void (*edit)(moesim::isa::ArchState&)) {
    moesim::isa::Checkpoint c = moesim::isa::decode_checkpoint(good, "good", {});
    edit(c.state);
    write(name, moesim::isa::encode_checkpoint(c, {}));
  };
  crafted("pc.ckpt", [](moesim::isa::ArchState& s) { s.pc = 9; });
  crafted("retired.ckpt", [](moesim::isa::ArchState& s) { s.retired = 1000000000000000ull; });
  crafted("budget.ckpt", [](moesim::isa::ArchState& s) { s.instruction_budget = 0; });
  const struct {
    std::string args, want;
  } cases[] = {
      {"--program p.asm --from-checkpoint corrupt.ckpt", "corrupt.ckpt: checksum"},
      {"--program p.asm --from-checkpoint short.ckpt", "short.ckpt: payload of"},
      {"--program p.asm --from-checkpoint v9.ckpt", "v9.ckpt: checkpoint format version 9"},
      {"--program p.asm --from-checkpoint text.ckpt", "text.ckpt: not a moesim checkpoint"},
      {"--program q.asm --from-checkpoint ck/retire_2.ckpt", "made with another program"},
      {"--program p.asm --machine tiny --from-checkpoint ck/retire_2.ckpt",
       "made for machine preset 'default'"},
      {"--program p.asm --from-checkpoint missing.ckpt", "missing.ckpt: no such file"},
      {"--program p.asm --from-checkpoint pc.ckpt", "pc.ckpt: checkpoint state: pc 9 is past"},
      {"--program p.asm --from-checkpoint retired.ckpt",
       "retired.ckpt: checkpoint state: 1000000000000000 instructions retired, more than"},
      {"--program p.asm --from-checkpoint budget.ckpt",
       "budget.ckpt: checkpoint state: instruction budget 0"},
  };
  for (const auto& c : cases) {
    const auto r = moesim_cli("cosim " + c.args, dir);
    BOOST_TEST(r.code == 2, c.args);
    BOOST_TEST(r.err.find("moesim: error: --from-checkpoint ") == 0, r.err);
    BOOST_TEST(r.err.find(c.want) != std::string::npos, r.err << " (wanted " << c.want << ")");
  }
  // A good one continues: retires 2..4 of p.asm.
  const auto ok =
      moesim_cli("cosim --program p.asm --from-checkpoint ck/retire_2.ckpt --report r.json", dir);
  BOOST_TEST(ok.code == 0);
  BOOST_TEST(read_json(dir / "r.json")["instructions"] == 2);
}

// `moesim checkpoint --save` makes, with the golden model alone, a checkpoint that a focused
// co-simulation starts from (EQUAL) and that `--load` restores into both engines; it prints the
// file's size.
BOOST_AUTO_TEST_CASE(checkpoint_command_saves_what_cosim_starts_from) {
  const fs::path dir = workdir("checkpoint_command");
  fs::remove(dir / "c.ckpt");
  const auto s = moesim_cli("checkpoint " + kDemo + " --save c.ckpt --at-retire 5000", dir);
  BOOST_TEST_REQUIRE(s.code == 0, s.out + s.err);
  BOOST_TEST(line_after(s.out, "saved c.ckpt: ") ==
             std::to_string(fs::file_size(dir / "c.ckpt")) + " bytes");
  BOOST_TEST(s.out.find("  retire 5000, cycle ") != std::string::npos, s.out);
  const auto c =
      moesim_cli("cosim " + kDemo + " --from-checkpoint c.ckpt --to-retire 6000 --quiet", dir);
  BOOST_TEST(c.code == 0, c.out + c.err);
  BOOST_TEST(c.out.find("VERDICT: EQUAL") != std::string::npos, c.out);
  const auto l = moesim_cli("checkpoint " + kDemo + " --load c.ckpt --restore both", dir);
  BOOST_TEST(l.code == 0, l.out + l.err);
  BOOST_TEST(l.out.find("  golden: engine made ") != std::string::npos, l.out);
  BOOST_TEST(l.out.find("  rtl: engine made ") != std::string::npos, l.out);
  // Saved again onto the same file: refused, the file left as it is.
  const auto again = moesim_cli("checkpoint " + kDemo + " --save c.ckpt --at-retire 10", dir);
  BOOST_TEST(again.code == 2);
  BOOST_TEST(again.err.find("moesim: error: --save c.ckpt: exists") != std::string::npos,
             again.err);
}

namespace {

/// A program with a DMA queue (run with --dma-queue 1 on default; its cycles are derived in
/// testbenches/cosim/test_overlap_cli.cpp, kBilling: 34 retires, 102 cycles). Pending transfers
/// (docs/overlap.md sections 2 to 4) when the record of retire b is returned:
///   b = 0 .. 3   none (setup: S_ADDI_INT, C_SET_SCALE_REG, S_ADDI_INT)
///   b = 4        T3 (H_PREFETCH_V issued in 3, transfer [3, 35))
///   b = 5        T4 (the second H_PREFETCH_V waits for the queue, issues in 35, [35, 67))
///   b = 6 .. 32  T4 (S_ADDI_INT, V_ADD_VV, C_LOOP_START, the loop's 24 instructions, to cycle 64)
///   b = 33       none (V_ADD_VV waits for T4 to complete in 67 (RAW), retires in 69)
///   b = 34       T8 (H_STORE_V issued in 69, transfer [69, 102)); the end, once T8 completes
/// So the only boundaries with an empty queue are 0 .. 3, 33 and the end, 34.
const char* const kQueued = moesim::test::kDmaQueueProgram;

const std::string kQueuedFlags = "--program queued.asm --dma-queue 1";

}  // namespace

// --windows 12 over 34 retires: even boundaries floor(34 k / 12) = 2, 5, 8, 11, 14, 17, 19, 22,
// 25, 28, 31, 34. 2 has an empty queue and stays; 5 .. 31 have a transfer pending and move to
// the next boundary with an empty queue, 33; 34 is the end. So three windows, 0..2, 2..33 and
// 33..34, co-simulated EQUAL with the report of one run (102 cycles, 34 retires).
BOOST_AUTO_TEST_CASE(windows_start_only_where_the_dma_queue_is_empty) {
  const fs::path dir = workdir("windows_dma_queue");
  std::ofstream(dir / "queued.asm") << kQueued;
  // The window processes run in their task folders; the program's relative path still names it
  // (each window's command starts in this run's folder).
  const std::string flags = kQueuedFlags;
  const auto one = moesim_cli("cosim " + flags + " --report one.json --quiet", dir);
  BOOST_TEST_REQUIRE(one.code == 0, one.out + one.err);
  fs::remove_all(dir / "ck");
  const auto win = moesim_cli(
      "cosim " + flags + " --windows 12 --jobs 2 --checkpoint-dir ck --report win.json", dir);
  BOOST_TEST_REQUIRE(win.code == 0, win.out + win.err);
  BOOST_TEST(win.out.find("VERDICT: EQUAL") != std::string::npos, win.out);
  for (const char* w : {"  window 0: retires 0..2, EQUAL", "  window 1: retires 2..33, EQUAL",
                        "  window 2: retires 33..34, EQUAL"})
    BOOST_TEST(win.out.find(w) != std::string::npos, w << " in\n" << win.out);
  BOOST_TEST(win.out.find("  window 3:") == std::string::npos, win.out);
  for (int b : {0, 2, 33, 34})
    BOOST_TEST(fs::exists(dir / "ck" / ("retire_" + std::to_string(b) + ".ckpt")), b);
  const json a = untimed(read_json(dir / "one.json"));
  const json b = untimed(read_json(dir / "win.json"));
  BOOST_TEST(first_difference(a, b).empty(),
             "windowed report differs from one run's at " << first_difference(a, b));
  for (const json* j : {&a, &b}) {
    BOOST_TEST(j->at("total_cycles").at("golden").get<uint64_t>() == 102u);
    BOOST_TEST(j->at("total_cycles").at("rtl").get<uint64_t>() == 102u);
  }
}

// A checkpoint, or the start or end of a focused range, at a boundary with a transfer pending is
// refused with exit 2 naming the flag, the boundary and the next one with an empty queue (33,
// from the table above), or saying there is none; 33 itself is taken (cycle 69: V_ADD_VV
// retires then).
BOOST_AUTO_TEST_CASE(checkpoint_at_a_pending_transfer_is_refused) {
  const fs::path dir = workdir("checkpoint_dma_queue");
  std::ofstream(dir / "queued.asm") << kQueued;
  fs::remove(dir / "c.ckpt");
  const std::string pending = ": 1 DMA transfer pending at this boundary";
  const std::string next = "; the next boundary with an empty queue is retire 33\n";
  struct Refused {
    std::string cmd, flag;
  };
  for (const Refused& r :
       {Refused{"checkpoint " + kQueuedFlags + " --save c.ckpt --at-retire 17", "--at-retire 17"},
        Refused{"checkpoint " + kQueuedFlags + " --save c.ckpt --at-retire 4", "--at-retire 4"},
        Refused{"cosim " + kQueuedFlags + " --from-retire 5", "--from-retire 5"},
        Refused{"cosim " + kQueuedFlags + " --from-retire 2 --to-retire 32", "--to-retire 32"}}) {
    BOOST_TEST_CONTEXT(r.cmd) {
      const auto s = moesim_cli(r.cmd, dir);
      BOOST_TEST(s.code == 2);
      BOOST_TEST(s.err.rfind("moesim: error: " + r.flag + pending, 0) == 0u, s.err);
      BOOST_TEST(s.err.find(next) != std::string::npos, s.err);
      BOOST_TEST(std::count(s.err.begin(), s.err.end(), '\n') == 1, s.err);
    }
  }
  // At the last retire, 34, T8 is pending and completes after it: no later boundary has an
  // empty queue. (The message named retire 34 itself as the next boundary before.)
  const std::string drains =
      "; no later boundary has an empty queue (the queue drains after the "
      "program's last retire, 34; ";
  struct AtEnd {
    std::string cmd, flag, hint;
  };
  for (const AtEnd& r : {AtEnd{"cosim " + kQueuedFlags + " --from-retire 2 --to-retire 34",
                               "--to-retire 34", "leave out --to-retire to run to the end)\n"},
                         AtEnd{"cosim " + kQueuedFlags + " --from-retire 34", "--from-retire 34",
                               "start at an earlier boundary)\n"}}) {
    BOOST_TEST_CONTEXT(r.cmd) {
      const auto s = moesim_cli(r.cmd, dir);
      BOOST_TEST(s.code == 2);
      BOOST_TEST(s.err.rfind("moesim: error: " + r.flag + pending, 0) == 0u, s.err);
      BOOST_TEST(s.err.find(drains + r.hint) != std::string::npos, s.err);
      BOOST_TEST(std::count(s.err.begin(), s.err.end(), '\n') == 1, s.err);
    }
  }
  BOOST_TEST(!fs::exists(dir / "c.ckpt"));
  const auto s = moesim_cli("checkpoint " + kQueuedFlags + " --save c.ckpt --at-retire 33", dir);
  BOOST_TEST_REQUIRE(s.code == 0, s.out + s.err);
  BOOST_TEST(s.out.find("  retire 33, cycle 69, ") != std::string::npos, s.out);
  const auto c = moesim_cli(
      "cosim " + kQueuedFlags + " --from-checkpoint c.ckpt --quiet --report r.json", dir);
  BOOST_TEST(c.code == 0, c.out + c.err);
  BOOST_TEST(c.out.find("VERDICT: EQUAL") != std::string::npos, c.out);
  BOOST_TEST(read_json(dir / "r.json").at("total_cycles").at("golden").get<uint64_t>() == 102u);
}

// A program that traps with transfers pending at its last boundary (docs/overlap.md section 8),
// on default with --dma-queue 2. Retires and pending transfers:
//   0 S_ADDI_INT gp1, gp0, 512       b = 1: none
//   1 H_PREFETCH_V gp0, ...          b = 2: T1 (32 cycles, as kQueued's)
//   2 S_ADDI_INT, 3 S_ADDI_INT       b = 3, 4: T1 (one cycle each)
//   4 H_PREFETCH_V gp1, ...          b = 5: T1 and T4 (the queue holds 2)
//   5 C_LOOP_END gp4                 traps at issue (loop_underflow: no loop active); the queue
//                                    drains, so VRAM rows 0..3 and 8..11 hold HBM's bytes at the
//                                    end
// --windows 5 over 5 retires: boundaries 1 .. 5; 1 has an empty queue; 2, 3 and 4 move to the
// end, 5, where T1 and T4 are pending and then the machine traps: no checkpoint can be taken
// there. So two windows, 0..1 and 1..5, the last one running to the trap without an end
// checkpoint. The report, and the engines' end states (--dump, with a random image so the
// transfers change VRAM), equal one run's.
BOOST_AUTO_TEST_CASE(windows_of_a_program_that_traps_with_transfers_pending) {
  const fs::path dir = workdir("windows_trap_pending");
  std::ofstream(dir / "trap.asm") << "S_ADDI_INT gp1, gp0, 512\n"
                                     "H_PREFETCH_V gp0, gp0, a0, 0, 0\n"
                                     "S_ADDI_INT gp2, gp0, 1\n"
                                     "S_ADDI_INT gp2, gp0, 2\n"
                                     "H_PREFETCH_V gp1, gp0, a0, 0, 0\n"
                                     "C_LOOP_END gp4\n";
  const std::string flags = "--program trap.asm --dma-queue 2 --random-image 7";
  const auto one = moesim_cli("cosim " + flags + " --report one.json --dump d1 --quiet", dir);
  BOOST_TEST_REQUIRE(one.code == 0, one.out + one.err);
  BOOST_TEST(one.out.find("both engines trapped (loop_underflow at pc 5)") != std::string::npos,
             one.out);
  const auto win = moesim_cli(
      "cosim " + flags + " --windows 5 --checkpoint-dir ck --report win.json --dump d2", dir);
  BOOST_TEST_REQUIRE(win.code == 0, win.out + win.err);
  BOOST_TEST(win.out.find("VERDICT: EQUAL") != std::string::npos, win.out);
  for (const char* w : {"  window 0: retires 0..1, EQUAL", "  window 1: retires 1..5, EQUAL"})
    BOOST_TEST(win.out.find(w) != std::string::npos, w << " in\n" << win.out);
  BOOST_TEST(win.out.find("  window 2:") == std::string::npos, win.out);
  BOOST_TEST(win.out.find("pass 2 saves 2 checkpoints") != std::string::npos, win.out);
  BOOST_TEST(fs::exists(dir / "ck" / "retire_1.ckpt"));
  BOOST_TEST(!fs::exists(dir / "ck" / "retire_5.ckpt"));
  const json a = untimed(read_json(dir / "one.json"));
  const json b = untimed(read_json(dir / "win.json"));
  BOOST_TEST(first_difference(a, b).empty(),
             "windowed report differs from one run's at " << first_difference(a, b));
  // A divergence in T1's transfer record (a flipped HBM byte that T1 moves; --windows 2 is one
  // window, 0..5, as 2 moves to the end): no boundary after it has an empty queue before the
  // trap, so the re-run runs to the end (no --to-retire) and reproduces it (before: --to-retire
  // 7, past the trap, refused with exit 2).
  for (const std::string range : {" --windows 2", " --from-retire 0"}) {
    BOOST_TEST_CONTEXT(range) {
      const auto bad = moesim_cli("cosim " + flags + " --flip-bit rtl:hbm:0:6" + range, dir);
      BOOST_TEST(bad.code == 1, bad.out + bad.err);
      const std::string at = line_after(bad.out, "first divergence at retire #");
      BOOST_TEST_REQUIRE(!at.empty(), bad.out);
      const std::string rerun = line_after(bad.out, "re-run this window alone: ");
      BOOST_TEST(rerun.find(" --from-retire 0 --vcd ") != std::string::npos, rerun);
      const auto again = moesim_cli(rerun.substr(7), dir);
      BOOST_TEST(again.code == 1, again.out + again.err);
      BOOST_TEST(line_after(again.out, "first divergence at retire #") == at, again.out);
    }
  }
  for (const char* engine : {"golden", "rtl"})
    for (const char* space : {"vram", "mram", "hbm", "fp_sram", "int_sram"}) {
      const fs::path f = fs::path(engine) / (std::string(space) + ".bin");
      BOOST_TEST_REQUIRE(fs::exists(dir / "d1" / f), f);
      BOOST_TEST((slurp(dir / "d1" / f) == slurp(dir / "d2" / f)), f);
    }
}

// The internal flags of a window process (run_windowed writes them into each task's command)
// are refused with exit 2 when a part is missing: they never start a run by themselves.
BOOST_AUTO_TEST_CASE(window_process_flags_need_each_other) {
  const fs::path dir = workdir("window_flags");
  std::ofstream(dir / "p.asm") << "S_ADDI_INT gp1, gp0, 1\n";
  struct Refused {
    std::string flags, error;
  };
  for (const Refused& r :
       {Refused{"--window-last", "--window-last needs --window-result"},
        Refused{"--to-checkpoint x.ckpt --from-checkpoint y.ckpt",
                "--to-checkpoint needs --window-result"},
        Refused{"--window-result r.json",
                "--window-result needs --from-checkpoint and --to-checkpoint (or --window-last)"},
        Refused{
            "--window-result r.json --from-checkpoint y.ckpt",
            "--window-result needs --from-checkpoint and --to-checkpoint (or --window-last)"}}) {
    BOOST_TEST_CONTEXT(r.flags) {
      const auto s = moesim_cli("cosim --program p.asm " + r.flags, dir);
      BOOST_TEST(s.code == 2);
      BOOST_TEST(s.err == "moesim: error: " + r.error + "\n", s.err);
    }
  }
  BOOST_TEST(!fs::exists(dir / "r.json"));
}
