// MoE program builder: the router (logits, scores, V_TOPK, route weights).
#include <functional>
#include <string>

#include "layer_builder.hpp"
#include "moesim/isa/tables.hpp"

namespace moesim::workload::detail {

/// C_SET_TOPK_REG pack_topk_policy(E, k) from an S_ADDI_INT (the form --plant-fault topk-shift-7
/// rewrites).
void LayerBuilder::set_topk_policy(uint64_t experts, uint64_t k) {
  e_.li(13, isa::pack_topk_policy(static_cast<uint32_t>(experts), static_cast<uint32_t>(k)));
  e_.op("C_SET_TOPK_REG gp13");
}

void LayerBuilder::emit_router() {
  const uint64_t hb = L_.hidden / vlen_;
  using Routing = Layout::Routing;
  e_.stage("router_topk");
  const isa::TopkPolicySpec* policy = spec_.topk_policy(L_.topk_rmask);
  const bool register_policy = policy != nullptr && !policy->hardwired();
  // With the group step the policy register alternates per token (groups, then experts).
  if (register_policy && !L_.group_limited()) set_topk_policy(L_.experts, L_.topk_select);
  if (L_.routing != Routing::softmax) {
    e_.comment("f5 = 1.0 for the sigmoids on the scalar FP unit");
    e_.op("S_LD_FP " + fr(kFOne) + ", gp0, " + std::to_string(L_.fp_one));
  }
  e_.li(8, L_.v_tmp);
  for (unsigned t = 0; t < L_.tokens; ++t) {
    e_.pair({static_cast<int32_t>(t), -1, -1, -1});
    e_.comment("token " + std::to_string(t) + ": logits l_e = sum_b X[t,b] . W_r[e,b]");
    e_.li(4, L_.v_wr);
    e_.li(5, L_.fp_logits);
    // One expert's logit: its `blocks` emits the block loop (V_MUL_VV, V_RED_SUM per block).
    auto expert = [&](const std::function<void()>& blocks) {
      e_.op("S_LD_FP " + fr(kFAcc) + ", gp0, " + std::to_string(L_.fp_zero));
      e_.li(6, L_.v_x + uint64_t{t} * vlen_);
      e_.mov(7, 4);
      blocks();
      e_.op("S_ST_FP " + fr(kFAcc) + ", gp5, 0");
      e_.addi(5, 5, 1);
      e_.addi(4, 4, vlen_);
    };
    auto blocks = [&](unsigned counter, uint64_t n) {
      e_.loop_start(counter, n);
      e_.op("V_MUL_VV gp8, gp6, gp7, 0");
      e_.op("V_RED_SUM " + fr(kFAcc) + ", gp8, 0");
      e_.addi(6, 6, uint64_t{L_.tokens_padded} * vlen_);
      e_.addi(7, 7, L_.wr.rows * vlen_);
      e_.loop_end(counter);
    };
    if (t == 0 && stream_wr_)
      emit_streamed_logits(expert, blocks);
    else
      emit_loop_with_deferred_loads(L_.experts, [&] { expert([&] { blocks(kL2, hb); }); });
    if (!opt_.recorded.empty()) {
      e_.comment("recorded routing: the recorded logits of token " + std::to_string(t) +
                 " over the +0 logits of the zero W_r");
      for (unsigned j = 0; j < L_.top_k; ++j) {
        e_.op("S_LD_FP " + fr(kFAcc) + ", gp0, " +
              std::to_string(L_.fp_recorded + uint64_t{t} * L_.top_k + j));
        e_.op("S_ST_FP " + fr(kFAcc) + ", gp0, " +
              std::to_string(L_.fp_logits + opt_.recorded[t].ids[j]));
      }
    }
    const uint64_t logit_row = L_.v_logits + uint64_t{t} * L_.logit_rows * vlen_;
    // V_TOPK of token t over the FP SRAM row(s) at `from` (+ the router bias), selecting k with
    // rmask: its weights at fp_weights + t*topk_select, its ids at int_ids + t*topk_select.
    auto topk = [&](uint64_t from, uint64_t k, unsigned rmask) {
      e_.li(9, logit_row);
      e_.li(10, L_.v_br);
      for (unsigned r = 0; r < L_.logit_rows; ++r) {
        e_.op("S_MAP_V_FP gp9, gp0, " + std::to_string(from + r * vlen_));
        if (L_.br.rows != 0) e_.op("V_ADD_VV gp9, gp9, gp10, 0");
        if (r + 1 < L_.logit_rows) {
          e_.addi(9, 9, vlen_);
          e_.addi(10, 10, vlen_);
        }
      }
      if (L_.group_limited() && !spec_.topk_policy(rmask)->hardwired())
        set_topk_policy(L_.experts, k);
      e_.li(9, logit_row);
      e_.li(11, L_.fp_weights + uint64_t{t} * L_.topk_select);
      e_.li(12, L_.int_ids + uint64_t{t} * L_.topk_select);
      e_.op("V_TOPK gp11, gp9, gp12, " + std::to_string(rmask));
    };
    if (L_.routing == Routing::softmax && L_.group_limited()) {
      // DeepSeek-V2 group_limited_greedy (norm_topk_prob false: the softmax over all E first).
      if (L_.fp_scores != 0) {
        topk(L_.fp_logits, L_.topk_select, L_.topk_rmask);
        emit_scatter_scores(t);
      }
      emit_group_scores_max();
      emit_group_mask(L_.fp_logits);
      const unsigned rmask =
          L_.topk_select == L_.top_k ? L_.topk_rmask : spec_.topk_register_policy()->rmask;
      topk(L_.fp_biased, L_.top_k, rmask);
    } else {
      if (L_.routing == Routing::sigmoid_biased) emit_biased_scores();
      // V_TOPK selects on the logits, or on the masked biased scores s'.
      topk(L_.routing == Routing::sigmoid_biased ? L_.fp_biased : L_.fp_logits, L_.topk_select,
           L_.topk_rmask);
    }
    if (L_.routing == Routing::softmax && L_.fp_rsf != 0) emit_softmax_weights(t);
    if (L_.routing == Routing::sigmoid_biased) emit_sigmoid_weights(t);
    if (L_.routing == Routing::input_scaled) emit_input_scores(t);
    if (L_.lowering == Lowering::expert) {
      e_.comment("R[t][id] = w for the token's k routed experts (expert-major)");
      for (unsigned j = 0; j < L_.top_k; ++j) {
        const unsigned p = t * L_.top_k + j;
        e_.op("S_LD_INT gp4, gp0, " + std::to_string(L_.id_word(p)));
        e_.addi(4, 4, L_.fp_dense + uint64_t{t} * L_.experts);
        e_.op("S_LD_FP " + fr(kFRoute) + ", gp0, " + std::to_string(L_.weight_word(p)));
        e_.op("S_ST_FP " + fr(kFRoute) + ", gp4, 0");
      }
    }
    if (deferred_.empty()) emit_first_prologue();
  }
  emit_deferred_loads_left();
  emit_first_prologue();
  e_.pair({});
  e_.blank();
}

/// Token 0's logits with a DMA queue, W_r streamed (stream_wr_): residual_setup loaded W_r's
/// row group 0 (HBM_V_ROWS rows of every block); the experts of row group g, unrolled, issue the
/// H/VLEN loads of row group g+1 (stage residual_setup), spread over their block loops (expert r
/// of the group issues loads [r*H/VLEN/HBM_V_ROWS, (r+1)*H/VLEN/HBM_V_ROWS) rounded down, one
/// every H/VLEN/c blocks when its c loads divide the H/VLEN blocks, else one before each of c
/// block runs); every load of a row group is issued before the group's first V_MUL_VV reads it.
/// The last group's experts issue deferred loads (emit_loop_with_deferred_loads). `expert`
/// emits one expert around its block loop, `blocks(counter, n)` a loop over n blocks.
void LayerBuilder::emit_streamed_logits(
    const std::function<void(const std::function<void()>&)>& expert,
    const std::function<void(unsigned, uint64_t)>& blocks) {
  const uint64_t hb = L_.hidden / vlen_, groups = L_.wr.rows / vrows_;
  const isa::WorkTag tag = e_.work_tag();
  auto load = [&] {
    e_.pair({});
    e_.stage("residual_setup");
    e_.op("H_PREFETCH_V gp13, gp14, " + ar(kAIn) + ", 1, 0");
    e_.addi(13, 13, L_.wr.rows * vlen_);
    e_.addi(14, 14, vlen_);
    e_.pair(tag);
    e_.stage("router_topk");
  };
  for (uint64_t g = 0; g + 1 < groups; ++g) {
    e_.pair({});
    e_.stage("residual_setup");
    e_.comment("W_r row group " + std::to_string(g + 1) + " under the experts of row group " +
               std::to_string(g));
    if (deferred_set_ != &L_.wr) {
      emit_transfer_regs(L_.wr);
      deferred_set_ = &L_.wr;
    }
    e_.li(13, L_.v_wr + (g + 1) * vrows_ * vlen_);
    e_.li(14, (g + 1) * vrows_ * L_.wr.cols);
    e_.pair(tag);
    e_.stage("router_topk");
    for (uint64_t r = 0; r < vrows_ && g * vrows_ + r < L_.experts; ++r) {
      const uint64_t c = (r + 1) * hb / vrows_ - r * hb / vrows_;
      expert([&] {
        if (c == 0) {
          blocks(kL1, hb);
        } else if (hb % c == 0) {
          e_.loop_start(kL1, c);
          load();
          blocks(kL2, hb / c);
          e_.loop_end(kL1);
        } else {
          for (uint64_t i = 0; i < c; ++i) {
            load();
            blocks(kL1, (i + 1) * hb / c - i * hb / c);
          }
        }
      });
    }
  }
  const uint64_t last = (groups - 1) * vrows_;
  if (last < L_.experts)
    emit_loop_with_deferred_loads(L_.experts - last, [&] { expert([&] { blocks(kL2, hb); }); });
}

/// DeepSeek-V3 selection scores of the current token (logits at fp_logits): s = sigmoid(l)
/// written over the logits, s' = s + b at fp_biased, then (group-limited) the group scores,
/// the group V_TOPK and s' += 0 or -inf per group. Uses f1..f7 (the activation constants are
/// loaded after the router).
void LayerBuilder::emit_biased_scores() {
  const uint64_t E = L_.experts;
  e_.comment("s = sigmoid(l) over the logits; s' = s + b (e_score_correction_bias)");
  e_.li(4, L_.fp_logits);
  e_.loop_start(kL1, E);
  e_.op("S_LD_FP f1, gp4, 0");
  emit_scalar_sigmoid(1);
  e_.op("S_ST_FP f1, gp4, 0");
  e_.op("S_LD_FP f2, gp4, " + std::to_string(L_.fp_bias - L_.fp_logits));
  e_.op("S_ADD_FP f2, f1, f2");
  e_.op("S_ST_FP f2, gp4, " + std::to_string(L_.fp_biased - L_.fp_logits));
  e_.addi(4, 4, 1);
  e_.loop_end(kL1);
  if (!L_.group_limited()) return;
  const uint64_t gs = E / L_.n_group;
  e_.comment("group score = m1 + m2, the two largest s' of each group of " + std::to_string(gs) +
             " (m2 = max(m2, min(x, m1)), min(a, b) = -max(-a, -b))");
  e_.li(4, L_.fp_biased);
  e_.li(5, L_.fp_groups);
  e_.loop_start(kL1, L_.n_group);
  e_.op("S_LD_FP f1, gp0, " + std::to_string(L_.fp_neg_inf));
  e_.op("S_LD_FP f2, gp0, " + std::to_string(L_.fp_neg_inf));
  e_.loop_start(kL2, gs);
  e_.op("S_LD_FP f3, gp4, 0");
  e_.op("S_SUB_FP f6, f0, f3");
  e_.op("S_SUB_FP f7, f0, f1");
  e_.op("S_MAX_FP f6, f6, f7");
  e_.op("S_SUB_FP f6, f0, f6");
  e_.op("S_MAX_FP f2, f2, f6");
  e_.op("S_MAX_FP f1, f1, f3");
  e_.addi(4, 4, 1);
  e_.loop_end(kL2);
  e_.op("S_ADD_FP f1, f1, f2");
  e_.op("S_ST_FP f1, gp5, 0");
  e_.addi(5, 5, 1);
  e_.loop_end(kL1);
  emit_group_mask(L_.fp_biased);
}

/// DeepSeek-V2 group scores of the current token (logits at fp_logits): the largest logit of
/// each group at fp_groups (softmax is monotone, so the group holding the largest softmax score
/// holds the largest logit). Uses f1, f3.
void LayerBuilder::emit_group_scores_max() {
  const uint64_t gs = L_.experts / L_.n_group;
  e_.comment("group score = the largest logit of each group of " + std::to_string(gs) +
             " (the group's largest softmax score: softmax is monotone)");
  e_.li(4, L_.fp_logits);
  e_.li(5, L_.fp_groups);
  e_.loop_start(kL1, L_.n_group);
  e_.op("S_LD_FP f1, gp0, " + std::to_string(L_.fp_neg_inf));
  e_.loop_start(kL2, gs);
  e_.op("S_LD_FP f3, gp4, 0");
  e_.op("S_MAX_FP f1, f1, f3");
  e_.addi(4, 4, 1);
  e_.loop_end(kL2);
  e_.op("S_ST_FP f1, gp5, 0");
  e_.addi(5, 5, 1);
  e_.loop_end(kL1);
}

/// The group step after the group scores (at fp_groups): the group V_TOPK keeps topk_group
/// groups, then fp_biased[e] = src[e] + P[group of e] with P = +0 for a kept group, -inf else
/// (src = fp_biased: in place). Uses f1, f3.
void LayerBuilder::emit_group_mask(uint64_t src) {
  const uint64_t gs = L_.experts / L_.n_group;
  e_.comment("keep the top " + std::to_string(L_.topk_group) + " of " + std::to_string(L_.n_group) +
             " groups (V_TOPK, ties to the lower group)");
  e_.li(9, L_.v_groups);
  for (unsigned r = 0; r < L_.group_rows; ++r) {
    e_.op("S_MAP_V_FP gp9, gp0, " + std::to_string(L_.fp_groups + r * vlen_));
    if (r + 1 < L_.group_rows) e_.addi(9, 9, vlen_);
  }
  set_topk_policy(L_.n_group, L_.topk_group);
  e_.li(9, L_.v_groups);
  e_.li(11, L_.fp_group_w);
  e_.li(12, L_.int_groups);
  e_.op("V_TOPK gp11, gp9, gp12, " + std::to_string(spec_.topk_register_policy()->rmask));
  e_.comment(std::string("penalty P[g] = -inf, +0 for the kept groups; ") +
             (src == L_.fp_biased ? "s' += P[group]" : "l' = l + P[group]") + " (masked: -inf)");
  e_.op("S_LD_FP f3, gp0, " + std::to_string(L_.fp_neg_inf));
  e_.li(4, L_.fp_penalty);
  e_.loop_start(kL1, L_.n_group);
  e_.op("S_ST_FP f3, gp4, 0");
  e_.addi(4, 4, 1);
  e_.loop_end(kL1);
  e_.li(5, L_.int_groups);
  e_.loop_start(kL1, L_.topk_group);
  e_.op("S_LD_INT gp4, gp5, 0");
  e_.op("S_ST_FP f0, gp4, " + std::to_string(L_.fp_penalty));
  e_.addi(5, 5, 1);
  e_.loop_end(kL1);
  e_.li(4, src);
  e_.li(5, L_.fp_penalty);
  e_.loop_start(kL1, L_.n_group);
  e_.op("S_LD_FP f3, gp5, 0");
  e_.loop_start(kL2, gs);
  e_.op("S_LD_FP f1, gp4, 0");
  e_.op("S_ADD_FP f1, f1, f3");
  e_.op("S_ST_FP f1, gp4, " + std::to_string(L_.fp_biased - src));
  e_.addi(4, 4, 1);
  e_.loop_end(kL2);
  e_.addi(5, 5, 1);
  e_.loop_end(kL1);
}

/// DeepSeek-V2 with norm_topk_prob false: the softmax over all E that V_TOPK wrote in rank
/// order (weights at fp_weights + t*E, ids at int_ids + t*E) scattered by expert id into
/// fp_scores. Uses f1.
void LayerBuilder::emit_scatter_scores(unsigned t) {
  e_.comment("p[id_j] = w_j: the softmax over all E by expert id");
  e_.li(5, L_.int_ids + uint64_t{t} * L_.topk_select);
  e_.li(6, L_.fp_weights + uint64_t{t} * L_.topk_select);
  e_.loop_start(kL1, L_.experts);
  e_.op("S_LD_INT gp4, gp5, 0");
  e_.op("S_LD_FP f1, gp6, 0");
  e_.op("S_ST_FP f1, gp4, " + std::to_string(L_.fp_scores));
  e_.addi(5, 5, 1);
  e_.addi(6, 6, 1);
  e_.loop_end(kL1);
}

/// Softmax route weights of token t, written over V_TOPK's weights: w_j = p[id_j] from
/// fp_scores (group-limited with norm_topk_prob false), else V_TOPK's w_j; then
/// bf16(w_j * rsf) when routed_scaling_factor != 1. Uses f1, f4.
void LayerBuilder::emit_softmax_weights(unsigned t) {
  const bool scale = opt_.model->routed_scaling_factor != 1.0;
  e_.comment(std::string("w_j = ") + (L_.fp_scores != 0 ? "p[id_j]" : "w_j") +
             (scale ? " * rsf" : ""));
  if (scale) e_.op("S_LD_FP f4, gp0, " + std::to_string(L_.fp_rsf));
  for (unsigned j = 0; j < L_.top_k; ++j) {
    const unsigned p = t * L_.top_k + j;
    if (L_.fp_scores != 0) {
      e_.op("S_LD_INT gp4, gp0, " + std::to_string(L_.id_word(p)));
      e_.op("S_LD_FP f1, gp4, " + std::to_string(L_.fp_scores));
    } else {
      e_.op("S_LD_FP f1, gp0, " + std::to_string(L_.weight_word(p)));
    }
    if (scale) e_.op("S_MUL_FP f1, f1, f4");
    e_.op("S_ST_FP f1, gp0, " + std::to_string(L_.weight_word(p)));
  }
}

/// DeepSeek-V3 route weights of token t from the UNBIASED s of the selected experts:
/// w_j = bf16(bf16(s_j * r) * rsf), r = RECI(bf16(sum_j s_j (rank order) + bf16(1e-20)))
/// (norm_topk_prob; else w_j = bf16(s_j * rsf)), written over V_TOPK's weights.
void LayerBuilder::emit_sigmoid_weights(unsigned t) {
  const ModelPreset& model = *opt_.model;
  const bool scale = model.routed_scaling_factor != 1.0;
  auto load_s = [&](unsigned j, unsigned fd) {
    e_.op("S_LD_INT gp4, gp0, " + std::to_string(L_.id_word(t * L_.top_k + j)));
    e_.op("S_LD_FP " + fr(fd) + ", gp4, " + std::to_string(L_.fp_logits));
  };
  if (model.norm_topk_prob) {
    e_.comment("w_j = s_j / (sum s + 1e-20)" + std::string(scale ? " * rsf" : "") +
               ", s unbiased, summed in rank order");
    load_s(0, 3);
    for (unsigned j = 1; j < L_.top_k; ++j) {
      load_s(j, 1);
      e_.op("S_ADD_FP f3, f3, f1");
    }
    e_.op("S_LD_FP f2, gp0, " + std::to_string(L_.fp_eps));
    e_.op("S_ADD_FP f3, f3, f2");
    e_.op("S_RECI_FP f3, f3");
  } else {
    e_.comment(std::string("w_j = s_j") + (scale ? " * rsf" : "") + ", s unbiased");
  }
  if (scale) e_.op("S_LD_FP f4, gp0, " + std::to_string(L_.fp_rsf));
  for (unsigned j = 0; j < L_.top_k; ++j) {
    load_s(j, 1);
    if (model.norm_topk_prob) e_.op("S_MUL_FP f1, f1, f3");
    if (scale) e_.op("S_MUL_FP f1, f1, f4");
    e_.op("S_ST_FP f1, gp0, " + std::to_string(L_.weight_word(t * L_.top_k + j)));
  }
}

/// Llama-4: the route weight of each selected expert is sigmoid(l_i) of its logit (written
/// over V_TOPK's weights); it scales the expert's input.
void LayerBuilder::emit_input_scores(unsigned t) {
  e_.comment("score_j = sigmoid(l_id) scales the expert input (written over V_TOPK's weights)");
  for (unsigned j = 0; j < L_.top_k; ++j) {
    e_.op("S_LD_INT gp4, gp0, " + std::to_string(L_.id_word(t * L_.top_k + j)));
    e_.op("S_LD_FP f1, gp4, " + std::to_string(L_.fp_logits));
    emit_scalar_sigmoid(1);
    e_.op("S_ST_FP f1, gp0, " + std::to_string(L_.weight_word(t * L_.top_k + j)));
  }
}

}  // namespace moesim::workload::detail
