// The MoE program builder on the golden model (its static checks: testbenches/workload): the
// program computes the GPT-OSS layer: the output accumulator is compared with a
// float64 evaluation of the same math on the same MXFP8 inputs and the same routing decisions.
#include <boost/test/unit_test.hpp>
#include <cmath>
#include <set>

#include "moesim/cosim/cosim.hpp"
#include "moesim/cosim/engines.hpp"
#include "moesim/cosim/timeline.hpp"
#include "moesim/isa/assembler.hpp"
#include "moesim/isa/engine.hpp"
#include "moesim/isa/numerics.hpp"
#include "moesim/workload/builder.hpp"
#include "moesim_test/layers.hpp"
#include "mx_dequant.hpp"

using namespace moesim;

namespace {

using test::build_shaped;

using test::dequant;

}  // namespace

BOOST_AUTO_TEST_CASE(builder_layer_matches_float64_reference_on_golden) {
  const auto& spec = isa::Spec::builtin();
  const auto& preset = spec.preset("default");
  const auto b = build_shaped(5, 128, 64, "default", 7);
  const workload::Layout& L = b.layout;
  auto engine = cosim::make_golden_engine(spec, preset);
  engine->load(b.program, b.image);
  for (;;) {
    isa::RetireRecord r;
    if (!engine->step(r)) break;
    BOOST_REQUIRE(!r.trap.has_value());
  }
  const uint64_t vlen = static_cast<uint64_t>(preset.vlen()), mxb = 8;
  const uint64_t T = L.tokens, H = L.hidden, I = L.intermediate, E = L.experts, k = L.top_k;
  const auto& hbm = b.image.hbm.at(0).bytes;
  const auto X = dequant(hbm, L.x.base, L.x.rows, H, mxb);
  const auto Wr = dequant(hbm, L.wr.base, L.wr.rows, H, mxb);
  const auto br = dequant(hbm, L.br.base, L.br.rows, vlen, mxb);
  const auto b1 = dequant(hbm, L.b1.base, L.b1.rows, vlen, mxb);
  const auto b2 = dequant(hbm, L.b2.base, L.b2.rows, vlen, mxb);
  const auto ids = engine->read(isa::Space::IntSram, L.int_ids, L.pairs);
  const auto acc = engine->read(isa::Space::Vram, L.v_acc / vlen, L.tokens_padded * H / vlen);
  const double alpha = num::bf16_to_f32(L.alpha_bf16);
  // Variants of the math: 0 the model's; the others are lowering bugs the check must catch.
  enum Variant { kExact, kGateUpSwapped, kNoClamp, kNoRouteWeight };
  auto max_error = [&](Variant variant, double& max_y) {
    double max_err = 0;
    max_y = 0;
    for (uint64_t t = 0; t < T; ++t) {
      std::vector<double> logit(E), sorted;
      for (uint64_t e = 0; e < E; ++e) {
        logit[e] = br[e];
        for (uint64_t h = 0; h < H; ++h) logit[e] += Wr[e * H + h] * X[t * H + h];
      }
      sorted = logit;
      std::sort(sorted.rbegin(), sorted.rend());
      std::vector<unsigned> sel(k);
      for (uint64_t j = 0; j < k; ++j) {
        sel[j] = ids[4 * (t * k + j)];
        // The machine's choice is the float64 top-k up to BF16 rounding of the logits.
        BOOST_TEST(std::fabs(logit[sel[j]] - sorted[j]) < 0.05, "token " << t << " rank " << j);
      }
      std::vector<double> w(k), y(H, 0.0);
      double den = 0;
      for (uint64_t j = 0; j < k; ++j) den += w[j] = std::exp(logit[sel[j]] - logit[sel[0]]);
      for (uint64_t j = 0; j < k; ++j) {
        const uint64_t e = sel[j];
        const auto W1 = dequant(hbm, L.w1 + e * L.w1_expert_bytes, 2 * I, H, mxb);
        const auto W2 = dequant(hbm, L.w2 + e * L.w2_expert_bytes, H, I, mxb);
        const uint64_t gate = variant == kGateUpSwapped ? I : 0, up = I - gate;
        std::vector<double> act(I);
        for (uint64_t i = 0; i < I; ++i) {
          double g = b1[e * 2 * I + gate + i], u = b1[e * 2 * I + up + i];
          for (uint64_t h = 0; h < H; ++h) {
            g += W1[(gate + i) * H + h] * X[t * H + h];
            u += W1[(up + i) * H + h] * X[t * H + h];
          }
          if (variant != kNoClamp) {
            g = std::min(g, 7.0);
            u = std::clamp(u, -7.0, 7.0);
          }
          act[i] = (u + 1) * g / (1 + std::exp(-alpha * g));
        }
        const double route = variant == kNoRouteWeight ? 1.0 : w[j] / den;
        for (uint64_t h = 0; h < H; ++h) {
          double s = b2[e * H + h];
          for (uint64_t i = 0; i < I; ++i) s += W2[h * I + i] * act[i];
          y[h] += route * s;
        }
      }
      for (uint64_t h = 0; h < H; ++h) {
        const uint64_t off = 2 * (((h / vlen) * L.tokens_padded + t) * vlen + h % vlen);
        const double got = num::bf16_to_f32(static_cast<uint16_t>(acc[off] | (acc[off + 1] << 8)));
        max_err = std::max(max_err, std::fabs(got - y[h]));
        max_y = std::max(max_y, std::fabs(y[h]));
      }
    }
    return max_err;
  };
  double max_y = 0;
  const double max_err = max_error(kExact, max_y);
  BOOST_TEST_MESSAGE("max |err| " << max_err << " of max |y| " << max_y);
  BOOST_TEST(max_y > 1.0);
  // BF16 storage between every step: ~1% of the output range.
  const double tolerance = 0.03 * max_y;
  BOOST_TEST(max_err < tolerance);
  // The tolerance is tight enough to catch plausible lowering bugs.
  for (Variant v : {kGateUpSwapped, kNoClamp, kNoRouteWeight}) {
    double y = 0;
    const double err = max_error(v, y);
    BOOST_TEST_MESSAGE("variant " << v << ": max |err| " << err);
    BOOST_TEST(err > tolerance, "variant " << v);
  }
}

namespace {

/// Keeps what run_single hands to a timeline sink.
struct CaptureSink final : cosim::TimelineSink {
  std::vector<std::pair<isa::RetireRecord, cosim::WorkItem>> seen;
  void instruction(size_t, const isa::RetireRecord& r, const cosim::WorkItem& w) override {
    seen.emplace_back(r, w);
  }
  void unit_busy(size_t, const isa::UnitSpan&) override {}
  void mismatch(uint64_t) override {}
  void finish(uint64_t) override {}
};

}  // namespace

BOOST_AUTO_TEST_CASE(builder_work_tags_name_the_routed_expert_on_golden) {
  const auto& spec = isa::Spec::builtin();
  const auto b = build_shaped(3, 64, 64, "default", 5);
  const workload::Layout& L = b.layout;
  BOOST_REQUIRE_EQUAL(b.program.work.size(), b.program.size());
  auto engine = cosim::make_golden_engine(spec, spec.preset("default"));
  engine->load(b.program, b.image);
  CaptureSink sink;
  cosim::CosimOptions opts;
  opts.sinks = {&sink};
  opts.work = b.program.work;
  const cosim::RunResult res = cosim::run_single(spec, *engine, opts);
  BOOST_REQUIRE(!res.trap.has_value());
  BOOST_REQUIRE_EQUAL(sink.seen.size(), res.retired);
  const auto ids = engine->read(isa::Space::IntSram, L.int_ids, L.pairs);
  const std::set<std::string> routed = {"gather",
                                        "expert_weight_address",
                                        "expert_weight_prefetch",
                                        "expert_projection",
                                        "expert_activation",
                                        "expert_bias",
                                        "expert_route_weight",
                                        "scatter_combine"};
  std::set<std::pair<int32_t, int32_t>> pairs_seen;
  size_t router = 0;
  for (const auto& [r, w] : sink.seen) {
    const std::string stage = spec.stage_by_code(r.stage)->name;
    if (routed.count(stage) != 0) {
      BOOST_REQUIRE(w.token >= 0 && w.slot >= 0);
      const size_t p = static_cast<size_t>(w.token) * L.top_k + static_cast<size_t>(w.slot);
      BOOST_REQUIRE(p < L.pairs);
      BOOST_TEST(w.expert == static_cast<int32_t>(ids[4 * p]), "pc " << r.pc << " " << stage);
      pairs_seen.insert({w.token, w.slot});
    } else if (stage == "router_topk" && w.token >= 0) {
      ++router;
      BOOST_TEST(w.slot == -1);
      BOOST_TEST(w.expert == -1);
    } else {
      BOOST_TEST((w.token == -1 && w.slot == -1 && w.expert == -1), "pc " << r.pc << " " << stage);
    }
  }
  BOOST_TEST(pairs_seen.size() == L.pairs);  // every (token, slot) pair is worked on
  BOOST_TEST(router > 0u);
}
