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
#include <regex>
#include <string>

#include "moesim_test/cli.hpp"

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

// Serial (the default preset's DMA_QUEUE 0): 32 + 1 + 32 = 65 cycles. --dma-queue 2: the first
// prefetch occupies the core [0, 1), its transfer runs [0, 32); S_ADDI_INT [1, 2); the second
// prefetch issues in 2 (one transfer pending of 2) and occupies [2, 3); its transfer starts when
// the first completes, [32, 64). The program ends with the queue drained: 64 cycles. The flag
// reaches both engines.
BOOST_AUTO_TEST_CASE(overlap_cli_dma_queue_overrides_the_preset) {
  const fs::path dir = workdir("overlap_flag");
  std::ofstream(dir / "two.asm") << kTwoPrefetches;
  for (const char* engine : {"golden", "rtl"}) {
    BOOST_TEST_CONTEXT(engine) {
      const std::string run = std::string("run --quiet --engine ") + engine + " --program two.asm";
      BOOST_TEST(run_cycles(moesim_cli(run, dir).out, engine) == 65);
      BOOST_TEST(run_cycles(moesim_cli(run + " --dma-queue 0", dir).out, engine) == 65);
      BOOST_TEST(run_cycles(moesim_cli(run + " --dma-queue 2", dir).out, engine) == 64);
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
