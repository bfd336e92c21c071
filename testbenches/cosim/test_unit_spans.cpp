// Unit busy spans: the RTL's (moe_top unit_busy_o, sampled by RtlModel) equal the golden model's
// (the unit each instruction is dispatched to, for its isa.yaml latency) span for span, record
// by record, on a program that keeps every unit of isa.yaml busy, including a loop (consecutive
// instructions of one unit give one span each) and every multi-cycle datapath of the RTL.
#include <algorithm>
#include <boost/test/unit_test.hpp>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "moesim/cosim/engines.hpp"
#include "moesim/isa/assembler.hpp"
#include "moesim/isa/engine.hpp"

using namespace moesim;

namespace {

std::string text(const isa::Spec& spec, const std::vector<isa::UnitSpan>& spans) {
  std::ostringstream o;
  o << "{";
  for (const isa::UnitSpan& s : spans)
    o << " " << spec.units().at(s.unit) << "[" << s.begin << "," << s.end << ")";
  o << " }";
  return o.str();
}

}  // namespace

BOOST_AUTO_TEST_CASE(rtl_unit_spans_equal_golden_on_every_unit) {
  const isa::Spec& spec = isa::Spec::builtin();
  // Serially (DMA_QUEUE 0): every instruction, DMA ones included, keeps its unit busy for its
  // isa.yaml latency (with a queue a transfer's span comes with its transfer record: the test
  // below).
  isa::MachinePreset preset = spec.preset(cosim::rtl_built_presets().front());
  preset.params.at("DMA_QUEUE") = 0;
  const int64_t vlen = preset.vlen();
  // VRAM rows: 0..3 activations, 8..11 prefetched, 16 logits, 20.. results.
  const std::string row = std::to_string(vlen);
  const isa::Program program = isa::assemble(spec,
                                             R"(
    S_ADDI_INT gp1, gp0, )" + row + R"(
    S_ADDI_INT gp2, gp0, 3
    C_SET_V_MASK_REG gp2
    S_LUI_INT gp3, 16
    C_SET_SCALE_REG gp3
    S_ADDI_INT gp4, gp0, )" + std::to_string(8 * vlen) +
                                                 R"(
    H_PREFETCH_V gp4, gp0, a0, 0, 0
    H_PREFETCH_M gp0, gp0, a0, 0, 0
    S_ADDI_INT gp5, gp0, )" + std::to_string(20 * vlen) +
                                                 R"(
    C_LOOP_START gp9, 2
    M_MM 0, gp0, gp4
    V_ADD_VV gp5, gp4, gp1
    V_ADD_VV gp5, gp4, gp1, 1
    C_LOOP_END gp9
    M_MM_WO gp5, gp0, 0
    V_RED_SUM f1, gp5
    V_EXP_V gp5, gp4
    S_ST_FP f1, gp0, 7
    S_MAP_V_FP gp5, gp0, 0
    S_ADDI_INT gp6, gp0, )" + std::to_string(16 * vlen) +
                                                 R"(
    V_TOPK gp0, gp6, gp0, 0
    V_GATHER gp5, gp4, gp0
    V_SCATTER_ADD gp5, gp4, gp0
    S_ADDI_INT gp7, gp0, 4096
    H_STORE_V gp5, gp7, a0, 0, 0
  )",
                                             "unit_spans.asm");
  auto golden = cosim::make_golden_engine(spec, preset);
  auto rtl = cosim::make_rtl_engine(spec, preset);
  golden->load(program, {});
  rtl->load(program, {});
  std::set<uint8_t> units;
  size_t records = 0;
  for (;;) {
    isa::RetireRecord g, r;
    const bool gs = golden->step(g), rs = rtl->step(r);
    BOOST_REQUIRE_EQUAL(gs, rs);
    if (!gs) break;
    ++records;
    BOOST_REQUIRE(!g.trap.has_value());
    BOOST_REQUIRE_EQUAL(g.start_cycle, r.start_cycle);
    BOOST_REQUIRE_EQUAL(g.end_cycle, r.end_cycle);
    const auto gsp = golden->take_unit_spans(), rsp = rtl->take_unit_spans();
    BOOST_TEST(gsp == rsp, "pc " << g.pc << " (" << isa::disassemble(spec, g.word) << "), cycles ["
                                 << g.start_cycle << "," << g.end_cycle << "): golden "
                                 << text(spec, gsp) << ", rtl " << text(spec, rsp));
    BOOST_TEST(gsp.size() == 1u);  // one unit per instruction, for its whole latency
    for (const isa::UnitSpan& s : gsp) units.insert(s.unit);
  }
  BOOST_TEST(records == program.size() + 4);  // the 4-instruction loop body runs twice
  BOOST_TEST(units.size() == spec.units().size(), "units busy: " << units.size());
  BOOST_TEST(rtl->take_unit_spans().empty());
}

// With a DMA queue (docs/overlap.md section 10) both engines report a transfer's DMA unit busy
// over the transfer [s, f) and nothing for its DMA instruction's one issue cycle. `default` with
// DMA_QUEUE 2 (MLEN 64, HBM_LATENCY 24, HBM_BYTES_PER_CYCLE 64, HBM_M_ROWS 64, BLEN 4,
// MX_BLOCK 8): H_PREFETCH_M 24 + 64 * (1 + 1) = 152 cycles, M_MM 4 + 64/8 + 1 = 13. S_ADDI_INT
// scalar [0, 1); the H_PREFETCH_M of tile 1 (MRAM rows [64, 128)) issues in 1, no span, its
// transfer dma [1, 153); S_ADDI_INT scalar [2, 3); the M_MM reading rows [64, 68) stalls (RAW)
// until 153 and runs matrix [153, 166).
BOOST_AUTO_TEST_CASE(rtl_unit_spans_equal_golden_with_a_dma_queue) {
  const isa::Spec& spec = isa::Spec::builtin();
  isa::MachinePreset preset = spec.preset("default");
  preset.params.at("DMA_QUEUE") = 2;
  const isa::Program program = isa::assemble(spec, R"(
    S_ADDI_INT gp1, gp0, 4096
    H_PREFETCH_M gp1, gp0, a0, 0, 0
    S_ADDI_INT gp2, gp0, 0
    M_MM 0, gp1, gp2
  )",
                                             "queued_spans.asm");
  const auto& units = spec.units();
  auto unit = [&](const char* name) {
    return static_cast<uint8_t>(std::find(units.begin(), units.end(), name) - units.begin());
  };
  const uint8_t scalar = unit("scalar"), dma = unit("dma"), matrix = unit("matrix");
  using Spans = std::vector<isa::UnitSpan>;
  const std::vector<Spans> want{
      {{scalar, 0, 1}}, {}, {{scalar, 2, 3}}, {{dma, 1, 153}}, {{matrix, 153, 166}}};
  auto golden = cosim::make_golden_engine(spec, preset);
  auto rtl = cosim::make_rtl_engine(spec, preset);
  golden->load(program, {});
  rtl->load(program, {});
  for (size_t i = 0;; ++i) {
    isa::RetireRecord g, r;
    const bool gs = golden->step(g), rs = rtl->step(r);
    BOOST_REQUIRE_EQUAL(gs, rs);
    if (!gs) {
      BOOST_TEST(i == want.size());
      break;
    }
    BOOST_REQUIRE(i < want.size());
    const auto gsp = golden->take_unit_spans(), rsp = rtl->take_unit_spans();
    BOOST_TEST(gsp == want[i], "record " << i << ": golden " << text(spec, gsp));
    BOOST_TEST(rsp == want[i], "record " << i << ": rtl " << text(spec, rsp));
  }
}
