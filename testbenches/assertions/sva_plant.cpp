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

// TopGp0Port_A: no register of moe_top makes its write port address gp0 (the scalar unit and
// the loop counters gate rd 0 in their own logic), so the plant drives the inputs of moe_top_sva,
// Verilated on its own as Vsva_checker, with the port's enable and address 0 (`plant`), or with
// address 3 (clean). Same exit codes as run().
int run_checker(bool plant) {
  auto ctx = std::make_unique<VerilatedContext>();
  ctx->fatalOnError(false);
  auto chk = std::make_unique<Vsva_checker>(ctx.get(), "TOP");
  chk->mram_tiles_q = kMramTiles;
  chk->hbm_bytes_q = kHbmBytes;
  chk->rst_ni = 0;
  for (int cycle = 0; cycle < 8; ++cycle) {
    if (cycle == 2) chk->rst_ni = 1;
    if (cycle == 5) {
      chk->gp_we = 1;
      chk->gp_waddr = plant ? 0 : 3;
      std::printf("sva_plant TopGp0Port_A: %s in cycle %d\n", plant ? "planted" : "gp3 written",
                  cycle);
    }
    chk->clk_i = 0;
    chk->eval();
    ctx->timeInc(5);
    chk->clk_i = 1;
    chk->eval();
    ctx->timeInc(5);
    if (ctx->gotError()) {
      std::printf("sva_plant TopGp0Port_A: an assertion failed %s\n",
                  plant && cycle >= 5 ? "after the plant" : "without a plant");
      return plant && cycle >= 5 ? 0 : plant ? 2 : 1;
    }
  }
  if (plant) std::printf("sva_plant TopGp0Port_A: no assertion failed after the plant\n");
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
  if (arg == "--clean") {
    int bad = 0;
    for (const Plant& p : all) bad += run(spec, p, false);
    bad += run_checker(false);
    std::printf("sva_plant --clean: %zu plants, %d with an assertion failure\n", all.size() + 1,
                bad);
    return bad == 0 ? 0 : 1;
  }
  for (const Plant& p : all)
    if (arg == p.assertion) return run(spec, p, true);
  if (arg == "TopGp0Port_A") return run_checker(true);
  std::fprintf(stderr, "usage: sva_plant <Name>_A | --clean\n");
  return 2;
}
