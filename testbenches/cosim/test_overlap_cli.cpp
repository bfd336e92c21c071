// The DMA queue from the command line (docs/overlap.md): --dma-queue, the stage billing of
// section 7 and the co-simulation of a queued machine. Every expected cycle is derived by hand
// from docs/overlap.md and the isa.yaml latencies of the default preset (MLEN = VLEN = 64,
// MX_BLOCK 8, HBM_LATENCY 24, HBM_BYTES_PER_CYCLE 64, HBM_V_ROWS 4):
//   H_PREFETCH_V: 24 + 4 * (ceil(64/64) + ceil(8/64)) = 24 + 4 * 2 = 32
//   S_ADDI_INT 1.
#include <algorithm>
#include <boost/test/unit_test.hpp>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <nlohmann/json.hpp>
#include <regex>
#include <string>

#include "moesim_test/cli.hpp"
#include "moesim_test/dma_programs.hpp"

namespace fs = std::filesystem;
using moesim::test::moesim_cli;
using moesim::test::workdir;

namespace {

/// The cycles of the "ENGINE: N instructions retired, C cycles" line of `moesim run`, or -1.
long long run_cycles(const std::string& out, const std::string& engine) {
  std::smatch m;
  const std::regex re(engine + ": [0-9]+ instructions retired, ([0-9]+) cycles");
  return std::regex_search(out, m, re) ? std::stoll(m[1]) : -1;
}

/// Two independent prefetches (VRAM rows [0, 4) and [4, 8)) around an S_ADDI_INT.
const char* kTwoPrefetches =
    "H_PREFETCH_V gp0, gp0, a0, 0, 0\n"
    "S_ADDI_INT gp1, gp0, 256\n"
    "H_PREFETCH_V gp1, gp0, a0, 0, 0\n";

}  // namespace

// Serial (DMA_QUEUE 0: the `serial` preset, or --dma-queue 0): 32 + 1 + 32 = 65 cycles. With a
// queue of 2 (the `default` preset's DMA_QUEUE, or --dma-queue 2): the first prefetch occupies
// the core [0, 1), its transfer runs [0, 32); S_ADDI_INT [1, 2); the second prefetch issues in 2
// (one transfer pending of 2) and occupies [2, 3); its transfer starts when the first completes,
// [32, 64). The program ends with the queue drained: 64 cycles. The flag overrides each preset's
// depth, on both engines.
BOOST_AUTO_TEST_CASE(overlap_cli_dma_queue_overrides_the_preset) {
  const fs::path dir = workdir("overlap_flag");
  std::ofstream(dir / "two.asm") << kTwoPrefetches;
  for (const char* engine : {"golden", "rtl"}) {
    BOOST_TEST_CONTEXT(engine) {
      const std::string run = std::string("run --quiet --engine ") + engine + " --program two.asm";
      BOOST_TEST(run_cycles(moesim_cli(run, dir).out, engine) == 64);
      BOOST_TEST(run_cycles(moesim_cli(run + " --dma-queue 0", dir).out, engine) == 65);
      BOOST_TEST(run_cycles(moesim_cli(run + " --machine serial", dir).out, engine) == 65);
      BOOST_TEST(run_cycles(moesim_cli(run + " --machine serial --dma-queue 2", dir).out, engine) ==
                 64);
    }
  }
}

// Out of range or not a number: exit 2 with one `moesim: error:` line naming --dma-queue, on
// every command that has the flag.
BOOST_AUTO_TEST_CASE(overlap_cli_bad_dma_queue_exits_2) {
  const fs::path dir = workdir("overlap_bad_flag");
  std::ofstream(dir / "two.asm") << kTwoPrefetches;
  for (const char* cmd : {"run --engine golden --program two.asm", "cosim --program two.asm",
                          "bench --engine golden --demo"}) {
    for (const char* value : {"4", "x", "-1", "1.5", "99999999999999999999", "''"}) {
      BOOST_TEST_CONTEXT(cmd << " --dma-queue " << value) {
        const auto r = moesim_cli(std::string(cmd) + " --dma-queue " + value, dir);
        BOOST_TEST(r.code == 2);
        BOOST_TEST(r.err.rfind("moesim: error: ", 0) == 0u);
        BOOST_TEST(r.err.find("--dma-queue") != std::string::npos);
        BOOST_TEST(std::count(r.err.begin(), r.err.end(), '\n') == 1);
      }
    }
  }
}

namespace {

using nlohmann::json;

json read_json(const fs::path& p) {
  std::ifstream in(p);
  return json::parse(in);
}

/// A program for the stage billing of docs/overlap.md section 7, run with --dma-queue 1 on
/// default (H_PREFETCH_V 32 cycles and 4 rows x (64 codes + 64 / 8 scales) = 288 HBM bytes read;
/// H_STORE_V 24 + 1 + 4 * 2 = 33 cycles and 288 bytes written; V_ADD_VV 2; S_ADDI_INT,
/// C_SET_SCALE_REG, C_LOOP_START, C_LOOP_END 1). VRAM row r is element address 64 r.
///   pc  stage                   instruction                        Q = 1
///   0   residual_setup          S_ADDI_INT gp3 = 2048 (SCALE)      [0, 1)
///   1   residual_setup          C_SET_SCALE_REG gp3                [1, 2)
///   2   residual_setup          S_ADDI_INT gp1 = 512 (row 8)       [2, 3)
///   3   expert_weight_prefetch  H_PREFETCH_V rows [0, 4)           [3, 4); transfer T3 [3, 35)
///   4   expert_weight_prefetch  H_PREFETCH_V rows [8, 12)          ready 4, queue_full until T3
///                                                                  completes: stall 31, [35, 36);
///                                                                  transfer T4 [35, 67)
///   5   expert_projection       S_ADDI_INT gp2 = 1024 (row 16)     [36, 37)
///   6   expert_projection       V_ADD_VV row 16 = row 0 + row 0    [37, 39) (T4 writes rows 8..11)
///   7   expert_projection       C_LOOP_START 12                    [39, 40)
///   8-9 expert_projection       12 x (S_ADDI_INT, C_LOOP_END)      [40, 64), 24 instructions
///   10  expert_projection       V_ADD_VV row 16 = row 8 + row 16   ready 64, RAW with T4 until
///                                                                  67: stall 3, [67, 69)
///   11  non_moe                 H_STORE_V rows [16, 20)            [69, 70); transfer T8 [69, 102)
/// The program ends when T8 completes: 102 cycles (serial: 3 + 32 + 32 + 30 + 33 = 130). Billing:
/// the occupied cycles to their instruction's stage (residual_setup 3, expert_weight_prefetch 2,
/// expert_projection 30, non_moe 1); the unoccupied ones to the transfer in progress: [4, 35) to
/// T3 and [64, 67) to T4 (expert_weight_prefetch, 31 + 3), [70, 102) to T8 (non_moe, 32). So
/// residual_setup 3, expert_weight_prefetch 36, expert_projection 30, non_moe 33: 102. Hidden: T3
/// none (its cycle 3 is its own instruction's, [4, 35) unoccupied); T4 [36, 64), 28 cycles (35 is
/// its own instruction's); T8 none. Stalls: expert_weight_prefetch 31 (queue_full),
/// expert_projection 3 (raw). HBM bytes: expert_weight_prefetch 2 x 288 read, non_moe 288 written,
/// although T4's bytes stream while the loop's instructions retire (the RTL reads HBM in the last
/// cycles of a transfer; billing the engine's counters between records, as the co-simulation did
/// before, put 216 of them in expert_projection on the RTL side).
const char* const kBilling = moesim::test::kDmaQueueProgram;

struct StageWant {
  const char* name;
  uint64_t instructions, cycles, hidden, stall, queue_full, raw, read, written;
};

const StageWant kBillingWant[] = {
    {"residual_setup", 3, 3, 0, 0, 0, 0, 0, 0},
    {"expert_weight_prefetch", 2, 36, 28, 31, 31, 0, 576, 0},
    {"expert_projection", 28, 30, 0, 3, 0, 3, 0, 0},
    {"non_moe", 1, 33, 0, 0, 0, 0, 0, 288},
};

}  // namespace

// A transfer's HBM bytes go to its own DMA instruction's stage on both engines: T4's 288 bytes
// move while expert_projection instructions retire.
BOOST_AUTO_TEST_CASE(overlap_cli_hbm_bytes_billed_to_the_transfer_s_stage) {
  const fs::path dir = workdir("overlap_hbm");
  std::ofstream(dir / "bill.asm") << kBilling;
  const auto r = moesim_cli("cosim --program bill.asm --dma-queue 1 --report r.json", dir);
  BOOST_TEST(r.code == 0);
  BOOST_TEST(r.out.find("VERDICT: EQUAL") != std::string::npos);
  const json rep = read_json(dir / "r.json");
  for (const StageWant& w : kBillingWant) {
    BOOST_TEST_CONTEXT(w.name) {
      const json& s = rep.at("stages").at(w.name);
      for (const char* e : {"golden", "rtl"}) {
        BOOST_TEST(s.at(std::string(e) + "_hbm_bytes_read").get<uint64_t>() == w.read);
        BOOST_TEST(s.at(std::string(e) + "_hbm_bytes_written").get<uint64_t>() == w.written);
      }
    }
  }
}

// The stage billing of section 7 on both engines (the figures above), in the --report JSON and
// the console table; `moesim run` reports the same per engine. Serially the same program takes
// 130 cycles (`--machine serial`) and the table and report have no hidden or stall column.
BOOST_AUTO_TEST_CASE(overlap_cli_stage_billing_hidden_and_stall_cycles) {
  const fs::path dir = workdir("overlap_billing");
  std::ofstream(dir / "bill.asm") << kBilling;
  const auto r = moesim_cli("cosim --program bill.asm --dma-queue 1 --report r.json", dir);
  BOOST_TEST(r.code == 0);
  BOOST_TEST(r.out.find("golden hidden") != std::string::npos);
  const json rep = read_json(dir / "r.json");
  uint64_t total = 0;
  for (const StageWant& w : kBillingWant) {
    BOOST_TEST_CONTEXT(w.name) {
      const json& s = rep.at("stages").at(w.name);
      BOOST_TEST(s.at("instructions").get<uint64_t>() == w.instructions);
      for (const std::string e : {"golden", "rtl"}) {
        BOOST_TEST(s.at(e + "_cycles").get<uint64_t>() == w.cycles);
        BOOST_TEST(s.at(e + "_hidden_cycles").get<uint64_t>() == w.hidden);
        BOOST_TEST(s.at(e + "_stall_cycles").get<uint64_t>() == w.stall);
        const json& c = s.at(e + "_stall_cycles_by_cause");
        BOOST_TEST(c.at("queue_full").get<uint64_t>() == w.queue_full);
        BOOST_TEST(c.at("raw").get<uint64_t>() == w.raw);
        BOOST_TEST(c.at("waw").get<uint64_t>() == 0u);
        BOOST_TEST(c.at("war").get<uint64_t>() == 0u);
      }
    }
    total += w.cycles;
  }
  BOOST_TEST(rep.at("stages").size() == std::size(kBillingWant));
  BOOST_TEST(total == 102u);
  BOOST_TEST(rep.at("total_cycles").at("golden").get<uint64_t>() == 102u);
  BOOST_TEST(rep.at("total_cycles").at("rtl").get<uint64_t>() == 102u);

  for (const char* engine : {"golden", "rtl"}) {
    BOOST_TEST_CONTEXT(engine) {
      const auto one = moesim_cli(std::string("run --engine ") + engine +
                                      " --program bill.asm --dma-queue 1 --report one.json",
                                  dir);
      BOOST_TEST(one.code == 0);
      const json j = read_json(dir / "one.json");
      for (const StageWant& w : kBillingWant) {
        const json& s = j.at("stages").at(w.name);
        BOOST_TEST(s.at("cycles").get<uint64_t>() == w.cycles, w.name);
        BOOST_TEST(s.at("hidden_cycles").get<uint64_t>() == w.hidden, w.name);
        BOOST_TEST(s.at("stall_cycles").get<uint64_t>() == w.stall, w.name);
      }
    }
  }

  const auto serial = moesim_cli("cosim --machine serial --program bill.asm --report s.json", dir);
  BOOST_TEST(serial.code == 0);
  BOOST_TEST(serial.out.find("hidden") == std::string::npos);
  const json s = read_json(dir / "s.json");
  BOOST_TEST(s.at("total_cycles").at("golden").get<uint64_t>() == 130u);
  BOOST_TEST(s.at("stages").at("expert_weight_prefetch").at("golden_cycles").get<uint64_t>() ==
             64u);
  BOOST_TEST(!s.at("stages").at("expert_weight_prefetch").contains("golden_hidden_cycles"));
}

namespace {

const std::string kDemo = "--model gpt-oss-20b --tokens 4 --hidden 128 --intermediate 128";

/// "cycles golden N, rtl M" of the verdict line of `moesim cosim`: {N, M}, or {-1, -1}.
std::pair<long long, long long> cosim_cycles(const std::string& out) {
  std::smatch m;
  const std::regex re("cycles golden ([0-9]+), rtl ([0-9]+);");
  if (!std::regex_search(out, m, re)) return {-1, -1};
  return {std::stoll(m[1]), std::stoll(m[2])};
}

}  // namespace

// machine.yaml's `serial` preset (docs/overlap.md section 9: `default` with DMA_QUEUE 0) runs the
// README demo in its documented 106,570 cycles (README.md, docs/performance.md) on the golden
// model, and on the RTL through `default`'s Verilated model (DMA_QUEUE is a run-time port).
BOOST_AUTO_TEST_CASE(overlap_cli_serial_preset_reproduces_the_demo) {
  const fs::path dir = workdir("overlap_serial");
  const auto r = moesim_cli("cosim --machine serial " + kDemo + " --quiet", dir);
  BOOST_TEST(r.code == 0);
  BOOST_TEST(r.out.find("VERDICT: EQUAL") != std::string::npos);
  BOOST_TEST((cosim_cycles(r.out) == std::pair<long long, long long>{106570, 106570}));
}

// The README demo with a DMA queue of 2 co-simulates EQUAL: every record, the final state, the
// unit busy spans, the stage table with its hidden and stall cycles and the per-stage HBM bytes.
// The builder double-buffers the projections for the queue (docs/workloads.md; it changes timing,
// never values): fewer cycles than the serial 106,570, and the stage cycles sum to the total.
BOOST_AUTO_TEST_CASE(overlap_cli_demo_with_a_dma_queue_is_equal) {
  const fs::path dir = workdir("overlap_demo");
  const auto r = moesim_cli("cosim " + kDemo + " --dma-queue 2 --report r.json", dir);
  BOOST_TEST(r.code == 0);
  BOOST_TEST(r.out.find("VERDICT: EQUAL") != std::string::npos);
  const auto [g, t] = cosim_cycles(r.out);
  BOOST_TEST(g == t);
  BOOST_TEST(g > 0);
  BOOST_TEST(g < 106570);
  const json rep = read_json(dir / "r.json");
  uint64_t cycles = 0, hidden = 0, stall = 0;
  for (const auto& [name, s] : rep.at("stages").items()) {
    cycles += s.at("rtl_cycles").get<uint64_t>();
    hidden += s.at("rtl_hidden_cycles").get<uint64_t>();
    stall += s.at("rtl_stall_cycles").get<uint64_t>();
  }
  BOOST_TEST(cycles == static_cast<uint64_t>(t));
  BOOST_TEST(hidden > 0u);
  BOOST_TEST(stall > 0u);
}
