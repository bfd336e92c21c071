// MoE workloads at real model shapes (docs/workloads.md), co-simulated: per program shape a
// golden-vs-RTL co-simulation whose golden end state is checked against a float64 evaluation of
// the layer. The static checks of presets, config.json and encodings: testbenches/workload.
#include <boost/test/unit_test.hpp>
#include <cmath>
#include <functional>
#include <map>

#include "moesim/cosim/cosim.hpp"
#include "moesim/cosim/engines.hpp"
#include "moesim/cosim/timeline.hpp"
#include "moesim/isa/encoding.hpp"
#include "moesim/isa/engine.hpp"
#include "moesim/isa/numerics.hpp"
#include "moesim/workload/builder.hpp"
#include "moesim_test/layers.hpp"
#include "mx_dequant.hpp"

using namespace moesim;

namespace {

using test::build;
using test::shape;

using test::dequant;

double bf16_at(const std::vector<uint8_t>& bytes, uint64_t element) {
  return num::bf16_to_f32(
      static_cast<uint16_t>(bytes[2 * element] | (bytes[2 * element + 1] << 8)));
}

/// Lowering bugs the float64 check must see (the layer's math with one step changed).
enum Variant {
  kExact,
  kNoRouteWeight,
  kRenormalised,
  kNoShared,
  kUngated,
  kUnclamped,
  kGptOssClamp
};

/// How the float64 MLP activates: SwiGLU, GPT-OSS's clamp (limit 7, u + 1, slope alpha), or
/// DeepSeek-V4's (silu(min(g, L)) * clamp(u, -L, L)).
enum class Act { swiglu, gpt_oss, deepseek_v4 };

struct LayerCheck {
  double max_err = 0, max_y = 0;
  std::vector<double> gates;  ///< float64 sigmoid(w_g . x_t) (gated shared expert)
};

/// y = float64 evaluation of the layer on the image's MXFP8 values with the machine's expert
/// choice (checked against the float64 top-k up to BF16 rounding of the logits), compared with
/// the golden accumulator.
LayerCheck check_layer(const workload::BuiltProgram& b, const workload::ModelPreset& model,
                       isa::Engine& golden, Variant variant) {
  Act routed = Act::swiglu;
  if (model.activation == workload::Activation::clamped_swiglu) routed = Act::gpt_oss;
  if (model.activation == workload::Activation::limited_swiglu) routed = Act::deepseek_v4;
  if (variant == kUnclamped) routed = Act::swiglu;
  if (variant == kGptOssClamp) routed = Act::gpt_oss;
  // DeepSeek-V4's shared MLP clamps as its experts do.
  const Act shared = routed == Act::deepseek_v4 ? Act::deepseek_v4 : Act::swiglu;
  const double limit = model.swiglu_limit;
  const workload::Layout& L = b.layout;
  const uint64_t vlen = 64, mxb = 8;
  const uint64_t T = L.tokens, H = L.hidden, I = L.intermediate, E = L.experts, k = L.top_k;
  const uint64_t IS = L.shared_intermediate;
  const auto& hbm = b.image.hbm.at(0).bytes;
  const auto X = dequant(hbm, L.x.base, L.x.rows, H, mxb);
  const auto Wr = dequant(hbm, L.wr.base, L.wr.rows, H, mxb);
  std::vector<double> br(E, 0.0), b1, b2;
  if (L.br.rows != 0) br = dequant(hbm, L.br.base, L.br.rows, vlen, mxb);
  if (L.b1.rows != 0) b1 = dequant(hbm, L.b1.base, L.b1.rows, vlen, mxb);
  if (L.b2.rows != 0) b2 = dequant(hbm, L.b2.base, L.b2.rows, vlen, mxb);
  const auto ids = golden.read(isa::Space::IntSram, L.int_ids, uint64_t{T} * L.topk_select);
  const auto acc = golden.read(isa::Space::Vram, L.v_acc / vlen, L.tokens_padded * H / vlen);
  const double alpha = num::bf16_to_f32(L.alpha_bf16);
  auto mlp = [&](const std::vector<double>& W1, const std::vector<double>& W2, uint64_t width,
                 const double* bias1, const double* bias2, const double* x, Act act_kind) {
    std::vector<double> act(width), y(H);
    for (uint64_t i = 0; i < width; ++i) {
      double g = bias1 ? bias1[i] : 0, u = bias1 ? bias1[width + i] : 0;
      for (uint64_t h = 0; h < H; ++h) {
        g += W1[i * H + h] * x[h];
        u += W1[(width + i) * H + h] * x[h];
      }
      if (act_kind == Act::gpt_oss) {
        // GPT-OSS itself: limit 7 and the machine's bf16(alpha); the kGptOssClamp variant of
        // another model: its limit and alpha 1.702.
        const bool oss = variant != kGptOssClamp;
        const double lim = oss ? 7.0 : limit, slope = oss ? alpha : 1.702;
        g = std::min(g, lim);
        u = std::clamp(u, -lim, lim);
        act[i] = (u + 1) * g / (1 + std::exp(-slope * g));
      } else if (act_kind == Act::deepseek_v4) {
        g = std::min(g, limit);
        u = std::clamp(u, -limit, limit);
        act[i] = u * g / (1 + std::exp(-g));
      } else {
        act[i] = u * g / (1 + std::exp(-g));
      }
    }
    for (uint64_t h = 0; h < H; ++h) {
      double s = bias2 ? bias2[h] : 0;
      for (uint64_t i = 0; i < width; ++i) s += W2[h * width + i] * act[i];
      y[h] = s;
    }
    return y;
  };
  LayerCheck out;
  for (uint64_t t = 0; t < T; ++t) {
    std::vector<double> logit(E);
    for (uint64_t e = 0; e < E; ++e) {
      logit[e] = br[e];
      for (uint64_t h = 0; h < H; ++h) logit[e] += Wr[e * H + h] * X[t * H + h];
    }
    std::vector<double> sorted = logit;
    std::sort(sorted.rbegin(), sorted.rend());
    std::vector<double> y(H, 0.0);
    double den_sel = 0, den_all = 0;
    for (uint64_t e = 0; e < E; ++e) den_all += std::exp(logit[e] - sorted[0]);
    std::vector<uint64_t> sel(k);
    for (uint64_t j = 0; j < k; ++j) {
      sel[j] = ids[4 * (t * L.topk_select + j)];
      BOOST_TEST(std::fabs(logit[sel[j]] - sorted[j]) < 0.05 * (1 + std::fabs(sorted[j])),
                 "token " << t << " rank " << j);
      den_sel += std::exp(logit[sel[j]] - sorted[0]);
    }
    const bool renorm = model.norm_topk_prob || variant == kRenormalised;
    for (uint64_t j = 0; j < k; ++j) {
      const uint64_t e = sel[j];
      const auto W1 = dequant(hbm, L.w1 + e * L.w1_expert_bytes, 2 * I, H, mxb);
      const auto W2 = dequant(hbm, L.w2 + e * L.w2_expert_bytes, H, I, mxb);
      const auto ye = mlp(W1, W2, I, b1.empty() ? nullptr : &b1[e * 2 * I],
                          b2.empty() ? nullptr : &b2[e * H], &X[t * H], routed);
      const double p = std::exp(logit[e] - sorted[0]);
      const double w = variant == kNoRouteWeight ? 1.0 : p / (renorm ? den_sel : den_all);
      for (uint64_t h = 0; h < H; ++h) y[h] += w * ye[h];
    }
    if (IS != 0 && variant != kNoShared) {
      const auto W1 = dequant(hbm, L.ws1.base, 2 * IS, H, mxb);
      const auto W2 = dequant(hbm, L.ws2.base, H, IS, mxb);
      const auto ys = mlp(W1, W2, IS, nullptr, nullptr, &X[t * H], shared);
      double gate = 1.0;
      if (model.shared_gate) {
        const auto wg = dequant(hbm, L.wg.base, L.wg.rows, H, mxb);
        double d = 0;
        for (uint64_t h = 0; h < H; ++h) d += wg[h] * X[t * H + h];
        gate = 1 / (1 + std::exp(-d));
        out.gates.push_back(gate);
        if (variant == kUngated) gate = 1.0;
      }
      for (uint64_t h = 0; h < H; ++h) y[h] += gate * ys[h];
    }
    for (uint64_t h = 0; h < H; ++h) {
      const double got = bf16_at(acc, ((h / vlen) * L.tokens_padded + t) * vlen + h % vlen);
      out.max_err = std::max(out.max_err, std::fabs(got - y[h]));
      out.max_y = std::max(out.max_y, std::fabs(y[h]));
    }
  }
  return out;
}

/// Counts retired matrix-unit instructions and H_PREFETCH_M of engine 0 per stage group.
struct MatrixCounter final : cosim::TimelineSink {
  std::map<std::string, uint64_t> matrix, prefetch;
  void instruction(size_t engine, const isa::RetireRecord& r, const cosim::WorkItem&) override {
    if (engine != 0) return;
    const auto& spec = isa::Spec::builtin();
    const isa::Decoded d = isa::decode(spec, r.word);
    const std::string& group = spec.stage_by_code(r.stage)->group;
    if (d.spec->unit == "matrix") ++matrix[group];
    if (d.spec->mnemonic == "H_PREFETCH_M") ++prefetch[group];
  }
  void unit_busy(size_t, const isa::UnitSpan&) override {}
  void mismatch(uint64_t) override {}
  void finish(uint64_t) override {}
};

/// Co-simulates golden vs RTL (default preset) and checks the golden end state against the
/// float64 layer; every variant in `bugs` must be outside the tolerance. `extra` sees the
/// golden engine at the end.
void cosim_and_check(const workload::BuiltProgram& b, const workload::ModelPreset& model,
                     const std::vector<Variant>& bugs,
                     const std::function<void(isa::Engine&)>& extra = {}) {
  const auto& spec = isa::Spec::builtin();
  const auto& preset = spec.preset("default");
  auto golden = cosim::make_golden_engine(spec, preset);
  auto rtl = cosim::make_rtl_engine(spec, preset);
  golden->load(b.program, b.image);
  rtl->load(b.program, b.image);
  MatrixCounter counter;
  cosim::CosimOptions opts;
  opts.sinks = {&counter};
  const cosim::CosimResult res = cosim::run_cosim(spec, *golden, *rtl, opts);
  BOOST_TEST(res.completed);
  BOOST_TEST(!res.trap.has_value());
  BOOST_TEST(res.outputs_bit_exact());
  BOOST_TEST(res.cycles_match());
  BOOST_TEST_MESSAGE(b.name << ": " << res.retired[0] << " instructions, " << res.total_cycles[0]
                            << " cycles");
  const LayerCheck exact = check_layer(b, model, *golden, kExact);
  BOOST_TEST_MESSAGE("max |err| " << exact.max_err << " of max |y| " << exact.max_y);
  BOOST_TEST(exact.max_y > 0.25);
  const double tolerance = 0.03 * exact.max_y;
  BOOST_TEST(exact.max_err < tolerance);
  for (Variant v : bugs) {
    const LayerCheck bug = check_layer(b, model, *golden, v);
    BOOST_TEST_MESSAGE("variant " << v << ": max |err| " << bug.max_err);
    BOOST_TEST(bug.max_err > tolerance, "variant " << v);
  }
  if (model.shared_gate) {
    // The gate must not saturate: a gated test whose sigmoid is ~1 would not see the gate.
    size_t mid = 0;
    for (double g : exact.gates) mid += g > 0.1 && g < 0.9;
    BOOST_TEST(mid * 2 >= exact.gates.size(), "gates in (0.1, 0.9): " << mid);
  }
  // The utilisation table counts what retired, part by part.
  BOOST_REQUIRE_EQUAL(b.utilisation.size(), b.layout.shared_intermediate != 0 ? 2u : 1u);
  for (const workload::Utilisation& u : b.utilisation) {
    BOOST_TEST(counter.matrix[u.part] == u.matrix_instructions, u.part);
    BOOST_TEST(counter.prefetch[u.part] == u.weight_tiles, u.part);
    BOOST_TEST(u.weight_bytes == u.weight_tiles * 64 * (64 + 8));
    BOOST_TEST_MESSAGE(u.part << ": " << u.matrix_instructions << " matrix instructions, "
                              << u.weight_bytes << " weight bytes, " << u.useful_rows_per_tile
                              << " useful rows per tile");
  }
  BOOST_TEST(counter.matrix.count("plumbing") == 0u);
  if (extra) extra(*golden);
}

}  // namespace

BOOST_AUTO_TEST_CASE(workload_cosim_qwen3_128_8_hardwired) {
  const auto& m = workload::find_model("qwen3-30b-a3b");
  cosim_and_check(build(m, 3), m, {kNoRouteWeight});
}

BOOST_AUTO_TEST_CASE(workload_cosim_gpt_oss_32_4_register) {
  const auto& m = workload::find_model("gpt-oss-20b");
  cosim_and_check(build(m, 3, false, workload::TopkEncoding::register_policy), m, {kNoRouteWeight});
}

BOOST_AUTO_TEST_CASE(workload_cosim_mixtral_8_2) {
  const auto& m = workload::find_model("mixtral-8x7b");
  cosim_and_check(build(m, 4), m, {kNoRouteWeight});
}

BOOST_AUTO_TEST_CASE(workload_cosim_16_1_register) {
  // k = 1: the weight is softmax of one logit, 1.0, so dropping it is no bug to see.
  const auto m = shape(16, 1);
  const auto b = build(m, 4);
  cosim_and_check(b, m, {}, [&](isa::Engine& golden) {
    for (unsigned t = 0; t < 4; ++t) {
      const auto w = golden.read(isa::Space::FpSram, b.layout.weight_word(t), 1);
      BOOST_TEST(bf16_at(w, 0) == 1.0, "token " << t);
    }
  });
}

BOOST_AUTO_TEST_CASE(workload_cosim_qwen15_shared_gated) {
  const auto& m = workload::find_model("qwen1.5-moe-a2.7b");
  cosim_and_check(build(m, 4, true), m, {kRenormalised, kNoShared, kUngated});
}

BOOST_AUTO_TEST_CASE(workload_cosim_deepseek_v2_lite_shared) {
  const auto& m = workload::find_model("deepseek-v2-lite");
  const auto b = build(m, 3, true);
  BOOST_TEST(b.layout.shared_intermediate == 128u);  // 2 fused experts of the scaled I = 64
  BOOST_TEST(!b.layout.shared_gate);
  cosim_and_check(b, m, {kRenormalised, kNoShared});
}

BOOST_AUTO_TEST_CASE(workload_cosim_deepseek_v2_lite_swiglu_limit) {
  // DeepSeek-V4's clamp on a DeepSeek-style model, routed and shared experts: a limit of 2
  // acts on the image's gate/up pre-activations (about +-4), so the float64 layer without the
  // clamp, or with GPT-OSS's (u + 1, alpha), is outside the tolerance.
  workload::ModelPreset m = workload::find_model("deepseek-v2-lite");
  m.activation = workload::Activation::limited_swiglu;
  m.swiglu_limit = 2.0;
  cosim_and_check(build(m, 3, true), m, {kUnclamped, kGptOssClamp, kNoShared});
}

BOOST_AUTO_TEST_CASE(workload_cosim_256_8_expert_255_wins) {
  const auto m = shape(256, 8);
  auto b = build(m, 2);
  // W_r row 255 := X row 0, so token 0's logit 255 is |x_0|^2 (~H) against logits ~ 2.
  const workload::Layout& L = b.layout;
  auto& hbm = b.image.hbm.at(0).bytes;
  const uint64_t H = L.hidden, mxb = 8;
  std::copy_n(hbm.begin() + static_cast<std::ptrdiff_t>(L.x.base), H,
              hbm.begin() + static_cast<std::ptrdiff_t>(L.wr.base + 255 * H));
  std::copy_n(
      hbm.begin() + static_cast<std::ptrdiff_t>(L.x.base + L.x.scale_offset), H / mxb,
      hbm.begin() + static_cast<std::ptrdiff_t>(L.wr.base + L.wr.scale_offset + 255 * H / mxb));
  BOOST_TEST(L.logit_rows == 4u);
  cosim_and_check(b, m, {kNoRouteWeight}, [&](isa::Engine& golden) {
    const auto ids = golden.read(isa::Space::IntSram, L.id_word(0), 1);
    BOOST_TEST(ids[0] == 255u);  // rank 0 of token 0 (little-endian u32; 255 < 256)
    BOOST_TEST(ids[1] == 0u);
    const auto w = golden.read(isa::Space::FpSram, L.weight_word(0), 1);
    BOOST_TEST(bf16_at(w, 0) == 1.0);  // the others are ~H below: exp underflows
  });
}

BOOST_AUTO_TEST_CASE(workload_cosim_gpt_oss_expert_major) {
  const auto& m = workload::find_model("gpt-oss-20b");
  cosim_and_check(build(m, 3, false, workload::TopkEncoding::automatic, workload::Lowering::expert),
                  m, {kNoRouteWeight});
}

BOOST_AUTO_TEST_CASE(workload_cosim_qwen15_expert_major_shared) {
  const auto& m = workload::find_model("qwen1.5-moe-a2.7b");
  cosim_and_check(build(m, 4, true, workload::TopkEncoding::automatic, workload::Lowering::expert),
                  m, {kRenormalised, kUngated, kNoRouteWeight});
}
