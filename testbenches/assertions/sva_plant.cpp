// sva_plant: plants one violation of an RTL assertion (rtl_model/sva, docs/assertions.md) in a
// moe_top Verilated with --assert and every signal public, and reports whether Verilator saw an
// assertion fail. `sva_plant <Name>_A` runs the plant of that assertion: a short program runs
// until the instruction the plant needs has issued, then one register of the design is written
// (the plant) and the model runs on. Verilator prints the failing assertion's name
// ("%Error: ...: Assertion failed in TOP.moe_top...<Name>_A: ..."), which ctest matches. Exit 0
// when an assertion failed after the plant, 1 when none did, 2 when one failed before it.
// `sva_plant --clean` runs every plant program without its plant: exit 0 when no assertion
// fails. No plant changes what the hardware computes; it writes a register the way a bug would.
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "Vsva_checker.h"
#include "Vsva_top.h"
#include "Vsva_top___024root.h"
#include "moesim/isa/assembler.hpp"
#include "moesim/isa/spec.hpp"
#include "verilated.h"

namespace {

// The tiny preset's run-time sizes as the bench sets them: MRAM_TILES below the array's
// MRAM_TILES_MAX (8), so that an MRAM row past the run-time size still has bits to be held in.
constexpr uint8_t kMramTiles = 2;
constexpr uint64_t kHbmBytes = 1 << 20;

std::vector<uint8_t> g_hbm(kHbmBytes);

struct Plant {
  const char* assertion;
  const char* program;
  uint32_t pc;  ///< the plant is written in the cycle after instruction pc issues
  std::function<void(Vsva_top___024root&)> poke;
  uint8_t dma_queue = 0;  ///< dma_queue_i (DMA_QUEUE) of the run
};

// Programs: one instruction of the unit the plant targets (V_TOPK after its operands).
const char* const kVec = "V_ADD_VV gp0, gp0, gp0, 0\n";
const char* const kMap = "S_MAP_V_FP gp0, gp0, 0\n";
const char* const kTopk =
    "S_ADDI_INT gp1, gp0, 128\nS_ADDI_INT gp2, gp0, 100\nS_ADDI_INT gp3, gp0, 200\n"
    "V_TOPK gp2, gp1, gp3, 0\n";
const char* const kMv = "M_MV 0, gp0, gp0\n";
const char* const kMm = "M_MM 0, gp0, gp0\n";
const char* const kMmWo = "M_MM_WO gp0, gp0, 0\n";
const char* const kPrefV = "H_PREFETCH_V gp0, gp0, a0, 0, 0\n";
const char* const kPrefM = "H_PREFETCH_M gp0, gp0, a0, 0, 0\n";
const char* const kVecMap = "V_ADD_VV gp0, gp0, gp0, 0\nS_MAP_V_FP gp0, gp0, 0\n";

constexpr uint8_t kUnitCore = 0;  // moe_pkg::UNIT_CORE

std::vector<Plant> plants() {
  return {
      // Start-while-busy: the core believes the unit done (busy_q cleared) and issues its pc again
      // (or, with pc_q moved on, the next instruction, of another unit).
      {"TopOneUnitBusy_A", kVecMap, 0,
       [](auto& r) {
         r.moe_top__DOT__u_fetch__DOT__busy_q = 0;
         r.moe_top__DOT__u_fetch__DOT__pc_q = 1;
       }},
      {"MapStartIdle_A", kMap, 0, [](auto& r) { r.moe_top__DOT__u_fetch__DOT__busy_q = 0; }},
      {"VecStartIdle_A", kVec, 0, [](auto& r) { r.moe_top__DOT__u_fetch__DOT__busy_q = 0; }},
      {"TopkStartIdle_A", kTopk, 3, [](auto& r) { r.moe_top__DOT__u_fetch__DOT__busy_q = 0; }},
      {"MatrixStartIdle_A", kMv, 0, [](auto& r) { r.moe_top__DOT__u_fetch__DOT__busy_q = 0; }},
      {"DmaStartIdle_A", kPrefV, 0, [](auto& r) { r.moe_top__DOT__u_fetch__DOT__busy_q = 0; }},
      // Illegal state codes.
      {"TopUnitLegal_A", kVec, 0, [](auto& r) { r.moe_top__DOT__u_fetch__DOT__unit_q = 7; }},
      {"VecStateLegal_A", kVec, 0, [](auto& r) { r.moe_top__DOT__u_vector__DOT__state_q = 7; }},
      // Done while the core waits on another unit.
      {"MapDoneOwner_A", kMap, 0,
       [](auto& r) { r.moe_top__DOT__u_fetch__DOT__unit_q = kUnitCore; }},
      {"VecDoneOwner_A", kVec, 0,
       [](auto& r) { r.moe_top__DOT__u_fetch__DOT__unit_q = kUnitCore; }},
      {"TopkDoneOwner_A", kTopk, 3,
       [](auto& r) { r.moe_top__DOT__u_fetch__DOT__unit_q = kUnitCore; }},
      {"MatrixDoneOwner_A", kMv, 0,
       [](auto& r) { r.moe_top__DOT__u_fetch__DOT__unit_q = kUnitCore; }},
      {"DmaDoneOwner_A", kPrefV, 0,
       [](auto& r) { r.moe_top__DOT__u_fetch__DOT__unit_q = kUnitCore; }},
      // gp0 itself (its write port: run_checker()).
      {"TopGp0Zero_A", kVec, 0, [](auto& r) { r.moe_top__DOT__u_regs__DOT__gp_q[0] = 5; }},
      // Addresses past the preset's sizes (tiny: VRAM 2048 rows, FP SRAM 2048 and INT SRAM 1024
      // words, MRAM kMramTiles tiles of MLEN 16 rows, HBM kHbmBytes).
      {"TopkVramRow_A", kTopk, 3, [](auto& r) { r.moe_top__DOT__u_topk__DOT__row_q = 5000; }},
      {"TopkIntAddr_A", kTopk, 3, [](auto& r) { r.moe_top__DOT__u_topk__DOT__id_addr_q = 5000; }},
      {"TopkFpAddr_A", kTopk, 3, [](auto& r) { r.moe_top__DOT__u_topk__DOT__w_addr_q = 5000; }},
      {"MatrixVramRow_A", kMm, 0, [](auto& r) { r.moe_top__DOT__u_matrix__DOT__act_row_q = 5000; }},
      {"MatrixVramWrow_A", kMmWo, 0,
       [](auto& r) { r.moe_top__DOT__u_matrix__DOT__wo_row_q = 5000; }},
      {"MatrixMramRow_A", kMv, 0, [](auto& r) { r.moe_top__DOT__u_matrix__DOT__mat_row_q = 100; }},
      {"DmaMramRow_A", kPrefM, 0, [](auto& r) { r.moe_top__DOT__u_dma__DOT__row_base_q = 100; }},
      {"DmaHbmRange_A", kPrefV, 0,
       [](auto& r) { r.moe_top__DOT__u_dma__DOT__req_code_q = kHbmBytes; }},
  };
}

// Programs of the DMA queue (docs/overlap.md) that --clean runs unplanted: a RAW stall on
// prefetched rows, and three prefetches through a queue of one (queue_full) before a vector
// instruction that reads the last one's rows.
std::vector<Plant> queue_programs() {
  return {
      {"queue.raw",
       "S_ADDI_INT gp1, gp0, 16\nH_PREFETCH_V gp0, gp0, a0, 0, 0\nV_ADD_VV gp1, gp0, gp0, 0\n", 0,
       nullptr, 2},
      {"queue.full",
       "S_ADDI_INT gp1, gp0, 64\nS_ADDI_INT gp2, gp0, 128\nH_PREFETCH_V gp0, gp0, a0, 0, 0\n"
       "H_PREFETCH_V gp1, gp0, a0, 0, 0\nH_PREFETCH_V gp2, gp0, a0, 0, 0\n"
       "V_ADD_VV gp1, gp2, gp0, 0\n",
       0, nullptr, 1},
  };
}

// Runs `p`; plants when `plant`. Returns 0 (an assertion failed after the plant, or none failed
// in a clean run), 1 (none failed after the plant, or one failed in a clean run), 2 (one failed
// before the plant).
int run(const moesim::isa::Spec& spec, const Plant& p, bool plant) {
  const moesim::isa::Program prog = moesim::isa::assemble(spec, p.program, p.assertion);
  auto ctx = std::make_unique<VerilatedContext>();
  ctx->fatalOnError(false);
  auto top = std::make_unique<Vsva_top>(ctx.get(), "TOP");
  auto& r = *top->rootp;
  auto clock = [&] {
    top->clk_i = 1;
    top->eval();
    ctx->timeInc(5);
    top->clk_i = 0;
    top->eval();
    ctx->timeInc(5);
  };
  top->prog_len_i = 0;
  top->instruction_budget_i = 1000;
  top->mram_tiles_i = kMramTiles;
  top->hbm_bytes_i = kHbmBytes;
  top->dma_queue_i = p.dma_queue;
  top->rst_ni = 0;
  top->clk_i = 0;
  top->eval();
  clock();
  clock();
  top->rst_ni = 1;
  top->eval();
  for (size_t pc = 0; pc < prog.words.size(); ++pc)
    r.moe_top__DOT__u_fetch__DOT__imem[pc] =
        (static_cast<uint64_t>(prog.stages[pc]) << 32) | prog.words[pc];
  top->prog_len_i = static_cast<uint32_t>(prog.words.size());
  top->eval();

  bool planted = !plant;
  for (int cycle = 0; cycle < 2000 && !top->halted_o; ++cycle) {
    if (top->trap_valid_o) {
      std::printf("sva_plant %s: the program traps (cause %u at pc %u)\n", p.assertion,
                  static_cast<unsigned>(top->trap_cause_o), top->trap_pc_o);
      return 1;
    }
    const bool issues = top->issue_valid_o && top->issue_pc_o == p.pc;
    clock();
    if (ctx->gotError()) {
      std::printf("sva_plant %s: an assertion failed %s\n", p.assertion,
                  planted && plant ? "after the plant" : "without a plant");
      return planted && plant ? 0 : plant ? 2 : 1;
    }
    if (issues && !planted) {
      p.poke(r);
      top->eval();
      planted = true;
      std::printf("sva_plant %s: planted in cycle %d\n", p.assertion, cycle + 1);
    }
  }
  if (plant) std::printf("sva_plant %s: no assertion failed after the plant\n", p.assertion);
  return plant ? 1 : 0;
}

// The plants no register of moe_top can make drive the inputs of moe_top_sva, Verilated on its own
// as Vsva_checker: in cycle 5 `drive` sets them as the violation (`plant`) or as a legal cycle.
// TopGp0Port_A: the scalar unit and the loop counters gate rd 0 in their own logic. The DMA
// queue's: the queue and the scoreboard read the same count and regions the checker does, so a
// register written in moe_top changes both; the checker recomputes the scoreboard on its own.
struct CheckerPlant {
  const char* assertion;
  std::function<void(Vsva_checker&, bool)> drive;
};

std::vector<CheckerPlant> checker_plants() {
  return {
      // The register-file write port addresses gp0 (clean: gp3).
      {"TopGp0Port_A",
       [](auto& c, bool plant) {
         c.gp_we = 1;
         c.gp_waddr = plant ? 0 : 3;
       }},
      // DMA_QUEUE 1 and one transfer pending: one more is queued (clean: none pending).
      {"DmaqPushFull_A",
       [](auto& c, bool plant) {
         c.dma_queue_q = 1;
         c.dmaq_count = plant ? 1 : 0;
         c.dmaq_push = 1;
       }},
      // A transfer completes with none pending (clean: one pending).
      {"DmaqPopEmpty_A",
       [](auto& c, bool plant) {
         c.dma_queue_q = 1;
         c.dmaq_count = plant ? 0 : 1;
         c.dmaq_pop = 1;
       }},
      // A vector instruction reading VRAM row 4 (clean: row 8) issues while an H_PREFETCH_V
      // writing rows [4, 8) is pending. Packed layouts (moe_pkg, MSB first): footprint_t words
      // 7, 6 are vram_rd_a.lo, .hi; region_t entry 0 is words 0 (hi), 1 (lo) and bits 64
      // (write), 65 (mram).
      {"TopIssueHazard_A",
       [](auto& c, bool plant) {
         c.dma_queue_q = 1;
         c.dmaq_count = 1;
         c.dmaq_region[0] = 8;
         c.dmaq_region[1] = 4;
         c.dmaq_region[2] = 1;
         c.issue = 1;
         c.dec_unit = 2;  // moe_pkg::UNIT_VECTOR
         c.footprint[7] = plant ? 4 : 8;
         c.footprint[6] = plant ? 5 : 9;
       }},
  };
}

// Runs checker plant `p`. Same exit codes as run().
int run_checker(const CheckerPlant& p, bool plant) {
  auto ctx = std::make_unique<VerilatedContext>();
  ctx->fatalOnError(false);
  auto chk = std::make_unique<Vsva_checker>(ctx.get(), "TOP");
  chk->mram_tiles_q = kMramTiles;
  chk->hbm_bytes_q = kHbmBytes;
  chk->rst_ni = 0;
  for (int cycle = 0; cycle < 8; ++cycle) {
    if (cycle == 2) chk->rst_ni = 1;
    if (cycle == 5) {
      p.drive(*chk, plant);
      std::printf("sva_plant %s: %s in cycle %d\n", p.assertion, plant ? "planted" : "legal inputs",
                  cycle);
    }
    chk->clk_i = 0;
    chk->eval();
    ctx->timeInc(5);
    chk->clk_i = 1;
    chk->eval();
    ctx->timeInc(5);
    if (ctx->gotError()) {
      std::printf("sva_plant %s: an assertion failed %s\n", p.assertion,
                  plant && cycle >= 5 ? "after the plant" : "without a plant");
      return plant && cycle >= 5 ? 0 : plant ? 2 : 1;
    }
  }
  if (plant) std::printf("sva_plant %s: no assertion failed after the plant\n", p.assertion);
  return plant ? 1 : 0;
}

}  // namespace

// The HBM backing store behind moe_hbm's DPI-C calls (the harness's, rtl_model/src/model.cpp,
// for moesim runs).
extern "C" unsigned char moe_hbm_read(unsigned long long addr) {
  return addr < g_hbm.size() ? g_hbm[addr] : 0;
}
extern "C" void moe_hbm_write(unsigned long long addr, unsigned char data) {
  if (addr < g_hbm.size()) g_hbm[addr] = data;
}

int main(int argc, char** argv) {
  const std::string arg = argc == 2 ? argv[1] : "";
  const moesim::isa::Spec& spec = moesim::isa::Spec::builtin();
  const std::vector<Plant> all = plants();
  const std::vector<CheckerPlant> all_checker = checker_plants();
  if (arg == "--clean") {
    int bad = 0;
    const std::vector<Plant> queued = queue_programs();
    for (const Plant& p : all) bad += run(spec, p, false);
    for (const Plant& p : queued) bad += run(spec, p, false);
    for (const CheckerPlant& p : all_checker) bad += run_checker(p, false);
    std::printf("sva_plant --clean: %zu programs, %d with an assertion failure\n",
                all.size() + queued.size() + all_checker.size(), bad);
    return bad == 0 ? 0 : 1;
  }
  for (const Plant& p : all)
    if (arg == p.assertion) return run(spec, p, true);
  for (const CheckerPlant& p : all_checker)
    if (arg == p.assertion) return run_checker(p, true);
  std::fprintf(stderr, "usage: sva_plant <Name>_A | --clean\n");
  return 2;
}
