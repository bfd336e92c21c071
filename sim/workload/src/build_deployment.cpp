// Per-rank programs of a deployment (deployment_build.hpp, docs/deployments.md): the rank's
// expert mask on the accelerator (LayerBuilder::emit_rank_mask) and build_deployment, which makes
// each rank's initial image from the single-accelerator layer's.
#include <algorithm>
#include <cstring>
#include <numeric>
#include <string>

#include "layer_builder.hpp"
#include "moesim/isa/numerics.hpp"
#include "moesim/workload/deployment_build.hpp"

namespace moesim::workload {
namespace detail {

/// After the router: for every token t and routed column j, the logical expert g V_TOPK wrote is
/// looked up in the rank's mask tables (row t mod C): the local slot (the sentinel slot when the
/// copy token t takes is on another rank) into int_pair_ids, and the route weight times keep
/// (1.0, or +0 for the sentinel) into fp_pair_weights. Then the S fused shared columns: the
/// shared slots with weight 1 for the rank's own tokens, the sentinel with +0 for the others.
void LayerBuilder::emit_rank_mask() {
  const BuildOptions::RankProgram& r = *opt_.rank;
  const unsigned k = L_.top_k, cols = L_.columns;
  const uint64_t E = L_.experts, sentinel = L_.expert_slots - 1;
  e_.stage("router_topk");
  e_.comment("expert mask of this rank: local slot and masked weight of every pair (sentinel " +
             std::to_string(sentinel) + ", weight +0, for experts held by other ranks)");
  for (unsigned t = 0; t < L_.tokens; ++t) {
    e_.pair({static_cast<int32_t>(t), -1, -1, -1});
    const uint64_t row = uint64_t{t % L_.mask_modulus} * E;
    for (unsigned j = 0; j < k; ++j) {
      const unsigned p = t * cols + j, v = t * k + j;
      e_.op("S_LD_INT gp4, gp0, " + std::to_string(L_.id_word(v)));
      e_.op("S_LD_INT gp5, gp4, " + std::to_string(L_.int_local_of + row));
      e_.op("S_ST_INT gp5, gp0, " + std::to_string(L_.int_pair_ids + p));
      e_.op("S_LD_FP " + fr(kFAcc) + ", gp4, " + std::to_string(L_.fp_keep + row));
      e_.op("S_LD_FP " + fr(kFRoute) + ", gp0, " + std::to_string(L_.weight_word(v)));
      e_.op("S_MUL_FP " + fr(kFRoute) + ", " + fr(kFRoute) + ", " + fr(kFAcc));
      e_.op("S_ST_FP " + fr(kFRoute) + ", gp0, " + std::to_string(L_.fp_pair_weights + p));
    }
    const bool own = r.own_token[t];
    if (r.shared != 0) {
      e_.comment(std::string("fused shared columns: ") +
                 (own ? "this rank's token, weight 1" : "another rank's token, sentinel"));
      if (own) e_.op("S_LD_FP " + fr(kFRoute) + ", gp0, " + std::to_string(L_.fp_one));
    }
    for (unsigned i = 0; i < r.shared; ++i) {
      const unsigned p = t * cols + k + i;
      e_.li(5, own ? r.local_routed + i : sentinel);
      e_.op("S_ST_INT gp5, gp0, " + std::to_string(L_.int_pair_ids + p));
      e_.op("S_ST_FP " + (own ? fr(kFRoute) : std::string("f0")) + ", gp0, " +
            std::to_string(L_.fp_pair_weights + p));
    }
  }
  e_.pair({});
  e_.blank();
}

}  // namespace detail

namespace {

/// Copies rows [src_row, src_row + n) of MXFP8 matrix `s` (codes and scales) in `from` to rows
/// [dst_row, ...) of `d` in `to`, columns [src_col, src_col + d.cols) of s (whole MX blocks).
void copy_rows(const std::vector<uint8_t>& from, const MxMatrix& s, uint64_t src_row,
               uint64_t src_col, std::vector<uint8_t>& to, const MxMatrix& d, uint64_t dst_row,
               uint64_t n, uint64_t mxb) {
  for (uint64_t i = 0; i < n; ++i) {
    const uint64_t so = (src_row + i) * s.cols + src_col, dof = (dst_row + i) * d.cols;
    std::memcpy(&to[d.base + dof], &from[s.base + so], d.cols);
    std::memcpy(&to[d.base + d.scale_offset + dof / mxb], &from[s.base + s.scale_offset + so / mxb],
                d.cols / mxb);
  }
}

void put_u16(std::vector<uint8_t>& b, uint64_t word, uint16_t v) {
  b[2 * word] = static_cast<uint8_t>(v & 0xFF);
  b[2 * word + 1] = static_cast<uint8_t>(v >> 8);
}

void put_u32(std::vector<uint8_t>& b, uint64_t word, uint32_t v) {
  for (int i = 0; i < 4; ++i) b[4 * word + i] = static_cast<uint8_t>(v >> (8 * i));
}

const std::vector<uint8_t>& only_segment(const std::vector<isa::MemorySegment>& segs) {
  if (segs.size() != 1 || segs[0].base != 0)
    throw std::logic_error("build_deployment: the layer's image is not one segment per space");
  return segs[0].bytes;
}

/// Rank r's initial image: the layer's inputs, router, the weights of the logical expert of each
/// local physical expert, the S fused shared experts cut from the layer's shared MLP, a zero
/// sentinel slot, and the mask tables.
isa::MemoryImage rank_image(const isa::MachinePreset& preset, const DeploymentBuild& b, unsigned r,
                            const Layout& R, unsigned modulus) {
  const Layout& L = b.layer.layout;
  const DeploymentShape& s = b.shape;
  const RankShape& rs = s.ranks[r];
  const uint64_t mxb = static_cast<uint64_t>(preset.mx_block());
  const uint64_t vlen = static_cast<uint64_t>(preset.vlen());
  const uint64_t H = L.hidden, I = L.intermediate, E = L.experts;
  const uint64_t hb = H / vlen, ib = I / vlen;
  const std::vector<uint8_t>& src = only_segment(b.layer.image.hbm);
  if (R.x.base != L.x.base || R.wr.base != L.wr.base || R.br.base != L.br.base ||
      R.fp_pair_weights != L.fp_words_used || R.w1_expert_bytes != L.w1_expert_bytes ||
      R.w2_expert_bytes != L.w2_expert_bytes)
    throw std::logic_error("build_deployment: rank and layer layouts disagree");
  std::vector<uint8_t> hbm(R.hbm_input_end, 0);
  // X, W_r and the router bias sit at the same addresses.
  const uint64_t head = R.br.rows != 0 ? R.br.base + R.br.bytes : R.wr.base + R.wr.bytes;
  std::copy(src.begin(), src.begin() + static_cast<std::ptrdiff_t>(head), hbm.begin());
  for (unsigned i = 0; i < rs.local_routed; ++i) {
    const uint64_t g = s.physical_to_logical[rs.first_physical + i];
    std::memcpy(&hbm[R.w1 + i * R.w1_expert_bytes], &src[L.w1 + g * L.w1_expert_bytes],
                L.w1_expert_bytes);
    std::memcpy(&hbm[R.w2 + i * R.w2_expert_bytes], &src[L.w2 + g * L.w2_expert_bytes],
                L.w2_expert_bytes);
    if (L.b1.rows != 0) {
      copy_rows(src, L.b1, g * 2 * ib, 0, hbm, R.b1, uint64_t{i} * 2 * ib, 2 * ib, mxb);
      copy_rows(src, L.b2, g * hb, 0, hbm, R.b2, uint64_t{i} * hb, hb, mxb);
    }
  }
  // Fused shared expert i: gate rows [iI, (i+1)I) and up rows [I_s + iI, ...) of W1_s; columns
  // [iI, (i+1)I) of W2_s.
  const uint64_t IS = L.shared_intermediate;
  for (unsigned i = 0; i < s.shared; ++i) {
    const uint64_t slot = rs.local_routed + i;
    const MxMatrix w1{R.w1 + slot * R.w1_expert_bytes, 2 * I, H, 2 * I * H, 0};
    const MxMatrix w2{R.w2 + slot * R.w2_expert_bytes, H, I, H * I, 0};
    copy_rows(src, L.ws1, i * I, 0, hbm, w1, 0, I, mxb);
    copy_rows(src, L.ws1, IS + i * I, 0, hbm, w1, I, I, mxb);
    copy_rows(src, L.ws2, 0, i * I, hbm, w2, 0, H, mxb);
  }
  // The sentinel slot (the last) and the shared slots' biases stay zero.
  isa::MemoryImage img;
  img.hbm.push_back({0, std::move(hbm)});

  std::vector<uint8_t> fp(2 * R.fp_words_used, 0);
  const std::vector<uint8_t>& lfp = only_segment(b.layer.image.fp_sram);
  std::copy(lfp.begin(), lfp.end(), fp.begin());  // constants, correction bias
  std::vector<uint8_t> ints(4 * R.int_words_used, 0);
  for (unsigned p = 0; p < R.pairs; ++p) put_u32(ints, R.int_tokens + p, p / R.columns);
  // The mask tables: row c serves the tokens t with t mod C = c, which take copy t mod c_g of
  // logical expert g (its physical copies in id order).
  const uint32_t sentinel = R.expert_slots - 1;
  for (uint64_t g = 0; g < E; ++g) {
    std::vector<unsigned> copies;
    for (unsigned p = 0; p < s.physical; ++p)
      if (s.physical_to_logical[p] == g) copies.push_back(p);
    for (unsigned c = 0; c < modulus; ++c) {
      const int32_t local = rs.mask[copies[c % copies.size()]];
      put_u32(ints, R.int_local_of + c * E + g,
              local >= 0 ? static_cast<uint32_t>(local) : sentinel);
      put_u16(fp, R.fp_keep + c * E + g, local >= 0 ? num::f32_to_bf16(1.0f) : uint16_t{0});
    }
  }
  img.fp_sram.push_back({0, std::move(fp)});
  img.int_sram.push_back({0, std::move(ints)});
  return img;
}

}  // namespace

DeploymentBuild build_deployment(const isa::Spec& spec, const isa::MachinePreset& preset,
                                 const Deployment& d, const BuildOptions& base) {
  DeploymentBuild b;
  b.deployment = d;
  const ModelPreset& m = b.deployment.model;
  const auto max_e = static_cast<uint64_t>(preset.get("MAX_TOPK_EXPERTS"));
  if (m.experts > max_e)
    throw UsageError("--deployment " + d.name + " (" + d.where + "): model " + d.model_arg + ": " +
                     experts_key(m) + " " + std::to_string(m.experts) +
                     " exceeds MAX_TOPK_EXPERTS = " + std::to_string(max_e) +
                     " of machine preset '" + preset.name +
                     "' (V_TOPK cannot select over them; `moesim deploy list` shows its shapes)");
  if (base.tokens > d.max_tokens_per_rank)
    throw UsageError("--tokens " + std::to_string(base.tokens) + ": deployment " + d.name +
                     " has max_tokens_per_rank " + std::to_string(d.max_tokens_per_rank) + " (" +
                     d.where + ")");
  if (base.lowering != Lowering::pair)
    throw UsageError("--lowering expert: a deployment's rank programs are pair-major");
  b.shape = derive_shape(b.deployment);
  const DeploymentShape& s = b.shape;
  const unsigned T = base.tokens;
  for (unsigned t = 0; t < T; ++t) b.owner.push_back(static_cast<unsigned>(uint64_t{t} * s.ep / T));
  // C = lcm of the copy counts, so t mod C picks the copy of every logical expert.
  std::vector<unsigned> count(s.routed, 0);
  for (unsigned g : s.physical_to_logical) ++count[g];
  unsigned modulus = 1;
  for (unsigned c : count) modulus = std::lcm(modulus, c);

  BuildOptions lo = base;
  lo.model = &m;
  lo.shared = s.shared != 0;
  lo.shared_intermediate = 0;
  lo.rank.reset();
  b.layer = build_moe_layer(spec, preset, lo);
  for (unsigned r = 0; r < s.ep; ++r) {
    BuildOptions ro = lo;
    ro.shared = false;
    BuildOptions::RankProgram rp;
    rp.local_routed = s.ranks[r].local_routed;
    rp.shared = s.shared;
    rp.modulus = modulus;
    for (unsigned t = 0; t < T; ++t) rp.own_token.push_back(b.owner[t] == r);
    ro.rank = rp;
    BuiltProgram rb = build_moe_layer(spec, preset, ro);
    rb.name = d.name + "_rank" + std::to_string(r) + "_of" + std::to_string(s.ep) + "_" + rb.name;
    rb.image = rank_image(preset, b, r, rb.layout, modulus);
    rb.notes.push_back("deployment " + d.name + " rank " + std::to_string(r) + " of " +
                       std::to_string(s.ep) + ": physical experts [" +
                       std::to_string(s.ranks[r].first_physical) + ", " +
                       std::to_string(s.ranks[r].first_physical + s.ranks[r].local_routed) + "), " +
                       std::to_string(s.shared) +
                       " fused shared column(s), the expert mask applied after V_TOPK (remote "
                       "experts routed to the zero sentinel slot with weight +0)");
    b.ranks.push_back(std::move(rb));
  }
  return b;
}

}  // namespace moesim::workload
