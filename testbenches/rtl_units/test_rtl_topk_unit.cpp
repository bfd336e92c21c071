// RTL unit bench: moe_topk_unit (V_TOPK) with its exp / reciprocal moe_bf16_rom instances
// (moe_topk_tb_top), Verilated for each machine preset and driven cycle by cycle with VRAM,
// INT SRAM and FP SRAM modelled in C++. The ROMs are programmed from the generated tables
// (moesim::num::exp_bf16_table / reci_bf16_table) through their public `mem` arrays. Checks
// against a reference written from isa.yaml V_TOPK with the golden numerics: the k expert ids and
// weights (and that nothing else is written), the VRAM rows read, the cycle count against the
// latency formula evaluated with E and k (moesim::isa::Spec), and the handshake.
#define BOOST_TEST_MODULE rtl_topk_unit
#include <algorithm>
#include <boost/test/unit_test.hpp>
#include <cmath>
#include <cstdint>
#include <map>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "Vmoe_topk_tb_top_default.h"
#include "Vmoe_topk_tb_top_default___024root.h"
#include "Vmoe_topk_tb_top_tiny.h"
#include "Vmoe_topk_tb_top_tiny___024root.h"
#include "moesim/isa/numerics.hpp"
#include "moesim/isa/spec.hpp"
#include "rtlu_ports.hpp"
#include "verilated.h"

namespace num = moesim::num;
namespace isa = moesim::isa;
using moesim::rtlu::port_bits;
using moesim::rtlu::put_bits;

namespace {

struct TopkResult {
  std::vector<uint32_t> ids;
  std::vector<uint16_t> weights;
};

/// Reference V_TOPK from isa.yaml: a NaN logit is read as -inf (for the ordering and the
/// softmax), descending, ties to the lower expert index (stable sort); softmax over the selected
/// values in rank order.
TopkResult reference_topk(const std::vector<uint16_t>& logits, unsigned k) {
  auto order_value = [](uint16_t b) {
    const float f = num::bf16_to_f32(b);
    return std::isnan(f) ? -INFINITY : f;
  };
  std::vector<uint32_t> idx(logits.size());
  for (uint32_t e = 0; e < idx.size(); ++e) idx[e] = e;
  std::stable_sort(idx.begin(), idx.end(), [&](uint32_t a, uint32_t b) {
    return order_value(logits[a]) > order_value(logits[b]);
  });
  TopkResult r;
  r.ids.assign(idx.begin(), idx.begin() + k);
  const float m = order_value(logits[r.ids[0]]);
  std::vector<uint16_t> ex(k);
  float s = 0.0f;
  for (unsigned j = 0; j < k; ++j) {
    const uint16_t d = num::f32_to_bf16(num::sub(order_value(logits[r.ids[j]]), m));
    ex[j] = num::exp_bf16(d);
    s = num::add(s, num::bf16_to_f32(ex[j]));
  }
  const uint16_t sb = num::f32_to_bf16(s);
  const bool bad = (sb & 0x8000) || (sb & 0x7FFF) == 0 || (sb & 0x7F80) == 0x7F80;
  const float rc = num::bf16_to_f32(num::reci_bf16(sb));
  for (unsigned j = 0; j < k; ++j)
    r.weights.push_back(bad ? uint16_t{0}
                            : num::f32_to_bf16(num::mul(num::bf16_to_f32(ex[j]), rc)));
  return r;
}

enum class Dist { Realistic, Ties, Special, Huge };

template <typename Model>
class TopkBench {
 public:
  TopkBench(const std::string& preset_name, uint64_t seed)
      : spec_(isa::Spec::builtin()),
        preset_(spec_.preset(preset_name)),
        vlen_(static_cast<unsigned>(preset_.vlen())),
        max_e_(static_cast<unsigned>(preset_.get("MAX_TOPK_EXPERTS"))),
        // The bench's VRAM: room for MAX_TOPK_EXPERTS logits at any of as many row offsets.
        vram_rows_(2 * ((max_e_ + vlen_ - 1) / vlen_)),
        rng_(seed) {
    ctx_ = std::make_unique<VerilatedContext>();
    top_ = std::make_unique<Model>(ctx_.get(), "top");
    BOOST_REQUIRE_EQUAL(port_bits(top_->vram_rdata_i), size_t{vlen_} * 16);
    const uint16_t* exp_t = num::exp_bf16_table();
    const uint16_t* reci_t = num::reci_bf16_table();
    for (unsigned x = 0; x < 65536; ++x) {
      top_->rootp->moe_topk_tb_top__DOT__u_exp_rom__DOT__mem[x] = exp_t[x];
      top_->rootp->moe_topk_tb_top__DOT__u_reci_rom__DOT__mem[x] = reci_t[x];
    }
    top_->clk_i = 0;
    top_->rst_ni = 0;
    top_->start_i = 0;
    top_->eval();
    top_->clk_i = 1;
    top_->eval();
    top_->clk_i = 0;
    top_->rst_ni = 1;
    top_->eval();
  }

  unsigned max_e() const { return max_e_; }
  unsigned vlen() const { return vlen_; }

  uint16_t rand_logit(Dist d) {
    const uint16_t r = static_cast<uint16_t>(rng_());
    switch (d) {
      case Dist::Realistic:  // |x| in [2^-6, 2^4)
        return static_cast<uint16_t>((r & 0x807F) | ((121 + rng_() % 10) << 7));
      case Dist::Ties: {  // few distinct values, both zeros
        static const uint16_t vals[] = {0x3F80, 0x4000, 0xBF80, 0x0000, 0x8000, 0x3F80, 0x4040};
        return vals[rng_() % 7];
      }
      case Dist::Special: {
        static const uint16_t vals[] = {0x7FC0, 0xFFC1, 0x7F80, 0xFF80, 0x0000,
                                        0x8000, 0x0001, 0x3F80, 0xC2C8};
        return (rng_() % 3) ? vals[rng_() % 9] : r;
      }
      default:  // wide range: exp overflow/underflow, large differences
        return static_cast<uint16_t>((r & 0x807F) | ((100 + rng_() % 60) << 7));
    }
  }

  /// Runs one V_TOPK on the given logits and checks it; returns false on any mismatch.
  bool check(const std::vector<uint16_t>& logits, unsigned k) {
    const unsigned e = static_cast<unsigned>(logits.size());
    const unsigned rows = (e + vlen_ - 1) / vlen_;
    const unsigned row0 = static_cast<unsigned>(rng_() % (vram_rows_ - rows + 1));
    vram_.assign(vram_rows_, std::vector<uint16_t>(vlen_));
    for (auto& row : vram_)
      for (auto& v : row) v = static_cast<uint16_t>(rng_());  // junk beyond the E logits
    for (unsigned x = 0; x < e; ++x) vram_[row0 + x / vlen_][x % vlen_] = logits[x];
    const uint32_t id_addr = static_cast<uint32_t>(rng_() % 1000);
    const uint32_t w_addr = static_cast<uint32_t>(rng_() % 1000);
    int_writes_.clear();
    fp_writes_.clear();

    top_->e_i = static_cast<uint16_t>(e);
    top_->k_i = static_cast<uint16_t>(k);
    top_->logit_row_i = row0;
    top_->id_addr_i = id_addr;
    top_->w_addr_i = w_addr;
    top_->start_i = 1;
    int64_t cycles = 0;
    bool ok = true;
    for (;;) {
      top_->clk_i = 0;
      top_->eval();
      ++cycles;
      if (!top_->busy_o) {
        BOOST_ERROR("busy_o low in cycle " << cycles - 1);
        ok = false;
      }
      const bool done = top_->done_o;
      if (top_->vram_re_o) {
        const uint32_t r = top_->vram_row_o;
        if (r < row0 || r >= row0 + rows) {
          BOOST_ERROR("reads VRAM row " << r << " outside the logit rows [" << row0 << ", "
                                        << row0 + rows << ")");
          ok = false;
        }
        pending_row_ = r;
      } else {
        pending_row_ = -1;
      }
      if (top_->int_we_o) int_writes_.push_back({top_->int_waddr_o, top_->int_wdata_o});
      if (top_->fp_we_o) fp_writes_.push_back({top_->fp_waddr_o, top_->fp_wdata_o});
      top_->clk_i = 1;
      top_->eval();
      top_->start_i = 0;
      if (pending_row_ >= 0 && pending_row_ < static_cast<int64_t>(vram_rows_))
        for (unsigned x = 0; x < vlen_; ++x)
          put_bits(top_->vram_rdata_i, 16 * x, 16, vram_[pending_row_][x]);
      if (done) break;
      if (cycles > 100000) {
        BOOST_ERROR("no done_o");
        return false;
      }
    }
    // Idle afterwards: nothing moves.
    top_->clk_i = 0;
    top_->eval();
    if (top_->busy_o || top_->done_o || top_->int_we_o || top_->fp_we_o || top_->vram_re_o) {
      BOOST_ERROR("activity after done_o");
      ok = false;
    }

    const int64_t want_cycles = spec_.latency(*spec_.by_mnemonic("V_TOPK"), preset_,
                                              {{"E", int64_t{e}}, {"k", int64_t{k}}});
    if (cycles != want_cycles) {
      BOOST_ERROR("E=" << e << " k=" << k << ": " << cycles << " cycles, isa.yaml latency says "
                       << want_cycles);
      ok = false;
    }

    const TopkResult want = reference_topk(logits, k);
    std::map<uint32_t, uint32_t> ids;
    std::map<uint32_t, uint16_t> ws;
    for (auto [a, d] : int_writes_) ids[a] = d;
    for (auto [a, d] : fp_writes_) ws[a] = static_cast<uint16_t>(d);
    if (int_writes_.size() != k || fp_writes_.size() != k || ids.size() != k || ws.size() != k) {
      BOOST_ERROR("E=" << e << " k=" << k << ": " << int_writes_.size() << " INT SRAM and "
                       << fp_writes_.size() << " FP SRAM writes");
      ok = false;
    }
    for (unsigned j = 0; j < k; ++j) {
      const auto ii = ids.find(id_addr + j);
      const auto wi = ws.find(w_addr + j);
      if (ii == ids.end() || ii->second != want.ids[j] || wi == ws.end() ||
          wi->second != want.weights[j]) {
        BOOST_ERROR("E=" << e << " k=" << k << " rank " << j << ": rtl id "
                         << (ii == ids.end() ? -1 : static_cast<int64_t>(ii->second)) << " w 0x"
                         << std::hex << (wi == ws.end() ? 0xDEAD : wi->second) << ", golden id "
                         << std::dec << want.ids[j] << " w 0x" << std::hex << want.weights[j]
                         << std::dec);
        ok = false;
        break;
      }
    }
    ++runs_;
    return ok;
  }

  uint64_t runs() const { return runs_; }
  std::mt19937_64& rng() { return rng_; }

 private:
  const isa::Spec& spec_;
  const isa::MachinePreset& preset_;
  unsigned vlen_, max_e_, vram_rows_;
  std::mt19937_64 rng_;
  std::unique_ptr<VerilatedContext> ctx_;
  std::unique_ptr<Model> top_;
  std::vector<std::vector<uint16_t>> vram_;
  std::vector<std::pair<uint32_t, uint32_t>> int_writes_, fp_writes_;
  int64_t pending_row_ = -1;
  uint64_t runs_ = 0;
};

template <typename Model>
void run_preset(const std::string& preset, uint64_t seed, unsigned n_random) {
  TopkBench<Model> b(preset, seed);
  auto& rng = b.rng();
  uint64_t failures = 0;
  auto logits_of = [&](unsigned e, Dist d) {
    std::vector<uint16_t> x(e);
    for (auto& v : x) v = b.rand_logit(d);
    return x;
  };
  // Fixed shapes: the hardwired policies, the extremes, row boundaries.
  const unsigned me = b.max_e(), vl = b.vlen();
  const std::vector<std::pair<unsigned, unsigned>> shapes = {
      {32, 4}, {128, 8},    {1, 1},       {2, 2},
      {vl, 1}, {vl + 1, 3}, {2 * vl, vl}, {me, std::min(me, 255u)},
      {me, 1}};
  for (auto [e, k] : shapes)
    for (Dist d : {Dist::Realistic, Dist::Ties, Dist::Special, Dist::Huge})
      failures += !b.check(logits_of(e, d), k);
  // Degenerate logits: all NaN, all -inf, all equal, descending, ascending.
  failures += !b.check(std::vector<uint16_t>(40, 0x7FC0), 5);
  failures += !b.check(std::vector<uint16_t>(40, 0xFF80), 5);
  failures += !b.check(std::vector<uint16_t>(70, 0x3F80), 9);
  {
    std::vector<uint16_t> up(me), down(me);
    for (unsigned x = 0; x < me; ++x) {
      up[x] = num::f32_to_bf16(static_cast<float>(x) / 16.0f);
      down[x] = num::f32_to_bf16(static_cast<float>(me - x) / 16.0f);
    }
    failures += !b.check(up, std::min(me, 255u));
    failures += !b.check(down, std::min(me, 255u));
  }
  // Random shapes and distributions.
  for (unsigned t = 0; t < n_random; ++t) {
    const unsigned e = 1 + static_cast<unsigned>(rng() % me);
    const unsigned k = 1 + static_cast<unsigned>(rng() % std::min(e, 255u));
    failures += !b.check(logits_of(e, static_cast<Dist>(t % 4)), k);
  }
  BOOST_TEST_MESSAGE("moe_topk_unit[" << preset << "]: " << b.runs() << " V_TOPK runs, " << failures
                                      << " failed");
  BOOST_TEST(failures == 0u);
}

}  // namespace

BOOST_AUTO_TEST_CASE(topk_default) { run_preset<Vmoe_topk_tb_top_default>("default", 11, 600); }
BOOST_AUTO_TEST_CASE(topk_tiny) { run_preset<Vmoe_topk_tb_top_tiny>("tiny", 12, 600); }
