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
#include <map>
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

namespace {

/// J(seed, n) of isa.yaml `hbm_jitter`, written here from the spec's text (not from either
/// model): x = seed ^ (n * 0x9E3779B9), MurmurHash3's 32-bit finaliser, then the high word of
/// h * (max + 1); seed 0 gives 0.
uint64_t spec_jitter(uint32_t seed, uint32_t n, uint32_t max) {
  if (seed == 0) return 0;
  uint32_t h = seed ^ (n * 0x9E3779B9u);
  h ^= h >> 16;
  h *= 0x85EBCA6Bu;
  h ^= h >> 13;
  h *= 0xC2B2AE35u;
  h ^= h >> 16;
  return (uint64_t{h} * (uint64_t{max} + 1)) >> 32;
}

}  // namespace

// --hbm-jitter SEED (docs/overlap.md section 12) on both engines, kTwoPrefetches on `default`
// (HBM_JITTER_MAX 31: J = h >> 27). Seed 2: J(2, 0) = 0x30F4C306 >> 27 = 6, J(2, 1) =
// 0xB4421BBB >> 27 = 22. Queue of 2: transfer 0 runs [0, 32 + 6 = 38); S_ADDI_INT [1, 2); the
// second prefetch issues in 2, its transfer starts when the first completes, [38, 38 + 32 + 22 =
// 92): 92 cycles. Serial: 38 + 1 + 54 = 93. Seed 0 is no jitter: 64 and 65 as without the flag.
BOOST_AUTO_TEST_CASE(overlap_cli_hbm_jitter_lengthens_each_transfer) {
  BOOST_TEST(spec_jitter(2, 0, 31) == 6u);
  BOOST_TEST(spec_jitter(2, 1, 31) == 22u);
  const fs::path dir = workdir("overlap_jitter");
  std::ofstream(dir / "two.asm") << kTwoPrefetches;
  for (const char* engine : {"golden", "rtl"}) {
    BOOST_TEST_CONTEXT(engine) {
      const std::string run = std::string("run --quiet --engine ") + engine + " --program two.asm";
      BOOST_TEST(run_cycles(moesim_cli(run + " --hbm-jitter 2", dir).out, engine) == 92);
      BOOST_TEST(run_cycles(moesim_cli(run + " --hbm-jitter 2 --dma-queue 0", dir).out, engine) ==
                 93);
      BOOST_TEST(run_cycles(moesim_cli(run + " --hbm-jitter 0", dir).out, engine) == 64);
      BOOST_TEST(run_cycles(moesim_cli(run + " --hbm-jitter 0 --dma-queue 0", dir).out, engine) ==
                 65);
    }
  }
  const auto c = moesim_cli("cosim --program two.asm --hbm-jitter 2", dir);
  BOOST_TEST(c.code == 0, c.out + c.err);
  BOOST_TEST(c.out.find("hbm-jitter=2 (up to 31 cycles)") != std::string::npos, c.out);
  BOOST_TEST((cosim_cycles(c.out) == std::pair<long long, long long>{92, 92}));
}

// A seed out of range or not a number: exit 2 with one `moesim: error:` line naming
// --hbm-jitter, on every command that has the flag. A jittered co-simulation does not start or
// end at a checkpoint (it holds no transfer number): --windows, --from-retire and --to-retire exit
// 2 naming --hbm-jitter, --from-checkpoint naming the file.
BOOST_AUTO_TEST_CASE(overlap_cli_bad_hbm_jitter_exits_2) {
  const fs::path dir = workdir("overlap_bad_jitter");
  std::ofstream(dir / "two.asm") << kTwoPrefetches;
  auto refused = [&](const std::string& args, const std::string& named) {
    BOOST_TEST_CONTEXT(args) {
      const auto r = moesim_cli(args, dir);
      BOOST_TEST(r.code == 2);
      BOOST_TEST(r.err.rfind("moesim: error: ", 0) == 0u, r.err);
      BOOST_TEST(r.err.find(named) != std::string::npos, r.err);
      BOOST_TEST(std::count(r.err.begin(), r.err.end(), '\n') == 1);
    }
  };
  for (const char* cmd : {"run --engine golden --program two.asm", "cosim --program two.asm",
                          "bench --engine golden --demo", "random --cosim --count 1"})
    for (const char* value : {"4294967296", "x", "-1", "1.5", "99999999999999999999", "''"})
      refused(std::string(cmd) + " --hbm-jitter " + value, "--hbm-jitter");
  refused("cosim --program two.asm --hbm-jitter 3 --windows 2", "--hbm-jitter");
  refused("cosim --program two.asm --hbm-jitter 3 --from-retire 1", "--hbm-jitter");
  refused("cosim --program two.asm --hbm-jitter 3 --to-retire 2", "--hbm-jitter");
  fs::remove(dir / "c.ckpt");
  const auto s =
      moesim_cli("checkpoint --program two.asm --dma-queue 0 --save c.ckpt --at-retire 2", dir);
  BOOST_TEST_REQUIRE(s.code == 0, s.out + s.err);
  refused("cosim --program two.asm --dma-queue 0 --hbm-jitter 3 --from-checkpoint c.ckpt",
          "--from-checkpoint c.ckpt: made without HBM jitter");
}

// The README demo on the serial machine with jitter: every DMA instruction occupies the core for
// its isa.yaml latency (H_PREFETCH_V 32, H_PREFETCH_M 24 + 64 * 2 = 152, H_STORE_V 33 on default)
// plus J(5, n), n its rank among the DMA instructions, so each one's end - start in both engines'
// trace logs is that, and the total is the serial 106,570 plus the sum of the J. With the queue of
// `default` the engines agree cycle for cycle and the run is longer than the 76,112 cycles of
// fixed latency.
BOOST_AUTO_TEST_CASE(overlap_cli_jitter_demo_serial_total_and_queued_equal) {
  const fs::path dir = workdir("overlap_jitter_demo");
  const auto r = moesim_cli(
      "cosim --machine serial " + kDemo + " --hbm-jitter 5 --trace-log t.log --quiet", dir);
  BOOST_TEST(r.code == 0, r.out + r.err);
  BOOST_TEST(r.out.find("VERDICT: EQUAL") != std::string::npos);
  const std::map<std::string, uint64_t> latency = {
      {"H_PREFETCH_V", 32}, {"H_PREFETCH_M", 152}, {"H_STORE_V", 33}};
  const std::regex line(
      R"(^\s*\d+\s+(\d+)\s+(\d+)\s+\d+\s+0x[0-9A-F]+\s+\S+\s+\S+\s+(H_PREFETCH_M|H_PREFETCH_V|H_STORE_V)\b)");
  for (const char* engine : {"golden", "rtl"}) {
    BOOST_TEST_CONTEXT(engine) {
      std::ifstream in(dir / (std::string("t.") + engine + ".log"));
      uint32_t n = 0;
      uint64_t sum = 0, wrong = 0;
      for (std::string l; std::getline(in, l);) {
        std::smatch m;
        if (!std::regex_search(l, m, line)) continue;
        const uint64_t j = spec_jitter(5, n++, 31);
        sum += j;
        if (std::stoull(m[2]) - std::stoull(m[1]) != latency.at(m[3]) + j) ++wrong;
      }
      BOOST_TEST(n > 100u);
      BOOST_TEST(wrong == 0u);
      BOOST_TEST(sum > 0u);
      BOOST_TEST(cosim_cycles(r.out).first == static_cast<long long>(106570 + sum));
    }
  }
  BOOST_TEST(cosim_cycles(r.out).first == cosim_cycles(r.out).second);
  const auto q = moesim_cli("cosim " + kDemo + " --hbm-jitter 5 --quiet", dir);
  BOOST_TEST(q.code == 0, q.out + q.err);
  BOOST_TEST(q.out.find("VERDICT: EQUAL") != std::string::npos);
  const auto [g, t] = cosim_cycles(q.out);
  BOOST_TEST(g == t);
  BOOST_TEST(g > 76112);
}
