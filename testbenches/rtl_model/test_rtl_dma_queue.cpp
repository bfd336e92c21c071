// The RTL's DMA queue (docs/overlap.md) on the tiny preset with DMA_QUEUE = 2: short
// programs whose every record (retire and transfer, in the order step() returns them) and total
// cycles are derived by hand from docs/overlap.md and isa.yaml's latencies, never read back from
// the RTL. Tiny: HBM_LATENCY 8, HBM_BYTES_PER_CYCLE 16, VLEN 16, HBM_V_ROWS 4, MX_BLOCK 8, so
// H_PREFETCH_V takes L = 8 + 4 * (ceil(16/16) + ceil(2/16)) = 16 cycles and H_STORE_V 17;
// V_ADD_VV 2, S_ADDI_INT 1. The full queue, back-to-back transfers and WAR on stored rows are ISA
// conformance cases now, run on both engines (testbenches/conformance/H_*/dma_*,
// docs/conformance.md); these tests keep what only the records show.
#define BOOST_TEST_MODULE rtl_dma_queue
#include <boost/test/unit_test.hpp>
#include <string>
#include <vector>

#include "moesim/isa/assembler.hpp"
#include "moesim/rtl/model.hpp"

namespace {

using namespace moesim;
using isa::RecordKind;
using isa::Space;
using isa::StallCause;

const isa::Spec& spec() { return isa::Spec::builtin(); }

isa::MachinePreset tiny(int64_t queue) {
  isa::MachinePreset p = spec().preset("tiny");
  p.params["DMA_QUEUE"] = queue;
  return p;
}

/// What a record must hold (memory writes as merged intervals, digests not compared).
struct Want {
  RecordKind kind;
  uint64_t index;
  uint32_t pc;
  uint64_t ready, start, end, stall;
  StallCause cause;
  std::vector<isa::MemWrite> mems;
};

constexpr RecordKind kR = RecordKind::Retire;
constexpr RecordKind kX = RecordKind::Transfer;

/// Runs `src` on tiny with DMA_QUEUE = `queue` (INSTRUCTION_BUDGET `budget` if not 0) and checks
/// every record against `want` and the total against `cycles`.
void check(const std::string& src, int64_t queue, const std::vector<Want>& want, uint64_t cycles,
           uint64_t budget = 0) {
  const isa::MachinePreset p = tiny(queue);
  auto engine = rtl::make_rtl_model(spec(), p);
  if (budget != 0) engine->set_instruction_budget(budget);
  engine->load(isa::assemble(spec(), src, "dma_queue"), {});
  std::vector<isa::RetireRecord> got;
  isa::RetireRecord r;
  while (engine->step(r)) got.push_back(r);
  BOOST_TEST_REQUIRE(got.size() == want.size());
  for (size_t i = 0; i < want.size(); ++i) {
    BOOST_TEST_CONTEXT("record " << i) {
      const Want& w = want[i];
      const isa::RetireRecord& g = got[i];
      BOOST_TEST((g.kind == w.kind));
      BOOST_TEST(g.index == w.index);
      BOOST_TEST(g.pc == w.pc);
      BOOST_TEST(g.start_cycle == w.start);
      BOOST_TEST(g.end_cycle == w.end);
      if (w.kind == kR) {
        BOOST_TEST(g.ready_cycle == w.ready);
        BOOST_TEST(g.stall_cycles == w.stall);
        BOOST_TEST((g.stall_cause == w.cause));
      }
      BOOST_TEST_REQUIRE(g.mems.size() == w.mems.size());
      for (size_t m = 0; m < w.mems.size(); ++m) {
        BOOST_TEST((g.mems[m].space == w.mems[m].space));
        BOOST_TEST(g.mems[m].begin == w.mems[m].begin);
        BOOST_TEST(g.mems[m].end == w.mems[m].end);
      }
    }
  }
  BOOST_TEST(engine->halted());
  BOOST_TEST(engine->cycles() == cycles);
}

constexpr StallCause kNone = StallCause::None;

}  // namespace

// H_PREFETCH_V of VRAM rows [0, 4) issues in 1 and retires in 2; its transfer runs [1, 17). The
// V_ADD_VV reading row 0 is ready in 2 and stalls (RAW) until 17: 15 cycles, the serial cost.
BOOST_AUTO_TEST_CASE(raw_on_prefetched_rows) {
  check("S_ADDI_INT gp1, gp0, 16\nH_PREFETCH_V gp0, gp0, a0, 0, 0\nV_ADD_VV gp1, gp0, gp0, 0\n", 2,
        {{kR, 0, 0, 0, 0, 1, 0, kNone, {}},
         {kR, 1, 1, 1, 1, 2, 0, kNone, {}},
         {kX, 1, 1, 0, 1, 17, 0, kNone, {{Space::Vram, 0, 4, 0}}},
         {kR, 2, 2, 2, 17, 19, 15, StallCause::Raw, {{Space::Vram, 1, 2, 0}}}},
        19);
}

// The same program without a queue: the prefetch occupies the core [1, 17), nothing stalls.
BOOST_AUTO_TEST_CASE(serial_without_queue) {
  check("S_ADDI_INT gp1, gp0, 16\nH_PREFETCH_V gp0, gp0, a0, 0, 0\nV_ADD_VV gp1, gp0, gp0, 0\n", 0,
        {{kR, 0, 0, 0, 0, 1, 0, kNone, {}},
         {kR, 1, 1, 1, 1, 17, 0, kNone, {{Space::Vram, 0, 4, 0}}},
         {kR, 2, 2, 17, 17, 19, 0, kNone, {{Space::Vram, 1, 2, 0}}}},
        19);
}

// INSTRUCTION_BUDGET 2: the third instruction traps in its ready cycle 2 while the prefetch's
// transfer [0, 16) is pending; the transfer completes, and the run ends in 16.
BOOST_AUTO_TEST_CASE(trap_with_transfer_pending) {
  const uint64_t budget = 2;
  check("H_PREFETCH_V gp0, gp0, a0, 0, 0\nS_ADDI_INT gp1, gp0, 1\nS_ADDI_INT gp2, gp0, 1\n", 2,
        {{kR, 0, 0, 0, 0, 1, 0, kNone, {}},
         {kR, 1, 1, 1, 1, 2, 0, kNone, {}},
         {kR, 2, 2, 2, 2, 2, 0, kNone, {}},
         {kX, 0, 0, 0, 0, 16, 0, kNone, {{Space::Vram, 0, 4, 0}}}},
        16, budget);
}
