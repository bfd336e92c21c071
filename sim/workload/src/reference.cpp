// Independent reference of a built MoE layer (see reference.hpp). Host `float` is binary32 RNE
// here (the build passes -ffp-contract=off, never -ffast-math); every stored value goes through
// num::f32_to_bf16, which also canonicalises NaNs.
#include "moesim/workload/reference.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numeric>
#include <stdexcept>

#include "moesim/isa/numerics.hpp"
#include "moesim/workload/deployment_build.hpp"

namespace moesim::workload {
namespace {

using Row = std::vector<uint16_t>;  // BF16 bits

float f32(uint16_t b) { return num::bf16_to_f32(b); }
uint16_t bf(float f) { return num::f32_to_bf16(f); }

/// double -> BF16 with one round-to-nearest-even: gradual underflow (quantum 2^-133 below
/// 2^-126), overflow to inf at (2 - 2^-8) * 2^127, NaN -> 0x7FC0.
uint16_t bf16_from_double(double v) {
  if (std::isnan(v)) return 0x7FC0;
  const auto sign = static_cast<uint16_t>(std::signbit(v) ? 0x8000 : 0);
  const double a = std::fabs(v);
  if (std::isinf(a)) return sign | 0x7F80;
  if (a == 0) return sign;
  int e = 0;
  std::frexp(a, &e);  // a = m * 2^e, m in [0.5, 1)
  const double quantum = std::ldexp(1.0, std::max(e - 1, -126) - 7);
  const double r = std::nearbyint(a / quantum) * quantum;  // default rounding mode: RNE
  if (r >= std::ldexp(1.0, 128)) return sign | 0x7F80;
  return sign | static_cast<uint16_t>(num::f32_bits(static_cast<float>(r)) >> 16);
}

/// e^x and 1/x correctly rounded to BF16 (docs/numerics.md §8), from double.
uint16_t exp_bf16(uint16_t x) { return bf16_from_double(std::exp(static_cast<double>(f32(x)))); }
uint16_t reci_bf16(uint16_t x) { return bf16_from_double(1.0 / static_cast<double>(f32(x))); }

/// V_MIN_VF / V_MAX_VF (docs/numerics.md §7).
uint16_t min_bf16(uint16_t a, uint16_t b) {
  const float x = f32(a), y = f32(b);
  if (std::isnan(x) || std::isnan(y)) return 0x7FC0;
  if (x == y) return (a & 0x8000) ? a : b;  // min(-0, +0) = -0
  return x < y ? a : b;
}
uint16_t max_bf16(uint16_t a, uint16_t b) {
  const float x = f32(a), y = f32(b);
  if (std::isnan(x) || std::isnan(y)) return 0x7FC0;
  if (x == y) return (a & 0x8000) ? b : a;  // max(-0, +0) = +0
  return x > y ? a : b;
}

/// Pairwise tree sum in FP32 (docs/numerics.md §5 step 2 for MX_BLOCK values, §6 for VLEN).
float tree_sum(std::vector<float> v) {
  while (v.size() > 1) {
    for (size_t i = 0; i < v.size() / 2; ++i) v[i] = v[2 * i] + v[2 * i + 1];
    v.resize(v.size() / 2);
  }
  return v.empty() ? 0.0f : v[0];
}

/// Bytes [addr, addr + n) of the image's HBM (segments in order; uncovered bytes are 0).
std::vector<uint8_t> hbm_bytes(const isa::MemoryImage& img, uint64_t addr, uint64_t n) {
  std::vector<uint8_t> out(n, 0);
  for (const isa::MemorySegment& seg : img.hbm) {
    const uint64_t lo = std::max(addr, seg.base);
    const uint64_t hi = std::min(addr + n, seg.base + seg.bytes.size());
    for (uint64_t a = lo; a < hi; ++a) out[a - addr] = seg.bytes[a - seg.base];
  }
  return out;
}

/// BF16 word `word` of the image's FP SRAM (segments in order; uncovered words are 0).
uint16_t fp_sram_word(const isa::MemoryImage& img, uint64_t word) {
  uint16_t v = 0;
  for (const isa::MemorySegment& seg : img.fp_sram)
    if (2 * word >= seg.base && 2 * word + 1 < seg.base + seg.bytes.size())
      v = static_cast<uint16_t>(seg.bytes[2 * word - seg.base] |
                                (seg.bytes[2 * word + 1 - seg.base] << 8));
  return v;
}

/// sigmoid on the scalar FP unit: RECI(bf16(EXP(bf16(0 - x)) + 1)) (docs/numerics.md §8).
uint16_t sigmoid_bf16(uint16_t x) {
  const uint16_t e = exp_bf16(bf(0.0f - f32(x)));
  return reci_bf16(bf(f32(e) + 1.0f));
}

/// Indices 0..n-1 ordered by `key` descending, ties to the lower index.
template <typename Key>
std::vector<uint32_t> ranked(size_t n, Key key) {
  std::vector<uint32_t> order(n);
  std::iota(order.begin(), order.end(), 0u);
  std::stable_sort(order.begin(), order.end(),
                   [&](uint32_t a, uint32_t b) { return key(a) > key(b); });
  return order;
}

/// An MXFP8 matrix (rows x cols, row-major, blocks of `mxb` along a row) as the two paths read
/// it: dequantised values `v` (H_PREFETCH_V's BF16, exact in FP32) for the vector unit, and the
/// E4M3 element values `e` with each block's E8M0 factor `s` = 2^(scale - 127) for the matrix
/// unit, which scales a block's sum, not its elements (docs/numerics.md §5).
struct Matrix {
  uint64_t rows = 0, cols = 0, mxb = 1;
  std::vector<float> v, e, s;
  Matrix() = default;
  /// All zero (elements 0, scales 2^0).
  Matrix(uint64_t r, uint64_t c, uint64_t block)
      : rows(r), cols(c), mxb(block), v(r * c, 0.0f), e(r * c, 0.0f), s(r * c / block, 1.0f) {}
  float at(uint64_t r, uint64_t c) const { return v[r * cols + c]; }
  /// Element (r, c) and its block's scale from element (sr, sc) of `m` (same block size).
  void set(uint64_t r, uint64_t c, const Matrix& m, uint64_t sr, uint64_t sc) {
    v[r * cols + c] = m.v[sr * m.cols + sc];
    e[r * cols + c] = m.e[sr * m.cols + sc];
    s[(r * cols + c) / mxb] = m.s[(sr * m.cols + sc) / m.mxb];
  }
};

/// Reads and dequantises an MXFP8 matrix; checks that quantising the values again gives the
/// same bytes (the image is MXFP8-representable, so weight quantisation is the identity).
Matrix dequant(const isa::MemoryImage& img, const MxMatrix& m, uint64_t mxb, const char* what) {
  const auto bytes = hbm_bytes(img, m.base, m.bytes);
  Matrix out(m.rows, m.cols, mxb);
  std::vector<uint16_t> block(mxb);
  std::vector<uint8_t> codes(mxb);
  for (uint64_t o = 0; o < m.rows * m.cols; o += mxb) {
    const uint8_t scale = bytes[m.scale_offset + o / mxb];
    out.s[o / mxb] = num::e8m0_to_f32(scale);
    for (uint64_t i = 0; i < mxb; ++i) {
      block[i] = num::mx_dequant_bf16(bytes[o + i], scale);
      out.v[o + i] = f32(block[i]);
      out.e[o + i] = num::e4m3_to_f32(bytes[o + i]);
    }
    if (num::mx_quantize(block.data(), mxb, codes.data()) != scale ||
        !std::equal(codes.begin(), codes.end(), bytes.begin() + static_cast<std::ptrdiff_t>(o)))
      throw std::logic_error(std::string("reference: ") + what + " block at HBM " +
                             std::to_string(m.base + o) + " is not MXFP8-representable");
  }
  return out;
}

/// One activation row times W^T on the matrix unit: out[n] = bf16(sum over K blocks in order of
/// (the block tree of a[k] * E4M3 W[n][k]) * 2^(scale - 127)) (docs/numerics.md §5). The scale
/// comes after the tree: products of large elements overflow to inf there, however small the
/// scale.
Row project(const Row& a, const Matrix& w) {
  Row out(w.rows);
  std::vector<float> p(w.mxb);
  for (uint64_t n = 0; n < w.rows; ++n) {
    float acc = 0.0f;
    for (uint64_t k0 = 0; k0 < w.cols; k0 += w.mxb) {
      const uint64_t o = n * w.cols + k0;
      for (uint64_t t = 0; t < w.mxb; ++t) p[t] = f32(a[k0 + t]) * w.e[o + t];
      const float block = tree_sum(p) * w.s[o / w.mxb];
      acc = acc + block;
    }
    out[n] = bf(acc);
  }
  return out;
}

std::vector<double> project_exact(const std::vector<double>& a, const Matrix& w) {
  std::vector<double> out(w.rows, 0.0);
  for (uint64_t n = 0; n < w.rows; ++n)
    for (uint64_t k = 0; k < w.cols; ++k) out[n] += a[k] * w.at(n, k);
  return out;
}

struct Topk {
  std::vector<uint32_t> ids;
  Row weights;
};

/// V_TOPK (docs/numerics.md §9): the first `k` of the logits ordered by value descending (NaN as
/// -inf, ties to the lower index) and the six-step softmax over them.
Topk topk(const Row& logits, unsigned k) {
  std::vector<uint32_t> order(logits.size());
  std::iota(order.begin(), order.end(), 0u);
  auto key = [&](uint32_t i) {
    const float v = f32(logits[i]);
    return std::isnan(v) ? -INFINITY : v;
  };
  std::stable_sort(order.begin(), order.end(),
                   [&](uint32_t a, uint32_t b) { return key(a) > key(b); });
  Topk t;
  t.ids.assign(order.begin(), order.begin() + k);
  const float m = f32(logits[t.ids[0]]);
  Row e(k);
  float s = 0.0f;
  for (unsigned j = 0; j < k; ++j) {
    e[j] = exp_bf16(bf(f32(logits[t.ids[j]]) - m));
    s = s + f32(e[j]);
  }
  const uint16_t sb = bf(s);
  t.weights.assign(k, 0);
  if (std::isnan(f32(sb)) || std::isinf(f32(sb)) || !(f32(sb) > 0)) return t;
  const uint16_t r = reci_bf16(sb);
  for (unsigned j = 0; j < k; ++j) t.weights[j] = bf(f32(e[j]) * f32(r));
  return t;
}

class LayerReference {
 public:
  LayerReference(const isa::MachinePreset& m, const ModelPreset& model, const BuiltProgram& b)
      : model_(model),
        b_(b),
        L_(b.layout),
        vlen_(static_cast<uint64_t>(m.vlen())),
        mxb_(static_cast<uint64_t>(m.mx_block())) {}

  ReferenceResult run() {
    const uint64_t T = L_.tokens, H = L_.hidden, E = L_.experts, k = L_.top_k;
    const isa::MemoryImage& img = b_.image;
    const Matrix X = dequant(img, L_.x, mxb_, "X");
    const Matrix Wr = dequant(img, L_.wr, mxb_, "W_r");
    if (L_.br.rows != 0) br_ = dequant(img, L_.br, mxb_, "router bias");
    if (L_.b1.rows != 0) b1_ = dequant(img, L_.b1, mxb_, "b1");
    if (L_.b2.rows != 0) b2_ = dequant(img, L_.b2, mxb_, "b2");
    activation_ = model_.activation;
    shared_activation_ = shared_activation(model_);
    input_scaled_ = L_.routing == Layout::Routing::input_scaled;
    if (L_.routing == Layout::Routing::sigmoid_biased)
      for (uint64_t e = 0; e < E; ++e) bias_.push_back(fp_sram_word(img, L_.fp_bias + e));
    limit_ = bf(static_cast<float>(model_.swiglu_limit));
    neg_alpha_ = static_cast<uint16_t>(bf(static_cast<float>(model_.swiglu_alpha)) ^ 0x8000);
    Matrix Ws1, Ws2, Wg;
    if (L_.shared_intermediate != 0) {
      Ws1 = dequant(img, L_.ws1, mxb_, "shared W1");
      Ws2 = dequant(img, L_.ws2, mxb_, "shared W2");
      if (L_.shared_gate) Wg = dequant(img, L_.wg, mxb_, "shared gate w_g");
    }

    ReferenceResult res;
    res.tokens = L_.tokens;
    res.hidden = L_.hidden;
    res.top_k = L_.top_k;
    res.acc_bf16.assign(T * H, 0);
    res.exact.assign(T * H, 0.0);
    std::vector<Row> xs(T);
    std::vector<std::vector<double>> xds(T);
    // R[t][e]: the route weight of token t for expert e (+0 when not routed).
    std::vector<Row> route(T, Row(E, 0));
    for (uint64_t t = 0; t < T; ++t) {
      Row& x = xs[t];
      std::vector<double>& xd = xds[t];
      x.resize(H);
      xd.resize(H);
      for (uint64_t h = 0; h < H; ++h) {
        x[h] = bf(X.at(t, h));
        xd[h] = X.at(t, h);
      }
      Row logits(E);
      std::vector<double> logits_d(E);
      for (uint64_t e = 0; e < E; ++e) {
        const uint16_t f = dot_red_sum(x, Wr, e);
        double d = br_.v.empty() ? 0.0 : br_.v[e];
        for (uint64_t h = 0; h < H; ++h) d += xd[h] * Wr.at(e, h);
        logits[e] = br_.v.empty() ? f : bf(f32(f) + br_.v[e]);  // V_ADD_VV router bias
        logits_d[e] = d;
      }
      // Recorded routing (docs/route_traces.md): W_r is zero; the recorded BF16 logits of the
      // image's FP SRAM are written at the recorded ids before V_TOPK.
      if (!b_.recorded.empty())
        for (uint64_t j = 0; j < k; ++j) {
          const uint16_t v = fp_sram_word(img, L_.fp_recorded + t * k + j);
          logits[b_.recorded[t].ids[j]] = v;
          logits_d[b_.recorded[t].ids[j]] = f32(v);
        }
      Topk sel;
      std::vector<double> w_exact;
      std::vector<uint32_t> sel_d(k);
      switch (L_.routing) {
        case Layout::Routing::softmax:
          sel = softmax_route(logits);
          sel_d = softmax_exact(logits_d, w_exact);
          break;
        case Layout::Routing::sigmoid_biased:
          sel = sigmoid_biased_route(logits);
          sel_d = sigmoid_biased_exact(logits_d, w_exact);
          break;
        case Layout::Routing::input_scaled:
          sel = topk(logits, k);
          for (uint64_t j = 0; j < k; ++j) sel.weights[j] = sigmoid_bf16(logits[sel.ids[j]]);
          {
            const auto order = ranked(E, [&](uint32_t i) { return logits_d[i]; });
            for (uint64_t j = 0; j < k; ++j) {
              sel_d[j] = order[j];
              w_exact.push_back(1 / (1 + std::exp(-logits_d[order[j]])));
            }
            break;
          }
      }
      if (!std::is_permutation(sel.ids.begin(), sel.ids.begin() + static_cast<std::ptrdiff_t>(k),
                               sel_d.begin()))
        ++res.selection_differs;
      for (uint64_t j = 0; j < k; ++j) {
        res.expert_ids.push_back(sel.ids[j]);
        res.route_weights.push_back(sel.weights[j]);
        route[t][sel.ids[j]] = sel.weights[j];
      }
      for (uint64_t j = 0; j < k; ++j) {
        // Llama-4: y = E(score * x), unweighted; else y = w E(x).
        std::vector<double> xin = xd;
        if (input_scaled_)
          for (double& v : xin) v *= w_exact[j];
        const std::vector<double> y = expert_exact(sel_d[j], xin);
        const double w = input_scaled_ ? 1.0 : w_exact[j];
        for (uint64_t h = 0; h < H; ++h) res.exact[t * H + h] += w * y[h];
      }
    }
    // Routed experts, accumulated in the lowering's order: pair-major in rank order per token,
    // expert-major in expert index order over every token row (unrouted rows weighted +0).
    // Input-scaled routing (Llama-4) multiplies the expert input by w (V_MUL_VF) and adds the
    // output unweighted; otherwise the output is multiplied by w.
    auto combine = [&](uint64_t t, uint64_t e, const Experts& we, uint16_t w) {
      Row x = xs[t];
      if (input_scaled_)
        for (uint16_t& v : x) v = bf(f32(v) * f32(w));  // V_MUL_VF of the input
      const Row y = expert(e, x, we);
      for (uint64_t h = 0; h < H; ++h) {
        const uint16_t scaled = input_scaled_ ? y[h] : bf(f32(y[h]) * f32(w));  // V_MUL_VF
        uint16_t& a = res.acc_bf16[t * H + h];
        a = bf(f32(a) + f32(scaled));  // V_SCATTER_ADD / V_ADD_VV
      }
    };
    if (L_.lowering == Lowering::pair) {
      for (uint64_t t = 0; t < T; ++t)
        for (uint64_t j = 0; j < k; ++j) {
          const uint32_t e = res.expert_ids[t * k + j];
          combine(t, e, expert_weights(e), res.route_weights[t * k + j]);
        }
    } else {
      for (uint64_t e = 0; e < E; ++e) {
        const Experts w = expert_weights(e);
        for (uint64_t t = 0; t < T; ++t) combine(t, e, w, route[t][e]);
      }
    }
    if (L_.shared_intermediate != 0) shared(xs, xds, Ws1, Ws2, Wg, res);
    res.out_mxfp8 = store_output(res.acc_bf16);
    return res;
  }

  /// The deployment `db` (deployment_build.hpp, docs/deployments.md) from its definition: the
  /// layer's routing (run()), then per rank and token the k routed columns in rank order (the
  /// copy t mod c_g of logical expert g; a copy held by another rank becomes the zero sentinel
  /// with weight bf16(w * +0)) and the S fused shared columns (weight 1 on the rank that owns the
  /// token, t * EP / T; the sentinel with +0 elsewhere), accumulated per pair as the layer's
  /// pair-major program does; the rank's output stored as MXFP8 and the outputs combined in rank
  /// order.
  DeploymentReference deployment(const DeploymentBuild& db) {
    DeploymentReference out;
    out.layer = run();
    const DeploymentShape& s = db.shape;
    const uint64_t T = L_.tokens, H = L_.hidden, I = L_.intermediate, E = L_.experts, k = L_.top_k,
                   IS = L_.shared_intermediate;
    if (s.routed != E || s.top_k != k || IS != uint64_t{s.shared} * I)
      throw std::invalid_argument("reference: the deployment does not match its layer");
    const Matrix X = dequant(b_.image, L_.x, mxb_, "X");
    std::vector<Row> xs(T, Row(H));
    for (uint64_t t = 0; t < T; ++t)
      for (uint64_t h = 0; h < H; ++h) xs[t][h] = bf(X.at(t, h));
    std::vector<std::vector<unsigned>> copies(E);
    for (unsigned p = 0; p < s.physical; ++p) copies.at(s.physical_to_logical[p]).push_back(p);
    std::vector<Experts> logical;
    for (uint64_t g = 0; g < E; ++g) logical.push_back(expert_weights(g));
    const Experts zero{Matrix(2 * I, H, mxb_), Matrix(H, I, mxb_)};
    std::vector<Experts> shared;
    if (s.shared != 0) {
      const Matrix Ws1 = dequant(b_.image, L_.ws1, mxb_, "shared W1");
      const Matrix Ws2 = dequant(b_.image, L_.ws2, mxb_, "shared W2");
      for (uint64_t i = 0; i < s.shared; ++i) {
        Experts e = zero;
        for (uint64_t r = 0; r < I; ++r)
          for (uint64_t c = 0; c < H; ++c) {
            e.w1.set(r, c, Ws1, i * I + r, c);           // gate
            e.w1.set(I + r, c, Ws1, IS + i * I + r, c);  // up
          }
        for (uint64_t r = 0; r < H; ++r)
          for (uint64_t c = 0; c < I; ++c) e.w2.set(r, c, Ws2, r, i * I + c);
        shared.push_back(std::move(e));
      }
    }
    const std::vector<float> zb1(2 * I, 0.0f), zb2(H, 0.0f);
    const bool biased = !b1_.v.empty();
    auto add = [&](Row& acc, uint64_t t, const Experts& we, const float* b1, const float* b2,
                   uint16_t w) {
      Row x = xs[t];
      if (input_scaled_)
        for (uint16_t& v : x) v = bf(f32(v) * f32(w));  // V_MUL_VF of the input
      Row h1 = project(x, we.w1);
      if (b1 != nullptr)
        for (uint64_t c = 0; c < 2 * I; ++c) h1[c] = bf(f32(h1[c]) + b1[c]);
      Row y = project(activation(h1, I, activation_), we.w2);
      if (b2 != nullptr)
        for (uint64_t h = 0; h < H; ++h) y[h] = bf(f32(y[h]) + b2[h]);
      for (uint64_t h = 0; h < H; ++h) {
        const uint16_t scaled = input_scaled_ ? y[h] : bf(f32(y[h]) * f32(w));
        acc[t * H + h] = bf(f32(acc[t * H + h]) + f32(scaled));
      }
    };
    for (unsigned r = 0; r < s.ep; ++r) {
      Row acc(T * H, 0);
      unsigned pairs = 0;
      for (uint64_t t = 0; t < T; ++t) {
        for (uint64_t j = 0; j < k; ++j) {
          const uint32_t g = out.layer.expert_ids[t * k + j];
          const uint16_t w = out.layer.route_weights[t * k + j];
          const unsigned phys = copies[g][t % copies[g].size()];
          if (s.ranks[r].mask[phys] >= 0) {
            ++pairs;
            add(acc, t, logical[g], biased ? &b1_.v[g * 2 * I] : nullptr,
                biased ? &b2_.v[g * H] : nullptr, bf(f32(w) * 1.0f));
          } else {
            add(acc, t, zero, biased ? zb1.data() : nullptr, biased ? zb2.data() : nullptr,
                bf(f32(w) * 0.0f));
          }
        }
        const bool own = t * s.ep / T == r;
        for (uint64_t i = 0; i < s.shared; ++i) {
          pairs += own ? 1 : 0;
          add(acc, t, own ? shared[i] : zero, biased ? zb1.data() : nullptr,
              biased ? zb2.data() : nullptr, own ? bf(1.0f) : uint16_t{0});
        }
      }
      out.rank_out.push_back(store_output(acc));
      out.rank_acc.push_back(std::move(acc));
      out.rank_pairs.push_back(pairs);
    }
    // The combine outside the accelerator: rank order, FP32 adds rounded to BF16.
    out.combined.assign(T * H, 0);
    for (uint64_t o = 0; o < T * H; ++o) {
      uint16_t c = 0;
      for (unsigned r = 0; r < s.ep; ++r) {
        const std::vector<uint8_t>& y = out.rank_out[r];
        const uint16_t v = num::mx_dequant_bf16(y[o], y[L_.y.scale_offset + o / mxb_]);
        c = r == 0 ? v : bf(f32(c) + f32(v));
      }
      out.combined[o] = c;
    }
    return out;
  }

 private:
  struct Experts {
    Matrix w1, w2;
  };

  /// sum_b V_RED_SUM(V_MUL_VV(x_b, W[r]_b)) into a BF16 register that starts at +0.
  uint16_t dot_red_sum(const Row& x, const Matrix& w, uint64_t r) const {
    uint16_t f = 0;
    std::vector<float> prod(vlen_);
    for (uint64_t b0 = 0; b0 < x.size(); b0 += vlen_) {
      for (uint64_t i = 0; i < vlen_; ++i) prod[i] = f32(bf(f32(x[b0 + i]) * w.at(r, b0 + i)));
      f = bf(f32(f) + tree_sum(prod));
    }
    return f;
  }

  /// DeepSeek-V3 routing with the machine's rounding (builder.hpp): s = sigmoid(l),
  /// s' = bf16(s + b); group score = bf16(top-2 s' sum); the top topk_group groups (V_TOPK
  /// order) kept, s' of the others + -inf, the kept + 0; V_TOPK's top-k of s' (its weights
  /// replaced): w_j = bf16(bf16(s_j * RECI(bf16(rank-order sum of s + bf16(1e-20)))) * rsf).
  /// Softmax routing: V_TOPK of the logits (k = topk_select); DeepSeek-V2's group_limited_greedy
  /// first keeps the topk_group groups with the largest logit (the largest softmax score) and
  /// selects the top-k of the logits with the other groups at -inf, weighted by their softmax
  /// over all E (norm_topk_prob false) or over the k (true); then times bf16(rsf).
  Topk softmax_route(const Row& logits) const {
    const uint64_t E = L_.experts, k = L_.top_k;
    Topk sel;
    if (!L_.group_limited()) {
      sel = topk(logits, L_.topk_select);
    } else {
      const uint64_t gs = E / L_.n_group;
      Row score(L_.n_group, 0xFF80);
      for (uint64_t e = 0; e < E; ++e) score[e / gs] = max_bf16(score[e / gs], logits[e]);
      const Topk groups = topk(score, L_.topk_group);
      Row masked(E);
      for (uint64_t e = 0; e < E; ++e) {
        const bool kept =
            std::find(groups.ids.begin(), groups.ids.end(), e / gs) != groups.ids.end();
        masked[e] = bf(f32(logits[e]) + (kept ? 0.0f : -INFINITY));
      }
      sel = topk(masked, k);
      if (!model_.norm_topk_prob) {
        const Topk all = topk(logits, E);
        Row p(E);
        for (uint64_t j = 0; j < E; ++j) p[all.ids[j]] = all.weights[j];
        for (uint64_t j = 0; j < k; ++j) sel.weights[j] = p[sel.ids[j]];
      }
    }
    if (model_.routed_scaling_factor != 1.0) {
      const uint16_t rsf = bf(static_cast<float>(model_.routed_scaling_factor));
      for (uint64_t j = 0; j < k; ++j) sel.weights[j] = bf(f32(sel.weights[j]) * f32(rsf));
    }
    return sel;
  }

  Topk sigmoid_biased_route(const Row& logits) const {
    const uint64_t E = L_.experts, k = L_.top_k;
    Row s(E), sp(E);
    for (uint64_t e = 0; e < E; ++e) {
      s[e] = sigmoid_bf16(logits[e]);
      sp[e] = bf(f32(s[e]) + f32(bias_[e]));
    }
    if (L_.group_limited()) {
      const uint64_t gs = E / L_.n_group;
      Row score(L_.n_group);
      for (uint64_t g = 0; g < L_.n_group; ++g) {
        std::vector<float> v(gs);
        for (uint64_t i = 0; i < gs; ++i) v[i] = f32(sp[g * gs + i]);
        std::partial_sort(v.begin(), v.begin() + 2, v.end(), std::greater<>());
        score[g] = bf(v[0] + v[1]);
      }
      const Topk groups = topk(score, L_.topk_group);
      for (uint64_t e = 0; e < E; ++e) {
        const bool kept =
            std::find(groups.ids.begin(), groups.ids.end(), e / gs) != groups.ids.end();
        sp[e] = bf(f32(sp[e]) + (kept ? 0.0f : -INFINITY));
      }
    }
    Topk sel = topk(sp, k);
    const uint16_t rsf = bf(static_cast<float>(model_.routed_scaling_factor));
    uint16_t r = 0;
    if (model_.norm_topk_prob) {
      uint16_t sum = s[sel.ids[0]];
      for (uint64_t j = 1; j < k; ++j) sum = bf(f32(sum) + f32(s[sel.ids[j]]));
      r = reci_bf16(bf(f32(sum) + f32(bf(1e-20f))));
    }
    for (uint64_t j = 0; j < k; ++j) {
      uint16_t w = s[sel.ids[j]];
      if (model_.norm_topk_prob) w = bf(f32(w) * f32(r));
      if (model_.routed_scaling_factor != 1.0) w = bf(f32(w) * f32(rsf));
      sel.weights[j] = w;
    }
    return sel;
  }

  /// DeepSeek-V3 routing in float64 (docs/sources.md, Routing functions: DeepSeek-V3; the
  /// DeepSeek reference's -inf mask): the selected experts in rank order, their weights in `w`.
  std::vector<uint32_t> sigmoid_biased_exact(const std::vector<double>& l,
                                             std::vector<double>& w) const {
    const uint64_t E = L_.experts, k = L_.top_k;
    std::vector<double> s(E), sp(E);
    for (uint64_t e = 0; e < E; ++e) {
      s[e] = 1 / (1 + std::exp(-l[e]));
      sp[e] = s[e] + f32(bias_[e]);
    }
    if (L_.group_limited()) {
      const uint64_t gs = E / L_.n_group;
      std::vector<double> score(L_.n_group);
      for (uint64_t g = 0; g < L_.n_group; ++g) {
        std::vector<double> v(sp.begin() + static_cast<std::ptrdiff_t>(g * gs),
                              sp.begin() + static_cast<std::ptrdiff_t>((g + 1) * gs));
        std::partial_sort(v.begin(), v.begin() + 2, v.end(), std::greater<>());
        score[g] = v[0] + v[1];
      }
      const auto groups = ranked(L_.n_group, [&](uint32_t g) { return score[g]; });
      for (uint64_t e = 0; e < E; ++e)
        if (std::find(groups.begin(), groups.begin() + L_.topk_group, e / gs) ==
            groups.begin() + L_.topk_group)
          sp[e] = -INFINITY;
    }
    const auto order = ranked(E, [&](uint32_t e) { return sp[e]; });
    std::vector<uint32_t> sel(order.begin(), order.begin() + static_cast<std::ptrdiff_t>(k));
    double den = 1e-20;
    for (uint32_t e : sel) den += s[e];
    w.clear();
    for (uint32_t e : sel)
      w.push_back(s[e] / (model_.norm_topk_prob ? den : 1.0) * model_.routed_scaling_factor);
    return sel;
  }

  /// The float64 selection (returned) and route weights `w`: the top-k of the logits (DeepSeek-V2
  /// group-limited: in the topk_group groups with the largest softmax score), weighted by the
  /// softmax renormalised over the k (norm_topk_prob) or over all E, times rsf.
  std::vector<uint32_t> softmax_exact(const std::vector<double>& l, std::vector<double>& w) const {
    const uint64_t E = L_.experts, k = L_.top_k;
    const double m = *std::max_element(l.begin(), l.end());
    std::vector<double> p(E);
    double den = 0;
    for (uint64_t e = 0; e < E; ++e) den += p[e] = std::exp(l[e] - m);
    for (double& v : p) v /= den;
    // Ranked on the logits (softmax is monotone); a masked group's experts rank last (HF
    // masks their scores with 0.0, below every softmax score).
    std::vector<double> choice = l;
    if (L_.group_limited()) {
      const uint64_t gs = E / L_.n_group;
      std::vector<double> score(L_.n_group, -INFINITY);
      for (uint64_t e = 0; e < E; ++e) score[e / gs] = std::max(score[e / gs], l[e]);
      const auto groups = ranked(L_.n_group, [&](uint32_t g) { return score[g]; });
      for (uint64_t e = 0; e < E; ++e)
        if (std::find(groups.begin(), groups.begin() + L_.topk_group, e / gs) ==
            groups.begin() + L_.topk_group)
          choice[e] = -INFINITY;
    }
    const auto order = ranked(E, [&](uint32_t e) { return choice[e]; });
    std::vector<uint32_t> sel(order.begin(), order.begin() + static_cast<std::ptrdiff_t>(k));
    double sum = 0;
    for (uint32_t e : sel) sum += p[e];
    w.clear();
    for (uint32_t e : sel)
      w.push_back(p[e] / (model_.norm_topk_prob ? sum : 1.0) * model_.routed_scaling_factor);
    return sel;
  }

  Matrix expert_matrix(uint64_t base, uint64_t rows, uint64_t cols, const char* what) const {
    const MxMatrix m{base, rows, cols, rows * cols, rows * cols + rows * cols / mxb_};
    return dequant(b_.image, m, mxb_, what);
  }

  Experts expert_weights(uint64_t e) const {
    const uint64_t H = L_.hidden, I = L_.intermediate;
    return {expert_matrix(L_.w1 + e * L_.w1_expert_bytes, 2 * I, H, "W1"),
            expert_matrix(L_.w2 + e * L_.w2_expert_bytes, H, I, "W2")};
  }

  /// The activation on the machine (builder.hpp), [g, u] -> h element by element: GPT-OSS's
  /// clamped SwiGLU with slope bf16(alpha) and u + 1, the limited SwiGLU (the clamp alone), or
  /// SwiGLU (slope 1).
  Row activation(const Row& h1, uint64_t I, Activation kind) const {
    const bool clamp = kind != Activation::swiglu, gpt_oss = kind == Activation::clamped_swiglu;
    const uint16_t one = bf(1.0f), neg_limit = static_cast<uint16_t>(limit_ ^ 0x8000);
    const uint16_t neg_slope = gpt_oss ? neg_alpha_ : bf(-1.0f);
    Row act(I);
    for (uint64_t i = 0; i < I; ++i) {
      uint16_t g = h1[i], u = h1[I + i];
      if (clamp) {
        g = min_bf16(g, limit_);                       // V_MIN_VF
        u = max_bf16(min_bf16(u, limit_), neg_limit);  // V_MIN_VF, V_MAX_VF
      }
      uint16_t s = bf(f32(g) * f32(neg_slope));  // V_MUL_VF -alpha
      s = exp_bf16(s);                           // V_EXP_V
      s = bf(f32(s) + f32(one));                 // V_ADD_VF 1
      s = reci_bf16(s);                          // V_RECI_V
      s = bf(f32(g) * f32(s));                   // V_MUL_VV g * sigmoid
      if (gpt_oss) u = bf(f32(u) + f32(one));    // V_ADD_VF 1
      act[i] = bf(f32(u) * f32(s));              // V_MUL_VV
    }
    return act;
  }

  std::vector<double> activation_exact(const std::vector<double>& h1, uint64_t I,
                                       Activation kind) const {
    const bool clamp = kind != Activation::swiglu, gpt_oss = kind == Activation::clamped_swiglu;
    std::vector<double> act(I);
    const double lim = model_.swiglu_limit, alpha = gpt_oss ? model_.swiglu_alpha : 1.0;
    for (uint64_t i = 0; i < I; ++i) {
      double g = h1[i], u = h1[I + i];
      if (clamp) {
        g = std::min(g, lim);
        u = std::clamp(u, -lim, lim) + (gpt_oss ? 1 : 0);
      }
      act[i] = u * g / (1 + std::exp(-alpha * g));
    }
    return act;
  }

  /// Routed expert e on the machine: projection, bias, activation, projection, bias.
  Row expert(uint64_t e, const Row& x, const Experts& w) const {
    const uint64_t H = L_.hidden, I = L_.intermediate;
    Row h1 = project(x, w.w1);
    if (!b1_.v.empty())
      for (uint64_t c = 0; c < 2 * I; ++c) h1[c] = bf(f32(h1[c]) + b1_.v[e * 2 * I + c]);
    Row y = project(activation(h1, I, activation_), w.w2);
    if (!b2_.v.empty())
      for (uint64_t h = 0; h < H; ++h) y[h] = bf(f32(y[h]) + b2_.v[e * H + h]);
    return y;
  }

  std::vector<double> expert_exact(uint64_t e, const std::vector<double>& x) const {
    const uint64_t H = L_.hidden, I = L_.intermediate;
    const Experts w = expert_weights(e);
    std::vector<double> h1 = project_exact(x, w.w1);
    if (!b1_.v.empty())
      for (uint64_t c = 0; c < 2 * I; ++c) h1[c] += b1_.v[e * 2 * I + c];
    std::vector<double> y = project_exact(activation_exact(h1, I, activation_), w.w2);
    if (!b2_.v.empty())
      for (uint64_t h = 0; h < H; ++h) y[h] += b2_.v[e * H + h];
    return y;
  }

  /// The shared expert (a SwiGLU MLP of width I_s, times sigmoid(w_g . x) when gated), added to
  /// every token's accumulator row after the routed experts.
  void shared(const std::vector<Row>& xs, const std::vector<std::vector<double>>& xds,
              const Matrix& Ws1, const Matrix& Ws2, const Matrix& Wg, ReferenceResult& res) {
    const uint64_t H = L_.hidden, IS = L_.shared_intermediate;
    const uint16_t one = bf(1.0f);
    for (uint64_t t = 0; t < xs.size(); ++t) {
      Row s = project(activation(project(xs[t], Ws1), IS, shared_activation_), Ws2);
      std::vector<double> sd =
          project_exact(activation_exact(project_exact(xds[t], Ws1), IS, shared_activation_), Ws2);
      if (L_.shared_gate) {
        // Dot product on the vector unit, the sigmoid on the scalar FP unit, then V_ADD_VF of
        // the gate onto a zero row.
        uint16_t g = dot_red_sum(xs[t], Wg, 0);
        g = bf(0.0f - f32(g));      // S_SUB_FP f0 - acc
        g = exp_bf16(g);            // S_EXP_FP
        g = bf(f32(g) + f32(one));  // S_ADD_FP 1
        g = reci_bf16(g);           // S_RECI_FP
        g = bf(0.0f + f32(g));      // V_ADD_VF onto a zero row
        res.shared_gate.push_back(g);
        for (uint64_t h = 0; h < H; ++h) s[h] = bf(f32(s[h]) * f32(g));  // V_MUL_VV
        double z = 0;
        for (uint64_t h = 0; h < H; ++h) z += xds[t][h] * Wg.at(0, h);
        const double gate = 1 / (1 + std::exp(-z));
        for (double& v : sd) v *= gate;
      }
      for (uint64_t h = 0; h < H; ++h) {
        uint16_t& a = res.acc_bf16[t * H + h];
        a = bf(f32(a) + f32(s[h]));  // V_ADD_VV
        res.exact[t * H + h] += sd[h];
      }
    }
  }

  /// H_STORE_V of the T_pad x H accumulator (padded rows zero) into the Layout::y byte layout.
  std::vector<uint8_t> store_output(const std::vector<uint16_t>& acc) const {
    const MxMatrix& y = L_.y;
    std::vector<uint8_t> out(y.bytes, 0);
    std::vector<uint16_t> block(mxb_);
    std::vector<uint8_t> codes(mxb_);
    for (uint64_t o = 0; o < y.rows * y.cols; o += mxb_) {
      const uint64_t r = o / y.cols;
      for (uint64_t i = 0; i < mxb_; ++i) block[i] = r < L_.tokens ? acc[o + i] : 0;
      out[y.scale_offset + o / mxb_] = num::mx_quantize(block.data(), mxb_, codes.data());
      std::copy(codes.begin(), codes.end(), out.begin() + static_cast<std::ptrdiff_t>(o));
    }
    return out;
  }

  const ModelPreset& model_;
  const BuiltProgram& b_;
  const Layout& L_;
  uint64_t vlen_, mxb_;
  Matrix br_, b1_, b2_;  ///< biases, empty when the model has none
  Row bias_;             ///< e_score_correction_bias (sigmoid_biased routing), else empty
  Activation activation_ = Activation::swiglu, shared_activation_ = Activation::swiglu;
  bool input_scaled_ = false;
  uint16_t limit_ = 0, neg_alpha_ = 0;
};

}  // namespace

ReferenceResult reference_layer(const isa::MachinePreset& preset, const ModelPreset& model,
                                const BuiltProgram& b) {
  return LayerReference(preset, model, b).run();
}

DeploymentReference reference_deployment(const isa::MachinePreset& preset,
                                         const DeploymentBuild& b) {
  return LayerReference(preset, b.deployment.model, b.layer).deployment(b);
}

LayerOutput read_layer_output(const isa::Engine& engine, const isa::MachinePreset& preset,
                              const BuiltProgram& b) {
  const Layout& L = b.layout;
  const uint64_t vlen = static_cast<uint64_t>(preset.vlen()), hb = L.hidden / vlen;
  const auto rows = engine.read(isa::Space::Vram, L.v_acc / vlen, uint64_t{L.tokens_padded} * hb);
  LayerOutput out;
  out.acc_bf16.resize(uint64_t{L.tokens} * L.hidden);
  for (uint64_t t = 0; t < L.tokens; ++t)
    for (uint64_t c = 0; c < L.hidden; ++c) {
      const uint64_t src = 2 * ((c / vlen * L.tokens_padded + t) * vlen + c % vlen);
      out.acc_bf16[t * L.hidden + c] = static_cast<uint16_t>(rows[src] | (rows[src + 1] << 8));
    }
  out.out_mxfp8 = engine.read(isa::Space::Hbm, L.y.base, L.y.bytes);
  return out;
}

std::vector<double> dequant_output(const isa::MachinePreset& preset, const BuiltProgram& b,
                                   const std::vector<uint8_t>& out_mxfp8) {
  const Layout& L = b.layout;
  const uint64_t mxb = static_cast<uint64_t>(preset.mx_block());
  std::vector<double> v(uint64_t{L.tokens} * L.hidden);
  for (uint64_t o = 0; o < v.size(); ++o)
    v[o] = f32(num::mx_dequant_bf16(out_mxfp8[o], out_mxfp8[L.y.scale_offset + o / mxb]));
  return v;
}

ErrorRow error_row(const std::string& what, const std::vector<double>& got,
                   const std::vector<double>& exact) {
  ErrorRow r;
  r.what = what;
  double max_ref = 0, dot = 0, ng = 0, ne = 0;
  for (double e : exact) max_ref = std::max(max_ref, std::fabs(e));
  for (size_t i = 0; i < got.size(); ++i) {
    const double d = std::fabs(got[i] - exact[i]);
    r.max_abs = std::max(r.max_abs, d);
    if (std::fabs(exact[i]) >= ErrorRow::kRelFloor * max_ref && exact[i] != 0)
      r.max_rel = std::max(r.max_rel, d / std::fabs(exact[i]));
    dot += got[i] * exact[i];
    ng += got[i] * got[i];
    ne += exact[i] * exact[i];
  }
  r.cosine = ng == 0 || ne == 0 ? 0.0 : dot / std::sqrt(ng * ne);
  return r;
}

ReferenceCheck check_against_reference(const isa::MachinePreset& preset, const BuiltProgram& b,
                                       const ReferenceResult& ref, const LayerOutput& got) {
  ReferenceCheck c;
  c.selection_differs = ref.selection_differs;
  const auto saturated = static_cast<size_t>(
      std::count(ref.shared_gate.begin(), ref.shared_gate.end(), uint16_t{0x3F80}));
  if (2 * saturated > ref.shared_gate.size())
    c.guard_failures.push_back("the shared gate sigmoid(w_g . x) is exactly 1.0 on " +
                               std::to_string(saturated) + " of " +
                               std::to_string(ref.shared_gate.size()) +
                               " tokens: a dropped gate multiply would not change the output");
  c.acc_elements = ref.acc_bf16.size();
  c.out_bytes = ref.out_mxfp8.size();
  const uint64_t H = b.layout.hidden;
  auto note = [&](const std::string& s) {
    if (c.first_differences.size() < 8) c.first_differences.push_back(s);
  };
  char buf[160];
  for (uint64_t i = 0; i < c.acc_elements; ++i)
    if (got.acc_bf16.at(i) != ref.acc_bf16[i]) {
      ++c.acc_differing;
      std::snprintf(buf, sizeof buf,
                    "accumulator token %llu column %llu: got 0x%04X, reference 0x%04X",
                    static_cast<unsigned long long>(i / H), static_cast<unsigned long long>(i % H),
                    got.acc_bf16[i], ref.acc_bf16[i]);
      note(buf);
    }
  for (uint64_t i = 0; i < c.out_bytes; ++i)
    if (got.out_mxfp8.at(i) != ref.out_mxfp8[i]) {
      ++c.out_differing;
      std::snprintf(buf, sizeof buf, "MXFP8 output byte %llu: got 0x%02X, reference 0x%02X",
                    static_cast<unsigned long long>(i), got.out_mxfp8[i], ref.out_mxfp8[i]);
      note(buf);
    }
  std::vector<double> acc(got.acc_bf16.size());
  for (size_t i = 0; i < acc.size(); ++i) acc[i] = f32(got.acc_bf16[i]);
  c.errors.push_back(error_row("BF16 accumulator", acc, ref.exact));
  c.errors.push_back(
      error_row("MXFP8 output (HBM)", dequant_output(preset, b, got.out_mxfp8), ref.exact));
  return c;
}

void print_reference_check(std::ostream& os, const std::string& engine, const ReferenceCheck& c) {
  os << "independent reference (hardware rounding) vs " << engine << ": "
     << (c.bit_exact() ? "bit-exact" : "DIFFERENT") << " (" << c.acc_elements - c.acc_differing
     << "/" << c.acc_elements << " accumulator elements, " << c.out_bytes - c.out_differing << "/"
     << c.out_bytes << " MXFP8 output bytes equal)\n";
  for (const std::string& d : c.first_differences) os << "  " << d << '\n';
  for (const std::string& g : c.guard_failures) os << "GUARD FAILED: " << g << '\n';
  char line[200];
  std::snprintf(line, sizeof line, "%-22s %14s %14s %18s\n", "vs float64 reference", "max |err|",
                "max rel err", "cosine similarity");
  os << line;
  for (const ErrorRow& r : c.errors) {
    std::snprintf(line, sizeof line, "%-22s %14.6g %14.6g %18.12f\n", r.what.c_str(), r.max_abs,
                  r.max_rel, r.cosine);
    os << line;
  }
  os << "(max rel err over elements with |exact| >= 1/64 of max |exact|; " << c.selection_differs
     << " token(s) where float64 selects other experts than the hardware)\n";
}

}  // namespace moesim::workload
