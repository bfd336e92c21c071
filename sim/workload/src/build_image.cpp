// MoE program builder: the initial memory image from the seeded generator.
#include <sys/mman.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <stdexcept>
#include <thread>
#include <vector>

#include "image_gen.hpp"
#include "layer_builder.hpp"
#include "moesim/isa/numerics.hpp"

namespace moesim::workload::detail {

namespace {

using image_gen::bf16_of;
using image_gen::Mt64;
using image_gen::mx_quantizer;
using image_gen::MxQuantizer;

/// Draws approximately normal values from a seeded std::mt19937_64 with only exact IEEE
/// operations (Irwin-Hall of 4 uniforms, unit variance), so images are the same on every host.
class Generator {
 public:
  explicit Generator(uint64_t seed) : rng_(seed) {}
  double normal(double stddev) {
    double s = 0;
    for (int i = 0; i < 4; ++i) s += uniform(rng_());
    return (s - 2.0) * 1.7320508075688772 * stddev;
  }
  /// (r >> 11) * 2^-53 exactly; r >> 11 < 2^53, so the signed conversion is exact too.
  static double uniform(uint64_t r) {
    return static_cast<double>(static_cast<int64_t>(r >> 11)) * 0x1.0p-53;
  }
  Mt64& rng() { return rng_; }

 private:
  Mt64 rng_;
};

/// One MXFP8 tensor to fill: element i (row-major) is drawn with `stddev` if i < valid, else 0.
struct Fill {
  MxMatrix m;
  uint64_t valid = 0;
  double stddev = 0;
};

/// A run of whole MX blocks of one Fill, generated from its own snapshot of the stream.
struct Piece {
  const Fill* fill = nullptr;
  uint64_t first_block = 0, blocks = 0;
  uint64_t draws = 0;  ///< 4 per valid element
};

// Hot loops compiled for AVX-512 and AVX2 as well, picked at load time. Same results: integer
// work, exact conversions, and the only multiply-add that could be contracted into an FMA has
// an exact product (an integer times 2^-53).
#if defined(__GNUC__) && defined(__x86_64__) && defined(__ELF__)
#define MOESIM_HOT_CLONES __attribute__((target_clones("arch=x86-64-v4", "avx2", "default")))
#else
#define MOESIM_HOT_CLONES
#endif

/// Generates and quantises one piece from `rng` (the stream at the piece's first draw).
MOESIM_HOT_CLONES void make_piece(std::vector<uint8_t>& hbm, const Piece& p, Mt64 rng,
                                  uint64_t mxb) {
  const MxQuantizer& q = mx_quantizer();
  std::vector<uint64_t> raw(4 * mxb);
  std::vector<uint16_t> block(mxb);
  const Fill& f = *p.fill;
  for (uint64_t b = p.first_block; b < p.first_block + p.blocks; ++b) {
    const uint64_t o = b * mxb;
    const uint64_t n = o >= f.valid ? 0 : std::min(mxb, f.valid - o);
    rng.fill(raw.data(), static_cast<size_t>(4 * n));
    for (uint64_t i = 0; i < n; ++i) {
      double s = 0;
      for (uint64_t k = 0; k < 4; ++k) s += Generator::uniform(raw[4 * i + k]);
      block[i] = bf16_of(static_cast<float>((s - 2.0) * 1.7320508075688772 * f.stddev));
    }
    std::fill(block.begin() + static_cast<std::ptrdiff_t>(n), block.end(), uint16_t{0});
    hbm[f.m.base + f.m.scale_offset + b] = q.quantize(block.data(), mxb, hbm.data() + f.m.base + o);
  }
}

/// Records the stream state at the start of each piece in start[k], then publishes k + 1 in
/// `reached`; leaves `rng` after the last piece.
MOESIM_HOT_CLONES void scout(const std::vector<Piece>& pieces, std::vector<Mt64>& start,
                             std::atomic<size_t>& reached, Mt64& rng) {
  for (size_t k = 0; k < pieces.size(); ++k) {
    start[k] = rng;
    reached.store(k + 1, std::memory_order_release);
    rng.discard(pieces[k].draws);
  }
}

/// Fills every tensor of `fills`, in order, from `gen`'s stream, exactly as drawing them one
/// element after another would; leaves `gen` after the last draw. The stream is cut into pieces
/// of whole MX blocks; this thread skips through it (twists only) recording each piece's start
/// state while the other threads generate the pieces already reached, then it helps.
void fill_all(std::vector<uint8_t>& hbm, const std::vector<Fill>& fills, Generator& gen,
              uint64_t mxb) {
  // 16384 MX blocks a piece: enough pieces for the threads to share the work evenly, and few
  // generator snapshots (2.5 KB each) to write.
  constexpr uint64_t kPieceBlocks = 16384;
  std::vector<Piece> pieces;
  for (const Fill& f : fills) {
    const uint64_t blocks = f.m.rows * f.m.cols / mxb;
    for (uint64_t b = 0; b < blocks; b += kPieceBlocks) {
      Piece p{&f, b, std::min(kPieceBlocks, blocks - b), 0};
      const uint64_t lo = b * mxb, hi = (b + p.blocks) * mxb;
      p.draws = 4 * (f.valid <= lo ? 0 : std::min(hi, f.valid) - lo);
      pieces.push_back(p);
    }
  }
  std::vector<Mt64> start(pieces.size(), gen.rng());
  std::atomic<size_t> reached{0}, next{0};
  auto work = [&] {
    for (size_t k = next.fetch_add(1); k < pieces.size(); k = next.fetch_add(1)) {
      while (reached.load(std::memory_order_acquire) <= k) std::this_thread::yield();
      make_piece(hbm, pieces[k], start[k], mxb);
    }
  };
  const unsigned hw = std::thread::hardware_concurrency();
  const unsigned threads = std::min(8u, std::max(1u, hw));
  std::vector<std::thread> helpers;
  for (unsigned t = 1; t < threads; ++t) helpers.emplace_back(work);
  scout(pieces, start, reached, gen.rng());
  work();
  for (std::thread& t : helpers) t.join();
}

/// n zero bytes. A large buffer is advised as transparent huge pages before it is zeroed: the
/// first write to each page is the costly part of a 680 MB image on a virtual machine, and
/// 2 MiB pages take 512 times fewer faults and free faster (only advice; the bytes are the same).
std::vector<uint8_t> zeroed_bytes(uint64_t n) {
  std::vector<uint8_t> v;
#ifdef MADV_HUGEPAGE
  constexpr uint64_t kHuge = uint64_t{2} << 20;
  if (n >= 2 * kHuge) {
    v.reserve(n);  // mapped by the allocator, not touched yet
    const auto at = reinterpret_cast<uintptr_t>(v.data());
    const uintptr_t first = (at + kHuge - 1) & ~(kHuge - 1), end = (at + n) & ~(kHuge - 1);
    if (first < end) madvise(reinterpret_cast<void*>(first), end - first, MADV_HUGEPAGE);
  }
#endif
  v.resize(n, 0);
  return v;
}

void put_u16(std::vector<uint8_t>& bytes, uint64_t word, uint16_t v) {
  bytes[2 * word] = static_cast<uint8_t>(v & 0xFF);
  bytes[2 * word + 1] = static_cast<uint8_t>(v >> 8);
}

void put_u32(std::vector<uint8_t>& bytes, uint64_t word, uint32_t v) {
  for (int i = 0; i < 4; ++i) bytes[4 * word + i] = static_cast<uint8_t>(v >> (8 * i));
}

/// `v` (BF16 values of `m`'s first `n` elements, whole rows) quantised into `m` per MX block.
void lay_values(std::vector<uint8_t>& hbm, const MxMatrix& m, const std::vector<uint16_t>& v,
                uint64_t n, uint64_t mxb) {
  if (v.size() != n) throw std::logic_error("build_moe_layer: a tensor of the wrong size");
  const MxQuantizer& q = mx_quantizer();
  for (uint64_t b = 0; b < n / mxb; ++b)
    hbm[m.base + m.scale_offset + b] = q.quantize(v.data() + b * mxb, mxb, &hbm[m.base + b * mxb]);
}

/// The weights of `w` quantised into their MXFP8 matrices.
void lay_weights(std::vector<uint8_t>& hbm, const Layout& L, const LayerWeights& w, uint64_t mxb) {
  const uint64_t H = L.hidden, I = L.intermediate;
  std::vector<uint16_t> v;
  const auto put = [&](const MxMatrix& m, uint64_t n) { lay_values(hbm, m, v, n, mxb); };
  w.router(v);
  put(L.wr, uint64_t{L.experts} * H);
  for (unsigned e = 0; e < L.experts; ++e) {
    w.expert_w1(e, v);
    put({L.w1 + e * L.w1_expert_bytes, 2 * I, H, 2 * I * H, 0}, 2 * I * H);
    w.expert_w2(e, v);
    put({L.w2 + e * L.w2_expert_bytes, H, I, H * I, 0}, H * I);
  }
  if (L.shared_intermediate != 0) {
    w.shared_w1(v);
    put(L.ws1, 2 * uint64_t{L.shared_intermediate} * H);
    w.shared_w2(v);
    put(L.ws2, H * L.shared_intermediate);
  }
}

}  // namespace

isa::MemoryImage LayerBuilder::make_image() {
  const ModelPreset& model = *opt_.model;
  const uint64_t H = L_.hidden, I = L_.intermediate, E = L_.experts;
  Generator gen(opt_.seed);
  std::vector<uint8_t> hbm = zeroed_bytes(L_.hbm_input_end);
  // Spreads: X ~ 1; router logits ~ 2; gate/up pre-activations ~ 4 (so the +-7 clamps act);
  // expert outputs ~ 1; biases ~ 0.5.
  const double sd_h = 1.0 / std::sqrt(static_cast<double>(H));
  const double sd_i = 1.0 / std::sqrt(static_cast<double>(I));
  std::vector<Fill> fills;
  // X is drawn even when BuildOptions::inputs replaces it, so the weights a seed draws stay the
  // same.
  fills.push_back({L_.x, L_.tokens * H, 1.0});
  // Weights from a checkpoint (BuildOptions::weights) are laid in after X is drawn.
  if (opt_.weights != nullptr &&
      (L_.br.rows != 0 || L_.b1.rows != 0 || L_.b2.rows != 0 || L_.shared_gate ||
       (L_.shared_intermediate != 0 && !opt_.weights->has_shared()) ||
       (L_.routing == Layout::Routing::sigmoid_biased && !opt_.weights->has_correction_bias()) ||
       !opt_.recorded.empty()))
    throw std::logic_error("BuildOptions::weights: the layer has tensors LayerWeights lacks");
  if (opt_.weights == nullptr) {
    // Sigmoid scores: router logits ~ 1, so sigmoid(l) of the top experts stays below 1.
    const double sd_router = L_.routing == Layout::Routing::softmax ? 2.0 * sd_h : sd_h;
    // Recorded routing: W_r is zero (the logits come from the recorded ones, docs/route_traces.md).
    fills.push_back({L_.wr, opt_.recorded.empty() ? E * H : 0, sd_router});
    if (L_.br.rows != 0) fills.push_back({L_.br, E, 0.5});
    if (L_.b1.rows != 0) fills.push_back({L_.b1, E * 2 * I, 0.5});
    if (L_.b2.rows != 0) fills.push_back({L_.b2, E * H, 0.5});
    for (uint64_t e = 0; e < E; ++e) {
      const MxMatrix w{L_.w1 + e * L_.w1_expert_bytes, 2 * I, H, 2 * I * H, 0};
      fills.push_back({w, 2 * I * H, 4.0 * sd_h});
    }
    for (uint64_t e = 0; e < E; ++e) {
      const MxMatrix w{L_.w2 + e * L_.w2_expert_bytes, H, I, H * I, 0};
      fills.push_back({w, H * I, sd_i});
    }
    if (L_.shared_intermediate != 0) {
      // Shared expert like a routed one; gate logits w_g . x ~ 1 so sigmoid stays unsaturated.
      const double sd_s = 1.0 / std::sqrt(static_cast<double>(L_.shared_intermediate));
      fills.push_back({L_.ws1, L_.ws1.rows * H, 4.0 * sd_h});
      fills.push_back({L_.ws2, H * L_.shared_intermediate, sd_s});
      if (L_.shared_gate) fills.push_back({L_.wg, H, sd_h});
    }
  }
  fill_all(hbm, fills, gen, mxb_);
  if (!opt_.inputs.empty()) lay_values(hbm, L_.x, opt_.inputs, L_.tokens * H, mxb_);
  if (opt_.weights != nullptr) lay_weights(hbm, L_, *opt_.weights, mxb_);

  isa::MemoryImage img;
  img.hbm.push_back({0, std::move(hbm)});

  std::vector<uint8_t> fp(2 * L_.fp_words_used, 0);
  const uint16_t limit = num::f32_to_bf16(static_cast<float>(model.swiglu_limit));
  put_u16(fp, L_.fp_limit, limit);
  put_u16(fp, L_.fp_neg_limit, static_cast<uint16_t>(limit ^ 0x8000));
  put_u16(fp, L_.fp_neg_alpha, static_cast<uint16_t>(L_.alpha_bf16 ^ 0x8000));
  put_u16(fp, L_.fp_one, num::f32_to_bf16(1.0f));
  put_u16(fp, L_.fp_neg_one, num::f32_to_bf16(-1.0f));
  if (L_.routing == Layout::Routing::softmax && L_.fp_rsf != 0) {
    put_u16(fp, L_.fp_rsf, num::f32_to_bf16(static_cast<float>(model.routed_scaling_factor)));
    if (L_.group_limited()) put_u16(fp, L_.fp_neg_inf, 0xFF80);
  }
  if (L_.routing == Layout::Routing::sigmoid_biased) {
    put_u16(fp, L_.fp_neg_inf, 0xFF80);
    put_u16(fp, L_.fp_eps, num::f32_to_bf16(1e-20f));
    put_u16(fp, L_.fp_rsf, num::f32_to_bf16(static_cast<float>(model.routed_scaling_factor)));
    // e_score_correction_bias: small (sd 0.03, against score gaps of ~0.01 between the top
    // experts), drawn after every other tensor, BF16; or the checkpoint's.
    std::vector<uint16_t> bias;
    if (opt_.weights != nullptr) opt_.weights->correction_bias(bias);
    if (opt_.weights != nullptr && bias.size() != E)
      throw std::logic_error("LayerWeights: a correction bias of the wrong size");
    for (uint64_t e = 0; e < E; ++e)
      put_u16(fp, L_.fp_bias + e,
              opt_.weights != nullptr ? bias[e]
                                      : num::f32_to_bf16(static_cast<float>(gen.normal(0.03))));
  }
  for (size_t t = 0; t < opt_.recorded.size(); ++t)
    for (size_t j = 0; j < L_.top_k; ++j)
      put_u16(fp, L_.fp_recorded + t * L_.top_k + j, opt_.recorded[t].logits_bf16[j]);
  img.fp_sram.push_back({0, std::move(fp)});

  std::vector<uint8_t> ints(4 * L_.int_words_used, 0);
  for (unsigned p = 0; p < L_.pairs; ++p) put_u32(ints, L_.int_tokens + p, p / L_.top_k);
  img.int_sram.push_back({0, std::move(ints)});
  return img;
}

}  // namespace moesim::workload::detail
