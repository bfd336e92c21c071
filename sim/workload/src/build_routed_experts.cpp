// MoE program builder: the routed experts, pair-major (emit_pair) and expert-major
// (emit_expert).
#include <string>

#include "layer_builder.hpp"

namespace moesim::workload::detail {

void LayerBuilder::emit_weight_address(unsigned p, uint64_t w_base, uint64_t expert_bytes,
                                       uint64_t n, uint64_t k) {
  e_.stage("expert_weight_address");
  e_.op("S_LD_INT gp4, gp0, " + std::to_string(L_.pair_id_word(p)));
  e_.li(5, expert_bytes);
  e_.op("S_MUL_INT gp5, gp4, gp5");
  e_.li(6, w_base);
  e_.op("S_ADD_INT gp6, gp6, gp5");
  e_.op("C_SET_ADDR_REG " + ar(kAExpert) + ", gp0, gp6");
  e_.li(5, n * k);
  e_.op("C_SET_SCALE_REG gp5");
  e_.li(5, k);
  e_.op("C_SET_STRIDE_REG gp5");
}

/// Row 0 of each of `blocks` slot blocks += the expert's bias rows (expert-major in VRAM).
void LayerBuilder::emit_expert_bias(unsigned p, uint64_t bias_vram, uint64_t blocks,
                                    uint64_t slot) {
  e_.stage("expert_bias");
  e_.op("S_LD_INT gp4, gp0, " + std::to_string(L_.pair_id_word(p)));
  e_.li(5, blocks * vlen_);
  e_.op("S_MUL_INT gp5, gp4, gp5");
  e_.li(6, bias_vram);
  e_.op("S_ADD_INT gp6, gp6, gp5");
  e_.li(7, slot);
  e_.loop_start(kL1, blocks);
  e_.op("V_ADD_VV gp7, gp7, gp6, 0");
  e_.addi(6, 6, vlen_);
  e_.addi(7, 7, blen_ * vlen_);
  e_.loop_end(kL1);
}

/// `mnemonic` (V_GATHER, V_SCATTER_ADD) gpD, gpS, gp4 with gp4 = pair p's token, per H/VLEN
/// column block of the column-block-major `dst` and `src` (`dst_rows`, `src_rows` rows a block).
void LayerBuilder::emit_token_rows(const std::string& mnemonic, unsigned p, uint64_t dst,
                                   uint64_t dst_rows, uint64_t src, uint64_t src_rows) {
  e_.li(4, L_.int_tokens + p);
  e_.li(5, dst);
  e_.li(6, src);
  e_.loop_start(kL1, L_.hidden / vlen_);
  e_.op(mnemonic + " gp5, gp6, gp4");
  e_.addi(5, 5, dst_rows * vlen_);
  e_.addi(6, 6, src_rows * vlen_);
  e_.loop_end(kL1);
}

isa::WorkTag LayerBuilder::pair_tag(unsigned p) const {
  const unsigned t = p / L_.pair_columns(), j = p % L_.pair_columns();
  return {static_cast<int32_t>(t), static_cast<int32_t>(j), -1,
          static_cast<int64_t>(L_.pair_id_word(p))};
}

/// next_ for the projection after the routed one of pair p (pair-major) or expert p
/// (expert-major): the next pair's or expert's gate/up projection, else the shared expert's.
void LayerBuilder::set_next_after_routed(unsigned p) {
  const uint64_t H = L_.hidden, I = L_.intermediate;
  const bool pair_major = L_.lowering == Lowering::pair;
  const unsigned count = pair_major ? L_.pairs : L_.experts;
  if (p + 1 < count) {
    const unsigned q = p + 1;
    if (pair_major)
      next_ = {[this, q, H, I] { emit_weight_address(q, L_.w1, L_.w1_expert_bytes, 2 * I, H); },
               2 * I, H, "expert_weight_prefetch", pair_tag(q)};
    else
      next_ = {[this, q, H, I] {
                 e_.stage("expert_weight_address");
                 emit_static_weight_address(
                     MxMatrix{L_.w1 + q * L_.w1_expert_bytes, 2 * I, H, 2 * I * H, 0});
               },
               2 * I,
               H,
               "expert_weight_prefetch",
               {-1, -1, static_cast<int32_t>(q), -1}};
  } else if (L_.shared_intermediate != 0) {
    next_ = {[this] {
               e_.stage("shared_expert_projection");
               emit_static_weight_address(L_.ws1);
             },
             2 * L_.shared_intermediate,
             H,
             "shared_expert_projection",
             {}};
  }
}

void LayerBuilder::emit_pair(unsigned p) {
  const uint64_t H = L_.hidden, I = L_.intermediate;
  const uint64_t hb = H / vlen_, ib = I / vlen_;
  const unsigned t = p / L_.pair_columns(), j = p % L_.pair_columns();
  e_.comment("---- pair " + std::to_string(p) + ": token " + std::to_string(t) + ", rank " +
             std::to_string(j));
  e_.pair(pair_tag(p));
  e_.stage("gather");
  emit_token_rows("V_GATHER", p, L_.v_in, blen_, L_.v_x, L_.tokens_padded);
  const bool input_scaled = L_.routing == Layout::Routing::input_scaled;
  if (input_scaled) {
    e_.stage("expert_route_weight");
    e_.comment("routed input = bf16(score * x) (Llama-4: the score scales the input)");
    emit_scale_rows(L_.pair_weight_word(p), L_.v_in, hb, blen_ * vlen_);
  }

  e_.comment("gate/up projection: [g, u] = W1 x (2I x H)");
  emit_weight_address(p, L_.w1, L_.w1_expert_bytes, 2 * I, H);
  next_ = {[this, p, H, I] { emit_weight_address(p, L_.w2, L_.w2_expert_bytes, H, I); }, H, I,
           "expert_weight_prefetch", pair_tag(p)};
  emit_projection(2 * I, H, L_.v_in, L_.v_h1);
  if (L_.b1.rows != 0) emit_expert_bias(p, L_.v_b1, 2 * ib, L_.v_h1);
  e_.stage("expert_activation");
  emit_constants();
  emit_activation(ib, blen_, 1, L_.v_h1, L_.v_act, opt_.model->activation);

  e_.comment("down projection: e = W2 h (H x I)");
  emit_weight_address(p, L_.w2, L_.w2_expert_bytes, H, I);
  set_next_after_routed(p);
  emit_projection(H, I, L_.v_act, L_.v_out);
  if (L_.b2.rows != 0) emit_expert_bias(p, L_.v_b2, hb, L_.v_out);

  if (!input_scaled) {
    e_.stage("expert_route_weight");
    emit_scale_rows(L_.pair_weight_word(p), L_.v_out, hb, blen_ * vlen_);
  }

  e_.stage("scatter_combine");
  emit_token_rows("V_SCATTER_ADD", p, L_.v_acc, L_.tokens_padded, L_.v_out, blen_);
  e_.blank();
}

/// dst row of each of `blocks` blocks (block stride `stride` elements) = bf16(src row *
/// FP_SRAM[weight]); src = dst unless given.
void LayerBuilder::emit_scale_rows(uint64_t weight, uint64_t dst, uint64_t blocks,
                                   uint64_t stride) {
  e_.op("S_LD_FP " + fr(kFRoute) + ", gp0, " + std::to_string(weight));
  e_.li(4, dst);
  e_.loop_start(kL1, blocks);
  e_.op("V_MUL_VF gp4, gp4, " + fr(kFRoute) + ", 0");
  e_.addi(4, 4, stride);
  e_.loop_end(kL1);
}

/// Expert-major: expert e over all token rows (see Lowering).
void LayerBuilder::emit_expert(unsigned e) {
  const uint64_t H = L_.hidden, I = L_.intermediate;
  const uint64_t hb = H / vlen_, ib = I / vlen_, tp = L_.tokens_padded;
  e_.comment("---- expert " + std::to_string(e) + " over all " + std::to_string(tp) + " rows");
  e_.pair({-1, -1, static_cast<int32_t>(e), -1});
  const bool input_scaled = L_.routing == Layout::Routing::input_scaled;
  if (input_scaled) {
    e_.stage("expert_route_weight");
    e_.comment("input row t = bf16(R[t][" + std::to_string(e) +
               "] * x_t) (Llama-4: the score scales the input; +0 unless t routed to it)");
    emit_route_rows(e_, L_, vlen_, e, L_.v_x, L_.v_ein);
  }
  e_.stage("expert_weight_address");
  e_.comment("gate/up projection: [g, u] = W1 x (2I x H)");
  emit_static_weight_address(MxMatrix{L_.w1 + e * L_.w1_expert_bytes, 2 * I, H, 2 * I * H, 0});
  next_ = {[this, e, H, I] {
             e_.stage("expert_weight_address");
             emit_static_weight_address(MxMatrix{L_.w2 + e * L_.w2_expert_bytes, H, I, H * I, 0});
           },
           H,
           I,
           "expert_weight_prefetch",
           {-1, -1, static_cast<int32_t>(e), -1}};
  emit_projection(2 * I, H, input_scaled ? L_.v_ein : L_.v_x, L_.v_eh1, tp / blen_);
  if (L_.b1.rows != 0) {
    e_.stage("expert_bias");
    emit_add_rows(L_.v_eh1, L_.v_b1 + e * 2 * ib * vlen_, 2 * ib, false);
  }
  e_.stage("expert_activation");
  emit_constants();
  emit_activation(ib, tp, L_.tokens, L_.v_eh1, L_.v_eact, opt_.model->activation);
  e_.stage("expert_weight_address");
  e_.comment("down projection: e = W2 h (H x I)");
  emit_static_weight_address(MxMatrix{L_.w2 + e * L_.w2_expert_bytes, H, I, H * I, 0});
  set_next_after_routed(e);
  emit_projection(H, I, L_.v_eact, L_.v_eout, tp / blen_);
  if (L_.b2.rows != 0) {
    e_.stage("expert_bias");
    emit_add_rows(L_.v_eout, L_.v_b2 + e * hb * vlen_, hb, false);
  }
  if (!input_scaled) {
    e_.stage("expert_route_weight");
    e_.comment("row t *= R[t][" + std::to_string(e) + "] (+0 unless t routed to it)");
    emit_route_rows(e_, L_, vlen_, e, L_.v_eout, L_.v_eout);
  }
  e_.stage("scatter_combine");
  emit_add_rows(L_.v_acc, L_.v_eout, hb, true);
  e_.pair({});
  e_.blank();
}

void emit_route_rows(Emitter& em, const Layout& L, uint64_t vlen, unsigned e, uint64_t src,
                     uint64_t dst) {
  const uint64_t hb = L.hidden / vlen, tp = L.tokens_padded;
  const bool in_place = src == dst;
  em.li(4, L.fp_dense + e);
  em.li(5, src);
  if (!in_place) em.li(7, dst);
  em.loop_start(kL1, L.tokens);
  em.op("S_LD_FP " + fr(kFRoute) + ", gp4, 0");
  em.mov(6, 5);
  if (!in_place) em.mov(8, 7);
  em.loop_start(kL2, hb);
  em.op("V_MUL_VF " + gp(in_place ? 6 : 8) + ", gp6, " + fr(kFRoute) + ", 0");
  em.addi(6, 6, tp * vlen);
  if (!in_place) em.addi(8, 8, tp * vlen);
  em.loop_end(kL2);
  em.addi(4, 4, L.experts);
  em.addi(5, 5, vlen);
  if (!in_place) em.addi(7, 7, vlen);
  em.loop_end(kL1);
}

}  // namespace moesim::workload::detail
