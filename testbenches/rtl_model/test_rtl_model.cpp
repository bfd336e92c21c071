// Smoke test of the RTL engine (moesim::rtl::make_rtl_model): a few instructions of every unit, run
// on the Verilated RTL, checked against results derived by hand from isa.yaml's semantics (expected
// values are written out or computed with the isa_spec numerics, never read back from the RTL), and
// every record's cycle count against isa.yaml's latency formula and its unit busy span against the
// instruction's isa.yaml unit.
#define BOOST_TEST_MODULE rtl_model_smoke
#include <algorithm>
#include <boost/test/unit_test.hpp>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include "moesim/isa/assembler.hpp"
#include "moesim/isa/encoding.hpp"
#include "moesim/isa/numerics.hpp"
#include "moesim/rtl/model.hpp"

namespace {

using namespace moesim;
using isa::Space;

const isa::Spec& spec() { return isa::Spec::builtin(); }
/// The first built preset, run serially (DMA_QUEUE 0, docs/overlap.md): these checks read a DMA
/// instruction's writes from its retire record and its timing from isa.yaml's serial latencies.
const isa::MachinePreset& preset() {
  static const isa::MachinePreset p = [] {
    isa::MachinePreset q = spec().preset(rtl::built_presets().front());
    q.params.at("DMA_QUEUE") = 0;
    return q;
  }();
  return p;
}
int64_t P(const char* name) { return preset().get(name); }

uint16_t bf(float f) { return num::f32_to_bf16(f); }

void put16(std::vector<uint8_t>& b, size_t i, uint16_t v) {
  b[2 * i] = static_cast<uint8_t>(v);
  b[2 * i + 1] = static_cast<uint8_t>(v >> 8);
}
uint16_t get16(const std::vector<uint8_t>& b, size_t i) {
  return static_cast<uint16_t>(b[2 * i] | (b[2 * i + 1] << 8));
}
uint32_t get32(const std::vector<uint8_t>& b, size_t i) {
  uint32_t v;
  std::memcpy(&v, b.data() + 4 * i, 4);
  return v;
}

/// A VRAM row segment with every element `v`.
isa::MemorySegment vrow(uint64_t row, uint16_t v) {
  const size_t vlen = static_cast<size_t>(P("VLEN"));
  isa::MemorySegment s{row * 2 * vlen, std::vector<uint8_t>(2 * vlen)};
  for (size_t e = 0; e < vlen; ++e) put16(s.bytes, e, v);
  return s;
}

struct Run {
  std::unique_ptr<isa::Engine> engine = rtl::make_rtl_model(spec(), preset());
  isa::Engine& model = *engine;
  std::vector<isa::RetireRecord> recs;
  std::vector<std::vector<isa::UnitSpan>> spans;  ///< take_unit_spans() after each record

  Run(const isa::Program& p, const isa::MemoryImage& img) {
    model.load(p, img);
    isa::RetireRecord r;
    while (model.step(r)) {
      recs.push_back(r);
      spans.push_back(model.take_unit_spans());
    }
  }
  Run(const std::string& text, const isa::MemoryImage& img)
      : Run(isa::assemble(spec(), text, "smoke.asm"), img) {}

  uint16_t vram(uint64_t row, size_t e) const { return get16(model.read(Space::Vram, row, 1), e); }
};

/// Dynamic latency variables of one record (isa.yaml latency_vars).
std::map<std::string, int64_t> dyn_vars(const isa::InstrSpec& ins, uint32_t word) {
  std::map<std::string, int64_t> d;
  if (ins.mnemonic == "H_PREFETCH_M") d = {{"rows", P("HBM_M_ROWS")}, {"len", P("MLEN")}};
  if (ins.mnemonic == "H_PREFETCH_V" || ins.mnemonic == "H_STORE_V")
    d = {{"rows", P("HBM_V_ROWS")}, {"len", P("VLEN")}};
  if (ins.mnemonic == "V_TOPK") {
    const uint32_t rmask = (word >> 18) & 0xF;
    d = rmask == 0 ? std::map<std::string, int64_t>{{"E", 32}, {"k", 4}}
                   : std::map<std::string, int64_t>{{"E", 128}, {"k", 8}};
  }
  return d;
}

/// Records are back to back from cycle 0, and each lasts exactly its isa.yaml latency, in which
/// its isa.yaml unit (and no other) is busy in every cycle; a trap has no busy span.
void check_timing(const Run& run) {
  uint64_t t = 0;
  const auto& units = spec().units();
  for (size_t i = 0; i < run.recs.size(); ++i) {
    const auto& r = run.recs[i];
    const auto& spans = run.spans[i];
    BOOST_TEST_CONTEXT("pc " << r.pc << ": " << isa::disassemble(spec(), r.word)) {
      BOOST_TEST(r.start_cycle == t);
      if (r.trap) {
        BOOST_TEST(r.end_cycle == r.start_cycle);
        BOOST_TEST(spans.empty());
        continue;
      }
      const auto d = isa::decode(spec(), r.word);
      BOOST_REQUIRE(d.spec != nullptr);
      const int64_t lat = spec().latency(*d.spec, preset(), dyn_vars(*d.spec, r.word));
      BOOST_TEST(r.end_cycle - r.start_cycle == static_cast<uint64_t>(lat));
      const auto unit = std::find(units.begin(), units.end(), d.spec->unit) - units.begin();
      BOOST_TEST_REQUIRE(spans.size() == 1u);
      BOOST_TEST(int(spans[0].unit) == unit, "busy: " << units.at(spans[0].unit));
      BOOST_TEST(spans[0].begin == t);
      BOOST_TEST(spans[0].end == t + static_cast<uint64_t>(lat));
      t = r.end_cycle;
    }
  }
  BOOST_TEST(run.model.cycles() == t);
}

}  // namespace

BOOST_AUTO_TEST_CASE(preset_mismatch_is_rejected) {
  isa::MachinePreset other = preset();
  other.params["VLEN"] += 1;
  BOOST_CHECK_THROW(rtl::make_rtl_model(spec(), other), std::invalid_argument);
}

BOOST_AUTO_TEST_CASE(one_verilated_model_per_built_preset) {
  // Every preset of MOESIM_RTL_PRESETS runs on a model of its own sizes.
  const std::vector<std::string> built = rtl::built_presets();
  BOOST_TEST_REQUIRE(!built.empty());
  for (const std::string& name : built) {
    BOOST_TEST_CONTEXT(name) {
      const isa::MachinePreset& p = spec().preset(name);
      const auto engine = rtl::make_rtl_model(spec(), p);
      isa::Engine& model = *engine;
      BOOST_TEST(model.size(Space::Vram) == static_cast<uint64_t>(p.get("VRAM_ROWS")));
      BOOST_TEST(model.read(Space::Vram, 0, 1).size() == 2 * static_cast<size_t>(p.vlen()));
      model.load(isa::assemble(spec(), "S_ADDI_INT gp1, gp0, 7\n"), {});
      isa::RetireRecord r;
      BOOST_TEST(model.step(r));
      BOOST_TEST(model.regs().gp[1] == 7u);
    }
  }
  // A preset named after no built model runs on one only if it has that model's Verilator
  // parameters (run_time_sizes_are_inputs); VRAM_ROWS is not a run-time parameter.
  isa::MachinePreset unknown = preset();
  unknown.name = "nosuch";
  unknown.params["VRAM_ROWS"] *= 2;
  try {
    (void)rtl::make_rtl_model(spec(), unknown);
    BOOST_ERROR("no error for a preset without a Verilated model");
  } catch (const std::invalid_argument& e) {
    BOOST_TEST(
        std::string(e.what()).find("no Verilated model for machine preset 'nosuch' (built: " +
                                   built.front()) != std::string::npos,
        e.what());
  }
}

BOOST_AUTO_TEST_CASE(run_time_sizes_are_inputs) {
  // MRAM_TILES and HBM_BYTES are ports (machine.yaml `runtime`): a preset that differs from a
  // built one only there runs on that model, and its values bound the address checks. Expected
  // traps from isa.yaml: M_MV's tile T = gp[rs1] / MLEN^2 must be below MRAM_TILES, and
  // H_PREFETCH_V's 4 code rows [a0 + o_i, +VLEN) must end at or below HBM_BYTES.
  const int64_t mlen = P("MLEN"), vlen = P("VLEN");
  isa::MachinePreset small = preset();
  small.name = "small";
  small.params["MRAM_TILES"] = 3;
  small.params["HBM_BYTES"] = 4 * vlen + 40;  // the last 4-row transfer may start at byte 40
  const auto engine = rtl::make_rtl_model(spec(), small);
  isa::Engine& model = *engine;
  BOOST_TEST(model.size(Space::Mram) == static_cast<uint64_t>(3 * mlen));
  BOOST_TEST(model.size(Space::Hbm) == static_cast<uint64_t>(4 * vlen + 40));
  auto last = [&](const std::string& text) {
    model.load(isa::assemble(spec(), text), {});
    isa::RetireRecord r, out;
    while (model.step(r)) out = r;
    return out;
  };
  const isa::RetireRecord mv2 =
      last("S_ADDI_INT gp1, gp0, " + std::to_string(2 * mlen * mlen) + "\nM_MV 0, gp1, gp0\n");
  BOOST_TEST(!mv2.trap.has_value());  // tile 2 of 3
  BOOST_TEST(mv2.pc == 1u);
  const isa::RetireRecord mv3 =
      last("S_ADDI_INT gp1, gp0, " + std::to_string(3 * mlen * mlen) + "\nM_MV 0, gp1, gp0\n");
  BOOST_REQUIRE(mv3.trap.has_value());  // tile 3 of 3
  BOOST_TEST(mv3.trap->cause == spec().trap("address_out_of_range").code);
  BOOST_TEST(mv3.trap->pc == 1u);
  auto prefetch = [&](int64_t a0) {
    return last("S_ADDI_INT gp2, gp0, " + std::to_string(a0) +
                "\nC_SET_ADDR_REG a0, gp0, gp2\nH_PREFETCH_V gp0, gp0, a0, 0, 0\n");
  };
  const isa::RetireRecord at_end = prefetch(40);  // rows end exactly at HBM_BYTES
  BOOST_TEST(!at_end.trap.has_value());
  BOOST_TEST(at_end.pc == 2u);
  const isa::RetireRecord past = prefetch(41);  // one byte past
  BOOST_REQUIRE(past.trap.has_value());
  BOOST_TEST(past.trap->cause == spec().trap("address_out_of_range").code);
  BOOST_TEST(past.trap->pc == 2u);
}

BOOST_AUTO_TEST_CASE(bench_preset_runs_on_the_default_model) {
  // machine.yaml's bench preset differs from default only in run-time sizes. (Its own case: two
  // Verilated models of one variant alive at once deadlock in Verilator's scope table when the
  // second is destroyed.)
  const int64_t mlen = P("MLEN");
  if (preset().name == "default") {
    const auto bench = rtl::make_rtl_model(spec(), spec().preset("bench"));
    BOOST_TEST(bench->size(Space::Mram) ==
               static_cast<uint64_t>(spec().preset("bench").get("MRAM_TILES") * mlen));
    const std::vector<std::string> runnable = rtl::runnable_presets(spec());
    BOOST_TEST((std::find(runnable.begin(), runnable.end(), "bench") != runnable.end()));
  }
}

BOOST_AUTO_TEST_CASE(instruction_budget_is_a_runtime_input) {
  // INSTRUCTION_BUDGET is a port (machine.yaml `runtime`), so a preset that differs only there
  // is the Verilated preset, and its value is the budget of the run.
  isa::MachinePreset small = preset();
  small.params["INSTRUCTION_BUDGET"] = 2;
  const auto engine = rtl::make_rtl_model(spec(), small);
  isa::Engine& model = *engine;
  const isa::Program three = isa::assemble(
      spec(), "S_ADDI_INT gp1, gp1, 1\nS_ADDI_INT gp1, gp1, 1\nS_ADDI_INT gp1, gp1, 1\n");
  auto run = [&] {
    model.load(three, {});
    std::vector<isa::RetireRecord> recs;
    isa::RetireRecord r;
    while (model.step(r)) recs.push_back(r);
    return recs;
  };
  std::vector<isa::RetireRecord> recs = run();
  BOOST_REQUIRE(recs.size() == 3u);
  BOOST_REQUIRE(recs[2].trap.has_value());
  BOOST_TEST(recs[2].trap->cause == spec().trap("instruction_budget_exceeded").code);
  BOOST_TEST(recs[2].trap->pc == 2u);
  BOOST_TEST(model.retired() == 2u);
  // set_instruction_budget applies from the next load on; 3 lets all three retire.
  model.set_instruction_budget(3);
  recs = run();
  BOOST_REQUIRE(recs.size() == 3u);
  BOOST_TEST(!recs[2].trap.has_value());
  BOOST_TEST(model.regs().gp[1] == 3u);
  BOOST_CHECK_THROW(model.set_instruction_budget(0), std::invalid_argument);
  BOOST_CHECK_THROW(model.set_instruction_budget(uint64_t{1} << 32), std::invalid_argument);
}

BOOST_AUTO_TEST_CASE(scalar_and_control) {
  isa::MemoryImage img;
  img.fp_sram.push_back({2 * 3, {0xC0, 0x3F}});  // FP_SRAM[3] = 1.5
  Run run(R"(
    S_ADDI_INT gp1, gp0, 5
    S_ADDI_INT gp2, gp0, 7
    S_ADD_INT gp3, gp1, gp2
    S_SUB_INT gp4, gp1, gp2
    S_MUL_INT gp5, gp1, gp2
    S_LUI_INT gp6, 0x12345
    S_ST_INT gp3, gp0, 10
    S_LD_INT gp7, gp1, 5
    S_LD_FP f1, gp0, 3
    S_ST_FP f1, gp2, 0
    S_ADDI_INT gp0, gp0, 9
    C_SET_ADDR_REG a1, gp1, gp2
    C_SET_SCALE_REG gp2
    C_SET_STRIDE_REG gp3
    C_SET_V_MASK_REG gp1
    C_SET_TOPK_REG gp3
    C_LOOP_START gp8, 3
    S_ADDI_INT gp9, gp9, 2
    C_LOOP_START gp10, 2
    S_ADDI_INT gp11, gp11, 1
    C_LOOP_END gp10
    C_LOOP_END gp8
  )",
          img);
  const auto a = run.model.regs();
  BOOST_TEST(a.gp[0] == 0u);
  BOOST_TEST(a.gp[3] == 12u);
  BOOST_TEST(a.gp[4] == 0xFFFFFFFEu);
  BOOST_TEST(a.gp[5] == 35u);
  BOOST_TEST(a.gp[6] == 0x12345000u);
  BOOST_TEST(a.gp[7] == 12u);
  BOOST_TEST(a.fp[1] == 0x3FC0);
  BOOST_TEST(a.addr[1] == ((5ull << 32) | 7ull));
  BOOST_TEST(a.scale == 7u);
  BOOST_TEST(a.stride == 12u);
  BOOST_TEST(a.v_mask == 5u);
  BOOST_TEST(a.topk_policy == 12u);
  BOOST_TEST(a.topk_valid);
  BOOST_TEST(a.gp[8] == 0u);
  BOOST_TEST(a.gp[9] == 6u);
  BOOST_TEST(a.gp[10] == 0u);
  BOOST_TEST(a.gp[11] == 6u);
  BOOST_TEST(get32(run.model.read(Space::IntSram, 10, 1), 0) == 12u);
  BOOST_TEST(get16(run.model.read(Space::FpSram, 7, 1), 0) == 0x3FC0);
  // 16 straight-line, the outer C_LOOP_START, 3 outer iterations of 7 retires.
  BOOST_REQUIRE(run.recs.size() == 16u + 1u + 3u * 7u);
  // Register writes of S_ADDI_INT gp0 are discarded; C_LOOP_END gp10 (pc 20) jumps to pc 19.
  BOOST_TEST(run.recs[10].regs.empty());
  BOOST_TEST(run.recs[20].pc == 20u);
  BOOST_TEST(run.recs[21].pc == 19u);
  check_timing(run);
}

BOOST_AUTO_TEST_CASE(vector_unit) {
  const uint64_t vlen = static_cast<uint64_t>(P("VLEN")), hlen = static_cast<uint64_t>(P("HLEN"));
  isa::MemoryImage img;
  img.vram = {vrow(0, bf(1.0f)), vrow(1, bf(2.0f)), vrow(10, bf(0.0f))};
  img.fp_sram.push_back({0, {0xC0, 0x3F}});   // FP_SRAM[0] = 1.5
  img.int_sram.push_back({0, {2, 0, 0, 0}});  // INT_SRAM[0] = token 2
  isa::MemorySegment ramp{2 * 100, std::vector<uint8_t>(2 * vlen)};
  for (size_t e = 0; e < vlen; ++e) put16(ramp.bytes, e, bf(static_cast<float>(e)));
  img.fp_sram.push_back(ramp);
  std::string text;
  for (int r = 1; r <= 13; ++r)
    text += "S_ADDI_INT gp" + std::to_string(r) + ", gp0, " + std::to_string(r * vlen) + "\n";
  text += R"(
    S_LD_FP f1, gp0, 0
    S_ADDI_INT gp14, gp0, 1
    C_SET_V_MASK_REG gp14
    V_ADD_VV gp2, gp0, gp1
    V_SUB_VV gp3, gp0, gp1
    V_MUL_VV gp4, gp1, gp1
    V_MUL_VF gp5, gp1, f1
    V_MAX_VF gp6, gp0, f1
    V_MIN_VF gp7, gp0, f1
    V_ADD_VV gp8, gp0, gp1, 1
    V_EXP_V gp9, gp10
    V_RECI_V gp11, gp1
    V_RED_SUM f2, gp0
    V_RED_SUM f3, gp0, 1
    S_ADDI_INT gp15, gp0, 0
    V_GATHER gp12, gp0, gp15
    V_SCATTER_ADD gp0, gp1, gp15
    S_MAP_V_FP gp13, gp0, 100
  )";
  Run run(text, img);
  BOOST_REQUIRE(!run.recs.empty());
  BOOST_TEST(!run.recs.back().trap.has_value());
  for (uint64_t e = 0; e < vlen; ++e) {
    BOOST_TEST_CONTEXT("element " << e) {
      BOOST_TEST(run.vram(2, e) == 0x40A0);  // 1 + 2 = 3, then V_SCATTER_ADD row 2 += 2 -> 5
      BOOST_TEST(run.vram(3, e) == 0xBF80);  // 1 - 2 = -1
      BOOST_TEST(run.vram(4, e) == 0x4080);  // 2 * 2 = 4
      BOOST_TEST(run.vram(5, e) == 0x4040);  // 2 * 1.5 = 3
      BOOST_TEST(run.vram(6, e) == 0x3FC0);  // max(1, 1.5)
      BOOST_TEST(run.vram(7, e) == 0x3F80);  // min(1, 1.5)
      BOOST_TEST(run.vram(8, e) == (e < hlen ? 0x4040 : 0x3F80));  // head 0 only
      BOOST_TEST(run.vram(9, e) == 0x3F80);                        // exp(0) = 1
      BOOST_TEST(run.vram(11, e) == 0x3F00);                       // 1/2
      BOOST_TEST(run.vram(12, e) == 0x4040);  // gathered row 0 + 2*VLEN = row 2 (3.0 then)
      BOOST_TEST(run.vram(13, e) == bf(static_cast<float>(e)));
    }
  }
  const auto a = run.model.regs();
  BOOST_TEST(a.fp[2] == bf(static_cast<float>(vlen)));  // sum of VLEN ones
  BOOST_TEST(a.fp[3] == bf(static_cast<float>(hlen)));  // head 0 only
  // V_SCATTER_ADD wrote exactly VRAM row 2.
  const auto& sc = run.recs[run.recs.size() - 2];
  BOOST_REQUIRE(sc.mems.size() == 1u);
  BOOST_TEST(sc.mems[0].begin == 2u);
  BOOST_TEST(sc.mems[0].end == 3u);
  check_timing(run);
}

BOOST_AUTO_TEST_CASE(dma_unit) {
  const uint64_t vlen = static_cast<uint64_t>(P("VLEN")), mlen = static_cast<uint64_t>(P("MLEN"));
  const uint64_t blk = static_cast<uint64_t>(P("MX_BLOCK"));
  const uint64_t vrows = static_cast<uint64_t>(P("HBM_V_ROWS"));
  const uint64_t mrows = static_cast<uint64_t>(P("HBM_M_ROWS"));
  const uint64_t scale_off = 1 << 20, vsrc = 0x100, vdst = 0x4000, msrc = 0x8000;
  isa::MemoryImage img;
  // H_PREFETCH_V source: row i (o = vsrc + i*VLEN) has codes 0x38 (1.0) and scale 127 + i.
  isa::MemorySegment vc{vsrc, std::vector<uint8_t>(vrows * vlen, 0x38)};
  isa::MemorySegment vs{scale_off + vsrc / blk, std::vector<uint8_t>(vrows * vlen / blk)};
  for (uint64_t i = 0; i < vrows; ++i)
    for (uint64_t b = 0; b < vlen / blk; ++b) vs.bytes[i * vlen / blk + b] = 127 + i;
  // H_PREFETCH_M source with STRIDE (rstride 1) = 2*MLEN: row i at o = msrc + 2*MLEN*i.
  isa::MemorySegment mc{msrc, std::vector<uint8_t>(2 * mrows * mlen)};
  for (size_t k = 0; k < mc.bytes.size(); ++k) mc.bytes[k] = static_cast<uint8_t>(k * 7 + 1);
  isa::MemorySegment ms{scale_off + msrc / blk, std::vector<uint8_t>(2 * mrows * mlen / blk)};
  for (size_t k = 0; k < ms.bytes.size(); ++k) ms.bytes[k] = static_cast<uint8_t>(k + 100);
  img.hbm = {vc, vs, mc, ms};
  const std::string text =
      "S_LUI_INT gp1, " + std::to_string(scale_off >> 12) +
      "\nC_SET_SCALE_REG gp1\nS_ADDI_INT gp2, gp0, " + std::to_string(vsrc) +
      "\nS_ADDI_INT gp3, gp0, " + std::to_string(20 * vlen) +
      "\nH_PREFETCH_V gp3, gp2, a0, 0, 0\nS_ADDI_INT gp4, gp0, " + std::to_string(vdst) +
      "\nH_STORE_V gp3, gp4, a0, 0, 0\nS_ADDI_INT gp5, gp0, " + std::to_string(msrc) +
      "\nS_ADDI_INT gp6, gp0, " + std::to_string(2 * mlen) +
      "\nC_SET_STRIDE_REG gp6\nS_ADDI_INT gp7, gp0, " + std::to_string(mlen * mlen) +
      "\nH_PREFETCH_M gp7, gp5, a0, 1, 0\n";
  Run run(text, img);
  BOOST_REQUIRE(!run.recs.empty());
  BOOST_TEST(!run.recs.back().trap.has_value());
  // H_PREFETCH_V: e4m3(0x38) * 2^i = 2^i.
  for (uint64_t i = 0; i < vrows; ++i)
    for (uint64_t e = 0; e < vlen; ++e)
      BOOST_TEST(run.vram(20 + i, e) == bf(static_cast<float>(1u << i)));
  // H_STORE_V of 2^i: amax = 2^i, e = i - 8, scale 119 + i, codes 2^8 = E4M3 0x78.
  const auto codes = run.model.read(Space::Hbm, vdst, vrows * vlen);
  const auto scales = run.model.read(Space::Hbm, scale_off + vdst / blk, vrows * vlen / blk);
  for (auto c : codes) BOOST_TEST(c == 0x78);
  for (uint64_t i = 0; i < vrows; ++i)
    for (uint64_t b = 0; b < vlen / blk; ++b) BOOST_TEST(scales[i * vlen / blk + b] == 119 + i);
  // H_PREFETCH_M into tile 1: raw codes then scales per row.
  for (uint64_t i = 0; i < mrows; ++i) {
    const auto row = run.model.read(Space::Mram, mlen + i, 1);
    for (uint64_t k = 0; k < mlen; ++k)
      BOOST_TEST(row[k] == static_cast<uint8_t>((2 * mlen * i + k) * 7 + 1));
    for (uint64_t b = 0; b < mlen / blk; ++b)
      BOOST_TEST(row[mlen + b] == static_cast<uint8_t>(2 * mlen * i / blk + b + 100));
  }
  // The store's record names the HBM bytes it wrote.
  const auto& st = run.recs[6];
  BOOST_REQUIRE(st.mems.size() == 2u);
  BOOST_TEST(st.mems[0].begin == vdst);
  BOOST_TEST(st.mems[0].end == vdst + vrows * vlen);
  check_timing(run);
}

BOOST_AUTO_TEST_CASE(matrix_and_topk_units) {
  const uint64_t vlen = static_cast<uint64_t>(P("VLEN")), mlen = static_cast<uint64_t>(P("MLEN"));
  const uint64_t blen = static_cast<uint64_t>(P("BLEN")),
                 blk = static_cast<uint64_t>(P("MX_BLOCK"));
  isa::MemoryImage img;
  // MRAM tile 0: every row codes 0x38 (1.0), scales 127; activations rows 0..BLEN-1 = 1.0,
  // so every acc[i][j] = MLEN.
  isa::MemorySegment w{0, std::vector<uint8_t>(mlen * (mlen + mlen / blk))};
  for (uint64_t r = 0; r < mlen; ++r)
    for (uint64_t k = 0; k < mlen + mlen / blk; ++k)
      w.bytes[r * (mlen + mlen / blk) + k] = k < mlen ? 0x38 : 127;
  img.mram = {w};
  for (uint64_t r = 0; r < blen; ++r) img.vram.push_back(vrow(r, bf(1.0f)));
  // Logits 0..31 at VRAM row 40 onwards: logit e = e / 4.
  const uint64_t lrow = 40;
  isa::MemorySegment lg{lrow * 2 * vlen, std::vector<uint8_t>(2 * ((32 + vlen - 1) / vlen) * vlen)};
  for (size_t e = 0; e < 32; ++e) put16(lg.bytes, e, bf(static_cast<float>(e) / 4.0f));
  img.vram.push_back(lg);
  const std::string text =
      "S_ADDI_INT gp1, gp0, " + std::to_string(blen * mlen) +  // tile 0, column offset BLEN
      "\nM_MM 0, gp1, gp0\nS_ADDI_INT gp2, gp0, " + std::to_string(30 * vlen + blen) +
      "\nM_MM_WO gp2, gp0, 0\nS_ADDI_INT gp3, gp0, " + std::to_string(lrow * vlen) +
      "\nS_ADDI_INT gp4, gp0, 16\nS_ADDI_INT gp5, gp0, 32\nV_TOPK gp4, gp3, gp5, 0\n";
  Run run(text, img);
  BOOST_REQUIRE(!run.recs.empty());
  BOOST_TEST(!run.recs.back().trap.has_value());
  for (uint64_t i = 0; i < blen; ++i)
    for (uint64_t e = 0; e < vlen; ++e)
      BOOST_TEST(run.vram(30 + i, e) ==
                 ((e >= blen && e < 2 * blen) ? bf(static_cast<float>(mlen)) : 0));
  // Top-4 of e/4: experts 31, 30, 29, 28; softmax as isa.yaml orders it.
  const auto ids = run.model.read(Space::IntSram, 32, 4);
  const auto ws = run.model.read(Space::FpSram, 16, 4);
  float s = 0.0f;
  uint16_t ej[4];
  const float v0 = num::bf16_to_f32(bf(31.0f / 4.0f));
  for (int j = 0; j < 4; ++j) {
    BOOST_TEST(get32(ids, j) == static_cast<uint32_t>(31 - j));
    const float vj = num::bf16_to_f32(bf(static_cast<float>(31 - j) / 4.0f));
    ej[j] = num::exp_bf16(num::f32_to_bf16(num::sub(vj, v0)));
    s = num::add(s, num::bf16_to_f32(ej[j]));
  }
  const float r = num::bf16_to_f32(num::reci_bf16(num::f32_to_bf16(s)));
  for (int j = 0; j < 4; ++j)
    BOOST_TEST(get16(ws, j) == num::f32_to_bf16(num::mul(num::bf16_to_f32(ej[j]), r)));
  check_timing(run);
}

BOOST_AUTO_TEST_CASE(traps_stop_the_machine) {
  const int64_t vlen = P("VLEN");
  struct Case {
    std::string text;
    uint8_t cause;
    uint32_t pc;
  };
  const std::vector<Case> cases = {
      {"S_ADDI_INT gp1, gp0, 1\nV_ADD_VV gp1, gp0, gp0\n", 3, 1},  // misaligned
      {"S_LUI_INT gp1, 0x3FFFF\nV_EXP_V gp0, gp1\n", 2, 1},        // out of range
      {"C_LOOP_END gp1\n", 7, 0},                                  // underflow
      {"C_LOOP_START gp1, 0\n", 8, 0},                             // count zero
      {"V_TOPK gp0, gp0, gp0, 15\n", 4, 0},                        // policy unset
      {".word 0x000C0037\n", 1, 0},  // V_TOPK gp0, gp0, gp0 with the reserved rmask 3
      {".word 0x00080029\n", 1, 0},  // H_PREFETCH_V gp0, gp0, a0 with the reserved rstride 2
      {"S_ADDI_INT gp1, gp0, 1\nH_PREFETCH_V gp0, gp1, a0, 0, 0\n", 3, 1},  // o % MX_BLOCK
      {"S_ADDI_INT gp1, gp0, " + std::to_string(vlen) + "\nM_MM 0, gp0, gp1\nM_MM 0, gp1, gp0\n", 3,
       2},  // column offset 1 is not a multiple of BLEN
  };
  for (const auto& c : cases) {
    BOOST_TEST_CONTEXT(c.text) {
      Run run(c.text, {});
      BOOST_REQUIRE(!run.recs.empty());
      const auto& t = run.recs.back();
      BOOST_REQUIRE(t.trap.has_value());
      BOOST_TEST(t.trap->cause == c.cause);
      BOOST_TEST(t.trap->pc == c.pc);
      BOOST_TEST(t.pc == c.pc);
      BOOST_TEST(t.regs.empty());
      BOOST_TEST(t.mems.empty());
      BOOST_TEST(run.model.halted());
      check_timing(run);
    }
  }
  // An undefined opcode (0x3F), and an fp / addr register field past 7 (top bit of the rd or
  // rs2 field set by hand: f9, a8) are illegal.
  isa::Program undefined;
  undefined.words = {0x0000003Fu};
  undefined.stages = {0};
  undefined.lines = {1};
  isa::Program fp_past = isa::assemble(spec(), "S_LD_FP f1, gp0, 0\n");
  fp_past.words[0] |= 1u << 9;
  isa::Program addr_past = isa::assemble(spec(), "H_PREFETCH_V gp0, gp0, a0, 0, 0\n");
  addr_past.words[0] |= 1u << 17;
  for (const auto* p : {&undefined, &fp_past, &addr_past}) {
    Run run(*p, {});
    BOOST_REQUIRE(run.recs.size() == 1u);
    BOOST_TEST(run.recs[0].trap->cause == 1);
  }
}

BOOST_AUTO_TEST_CASE(fst_waveform_is_written) {
  const std::string path = "rtl_model_smoke.fst";
  std::remove(path.c_str());
  {
    const auto engine = rtl::make_rtl_model(spec(), preset(), rtl::RtlOptions{path});
    isa::Engine& model = *engine;
    model.load(isa::assemble(spec(), "S_ADDI_INT gp1, gp0, 1\nV_ADD_VV gp0, gp0, gp0\n"), {});
    isa::RetireRecord r;
    while (model.step(r)) {
    }
    BOOST_TEST(model.retired() == 2u);
  }
  std::ifstream f(path, std::ios::binary | std::ios::ate);
  BOOST_REQUIRE(f.good());
  BOOST_TEST(f.tellg() > 0);
}
