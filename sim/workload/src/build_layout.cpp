// MoE program builder: checks the options against the machine and lays out memory (Layout).
#include <cmath>
#include <numeric>
#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>

#include "layer_builder.hpp"
#include "moesim/isa/numerics.hpp"

namespace moesim::workload::detail {

std::string LayerBuilder::tokens_source() const {
  if (!opt_.recorded.empty())
    return "--route-trace (" + std::to_string(opt_.recorded.size()) + " recorded tokens)";
  if (!opt_.inputs.empty()) return "--inputs (" + std::to_string(opt_.tokens) + " tokens)";
  return "--tokens " + std::to_string(opt_.tokens);
}

void LayerBuilder::too_small(const std::string& what, uint64_t need, const std::string& key,
                             uint64_t have) const {
  const std::string sizes =
      opt_.weights != nullptr  // a checkpoint's layer: its sizes are not flags
          ? ", the checkpoint's hidden " + std::to_string(opt_.hidden) + " and intermediate " +
                std::to_string(opt_.intermediate)
          : " --hidden " + std::to_string(opt_.hidden) + " --intermediate " +
                std::to_string(opt_.intermediate);
  throw UsageError(tokens_source() + sizes + ": the layer needs " + std::to_string(need) + " " +
                   what + "; machine preset '" + m_.name + "' has " + key + "=" +
                   std::to_string(have));
}

void LayerBuilder::validate_and_lay_out() {
  const ModelPreset& model = *opt_.model;
  check_routing(model);
  check_recorded();
  if (opt_.shared && model.shared_experts == 0)
    throw UsageError("--shared: model " + model.name + " has no shared expert");
  if (mlen_ != vlen_)
    throw UsageError("--machine " + m_.name + ": MLEN != VLEN (machine.yaml requires equal)");
  if (static_cast<uint64_t>(m_.get("HBM_M_ROWS")) != mlen_)
    throw UsageError("--machine " + m_.name +
                     ": the builder needs HBM_M_ROWS = MLEN (one H_PREFETCH_M per tile)");
  if (vlen_ % mxb_ != 0 || mlen_ % blen_ != 0)
    throw UsageError("--machine " + m_.name + ": VLEN must be a multiple of MX_BLOCK and BLEN");
  if (opt_.tokens == 0) throw UsageError("--tokens must be at least 1");
  if (opt_.rank) {
    // Deployment rank programs (docs/deployments.md): pair-major, the model's router, fused
    // shared experts as columns (never --shared).
    if (opt_.lowering != Lowering::pair)
      throw UsageError("--lowering expert: a deployment's rank programs are pair-major");
    if (!opt_.recorded.empty())
      throw UsageError("--route-trace: not with a deployment's rank programs");
    if (opt_.shared)
      throw std::invalid_argument("build_moe_layer: a rank program has fused shared columns");
    if (opt_.rank->modulus == 0 || opt_.rank->own_token.size() != opt_.tokens)
      throw std::invalid_argument("build_moe_layer: rank program tables do not fit the layer");
  }
  auto check_dim = [&](const char* flag, unsigned v) {
    if (v == 0 || v % vlen_ != 0)
      throw UsageError(std::string(flag) + " " + std::to_string(v) +
                       " is not a positive multiple of VLEN (" + std::to_string(vlen_) +
                       ", machine preset '" + m_.name + "')");
  };
  check_dim("--hidden", opt_.hidden);
  check_dim("--intermediate", opt_.intermediate);
  if (opt_.shared) {
    L_.shared_gate = model.shared_gate;
    L_.shared_intermediate = opt_.shared_intermediate;
    if (L_.shared_intermediate == 0) {
      const uint64_t scaled = uint64_t{model.shared_intermediate} * opt_.intermediate;
      if (model.intermediate == 0 || scaled % model.intermediate != 0)
        throw UsageError("--intermediate " + std::to_string(opt_.intermediate) + ": " + model.name +
                         "'s shared width " + std::to_string(model.shared_intermediate) +
                         " does not scale to it; "
                         "give --shared-intermediate");
      L_.shared_intermediate = static_cast<unsigned>(scaled / model.intermediate);
    }
    check_dim("--shared-intermediate", L_.shared_intermediate);
  }

  L_.lowering = opt_.lowering;
  L_.tokens = opt_.tokens;
  L_.tokens_padded = static_cast<unsigned>(round_up(opt_.tokens, std::lcm(vrows_, blen_)));
  L_.hidden = opt_.hidden;
  L_.intermediate = opt_.intermediate;
  L_.experts = model.experts;
  L_.top_k = model.top_k;
  L_.pairs = L_.tokens * L_.top_k;
  L_.expert_slots = L_.experts;
  if (opt_.rank) {
    L_.columns = L_.top_k + opt_.rank->shared;
    L_.pairs = L_.tokens * L_.columns;
    L_.expert_slots = opt_.rank->local_routed + opt_.rank->shared + 1;  // + the zero sentinel
    L_.mask_modulus = opt_.rank->modulus;
  }
  using Routing = Layout::Routing;
  L_.routing = model.scores_scale_input          ? Routing::input_scaled
               : model.scoring_func == "sigmoid" ? Routing::sigmoid_biased
                                                 : Routing::softmax;
  // Only softmax routing without renormalisation needs V_TOPK's weights over all E.
  L_.topk_select = L_.routing == Routing::softmax && !model.norm_topk_prob ? L_.experts : L_.top_k;
  if (L_.routing != Routing::input_scaled) {
    L_.n_group = model.n_group;
    L_.topk_group = model.topk_group;
    if (L_.group_limited()) L_.group_rows = static_cast<unsigned>(ceil_div(L_.n_group, vlen_));
  }
  L_.logit_rows = static_cast<unsigned>(ceil_div(L_.experts, vlen_));
  // V_TOPK rmask: a hardwired policy of isa.yaml `topk_policies` when one has exactly this
  // (E, k) and the encoding is automatic, else the register policy (TOPK_POLICY, set by
  // C_SET_TOPK_REG).
  const isa::TopkPolicySpec* hw = spec_.topk_hardwired(L_.experts, L_.topk_select);
  if (hw != nullptr && opt_.topk == TopkEncoding::automatic) {
    L_.topk_rmask = hw->rmask;
  } else {
    const auto max_e = static_cast<uint64_t>(m_.get("MAX_TOPK_EXPERTS"));
    const isa::TopkPolicySpec* reg = spec_.topk_register_policy();
    if (reg == nullptr) throw std::logic_error("isa.yaml has no register V_TOPK policy");
    const std::string cannot = model.name + ": " + experts_key(model) + " " +
                               std::to_string(L_.experts) + ": V_TOPK cannot select " +
                               std::to_string(L_.topk_select) + " of " +
                               std::to_string(L_.experts) + " experts";
    if (L_.experts > max_e)
      throw ModelError(cannot + " (more than MAX_TOPK_EXPERTS=" + std::to_string(max_e) +
                       " of machine preset '" + m_.name + "')");
    if (L_.topk_select > 255)
      throw ModelError(cannot +
                       " (norm_topk_prob false takes the softmax over all E from V_TOPK; " +
                       "the policy register holds k <= 255)");
    L_.topk_rmask = reg->rmask;
  }

  const uint64_t H = L_.hidden, I = L_.intermediate, E = L_.experts;
  const uint64_t IS = L_.shared_intermediate;
  const uint64_t hb = H / vlen_, ib = I / vlen_, isb = IS / vlen_;
  // Each projection holds all K/MLEN tiles of one output tile in MRAM at once.
  const auto mram_tiles = static_cast<uint64_t>(m_.get("MRAM_TILES"));
  for (const auto& [flag, k] : {std::pair<const char*, uint64_t>{"--hidden", H},
                                {"--intermediate", I},
                                {"--shared-intermediate", IS}})
    if (k / mlen_ > mram_tiles)
      throw UsageError(std::string(flag) + " " + std::to_string(k) +
                       ": a projection with K = " + std::to_string(k) + " needs " +
                       std::to_string(k / mlen_) + " MRAM tiles (one per " + std::to_string(mlen_) +
                       "-wide K chunk); machine preset '" + m_.name +
                       "' has MRAM_TILES=" + std::to_string(mram_tiles) +
                       " (K <= " + std::to_string(mram_tiles * mlen_) + ")");

  // HBM: inputs first (the initial image), then the output.
  uint64_t cursor = 0;
  auto mx = [&](uint64_t rows, uint64_t cols) {
    MxMatrix mm;
    mm.base = cursor;
    mm.rows = rows;
    mm.cols = cols;
    mm.scale_offset = rows * cols;
    mm.bytes = rows * cols + rows * cols / mxb_;
    cursor = round_up(cursor + mm.bytes, kHbmAlign);
    return mm;
  };
  L_.x = mx(L_.tokens_padded, H);
  L_.wr = mx(round_up(E, vrows_), H);
  if (model.router_bias) L_.br = mx(round_up(L_.logit_rows, vrows_), vlen_);
  if (model.expert_bias) {
    L_.b1 = mx(round_up(uint64_t{L_.expert_slots} * 2 * ib, vrows_), vlen_);
    L_.b2 = mx(round_up(uint64_t{L_.expert_slots} * hb, vrows_), vlen_);
  }
  if (IS != 0) {
    L_.ws1 = mx(2 * IS, H);
    L_.ws2 = mx(H, IS);
    if (L_.shared_gate) L_.wg = mx(vrows_, H);
  }
  L_.w1_expert_bytes = round_up(2 * I * H + 2 * I * H / mxb_, kHbmAlign);
  L_.w1 = cursor;
  cursor += L_.expert_slots * L_.w1_expert_bytes;
  L_.w2_expert_bytes = round_up(H * I + H * I / mxb_, kHbmAlign);
  L_.w2 = cursor;
  cursor += L_.expert_slots * L_.w2_expert_bytes;
  L_.hbm_input_end = cursor;
  L_.y = mx(L_.tokens_padded, H);
  const auto hbm_bytes = static_cast<uint64_t>(m_.get("HBM_BYTES"));
  if (cursor > hbm_bytes || cursor >= (uint64_t{1} << 32))
    too_small("HBM bytes", cursor, "HBM_BYTES", hbm_bytes);

  // VRAM rows.
  uint64_t row = 0;
  auto rows = [&](uint64_t n) {
    const uint64_t at = row * vlen_;
    row += n;
    return at;
  };
  L_.v_x = rows(L_.tokens_padded * hb);
  L_.v_wr = rows(L_.wr.rows * hb);
  L_.v_br = rows(L_.br.rows);
  L_.v_b1 = rows(L_.b1.rows);
  L_.v_b2 = rows(L_.b2.rows);
  L_.v_logits = rows(uint64_t{L_.tokens} * L_.logit_rows);
  L_.v_tmp = rows(1);
  L_.v_groups = L_.group_rows != 0 ? rows(L_.group_rows) : 0;
  if (L_.lowering == Lowering::pair) {
    L_.v_in = rows(blen_ * hb);
    L_.v_h1 = rows(blen_ * 2 * ib);
    L_.v_act = rows(blen_ * ib);
    L_.v_out = rows(blen_ * hb);
  } else {
    L_.v_eh1 = rows(uint64_t{L_.tokens_padded} * 2 * ib);
    L_.v_eact = rows(uint64_t{L_.tokens_padded} * ib);
    L_.v_eout = rows(uint64_t{L_.tokens_padded} * hb);
    if (L_.routing == Layout::Routing::input_scaled)
      L_.v_ein = rows(uint64_t{L_.tokens_padded} * hb);
  }
  L_.v_acc = rows(L_.tokens_padded * hb);
  if (IS != 0) {
    L_.v_wg = rows(L_.wg.rows * hb);
    L_.v_zero = rows(1);
    L_.v_gate = rows(1);
    L_.v_sh1 = rows(uint64_t{L_.tokens_padded} * 2 * isb);
    L_.v_shact = rows(uint64_t{L_.tokens_padded} * isb);
    L_.v_shout = rows(uint64_t{L_.tokens_padded} * hb);
  }
  L_.vram_rows_used = row;
  const auto vram_rows = static_cast<uint64_t>(m_.get("VRAM_ROWS"));
  if (row > vram_rows) too_small("VRAM rows", row, "VRAM_ROWS", vram_rows);

  // FP SRAM words.
  L_.fp_zero = 0;
  L_.fp_limit = vlen_;
  L_.fp_neg_limit = vlen_ + 1;
  L_.fp_neg_alpha = vlen_ + 2;
  L_.fp_one = vlen_ + 3;
  L_.fp_neg_one = vlen_ + 4;
  L_.fp_logits = vlen_ + 5;
  L_.fp_weights = L_.fp_logits + uint64_t{L_.logit_rows} * vlen_;
  L_.fp_words_used = L_.fp_weights + uint64_t{L_.tokens} * L_.topk_select;
  if (L_.lowering == Lowering::expert) {
    L_.fp_dense = L_.fp_words_used;
    L_.fp_words_used += uint64_t{L_.tokens} * E;
  }
  auto words = [&](uint64_t n) {
    const uint64_t at = L_.fp_words_used;
    L_.fp_words_used += n;
    return at;
  };
  if (L_.routing == Layout::Routing::softmax &&
      (L_.group_limited() || model.routed_scaling_factor != 1.0)) {
    L_.fp_rsf = words(1);
    if (L_.group_limited()) {
      L_.fp_neg_inf = words(1);
      L_.fp_biased = words(uint64_t{L_.logit_rows} * vlen_);  // the masked logits
      L_.fp_groups = words(uint64_t{L_.group_rows} * vlen_);
      L_.fp_penalty = words(L_.n_group);
      L_.fp_group_w = words(L_.topk_group);
      if (L_.topk_select != L_.top_k) L_.fp_scores = words(E);
    }
  }
  if (L_.routing == Layout::Routing::sigmoid_biased) {
    L_.fp_neg_inf = words(1);
    L_.fp_eps = words(1);
    L_.fp_rsf = words(1);
    L_.fp_bias = words(E);
    L_.fp_biased = words(uint64_t{L_.logit_rows} * vlen_);  // S_MAP_V_FP reads whole rows
    if (L_.group_limited()) {
      L_.fp_groups = words(uint64_t{L_.group_rows} * vlen_);
      L_.fp_penalty = words(L_.n_group);
      L_.fp_group_w = words(L_.topk_group);
    }
  }
  if (!opt_.recorded.empty()) {
    L_.fp_recorded = L_.fp_words_used;
    L_.fp_words_used += uint64_t{L_.tokens} * L_.top_k;
  }
  if (opt_.rank) {
    L_.fp_pair_weights = L_.fp_words_used;
    L_.fp_keep = L_.fp_pair_weights + L_.pairs;
    L_.fp_words_used = L_.fp_keep + uint64_t{L_.mask_modulus} * E;
  }
  const auto fp_words = static_cast<uint64_t>(m_.get("FP_SRAM_WORDS"));
  if (L_.fp_words_used > fp_words)
    too_small("FP SRAM words", L_.fp_words_used, "FP_SRAM_WORDS", fp_words);

  // INT SRAM words.
  L_.int_ids = 0;
  L_.int_tokens = uint64_t{L_.tokens} * L_.topk_select;
  L_.int_words_used = L_.int_tokens + L_.pairs;
  if (L_.group_limited()) {
    L_.int_groups = L_.int_words_used;
    L_.int_words_used += L_.topk_group;
  }
  if (opt_.rank) {
    L_.int_pair_ids = L_.int_words_used;
    L_.int_local_of = L_.int_pair_ids + L_.pairs;
    L_.int_words_used = L_.int_local_of + uint64_t{L_.mask_modulus} * E;
  }
  const auto int_words = static_cast<uint64_t>(m_.get("INT_SRAM_WORDS"));
  if (L_.int_words_used > int_words)
    too_small("INT SRAM words", L_.int_words_used, "INT_SRAM_WORDS", int_words);

  L_.alpha_bf16 = num::f32_to_bf16(static_cast<float>(
      model.activation == Activation::clamped_swiglu ? model.swiglu_alpha : 1.0));
}

/// Recorded routing (BuildOptions::recorded) fits the layer: one route per token, k distinct
/// ids < E each with a logit > +0, strictly decreasing along the ranks, and a softmax router
/// with norm_topk_prob and no bias, whose V_TOPK weights are the replayed ones.
void LayerBuilder::check_recorded() const {
  const auto& rec = opt_.recorded;
  if (rec.empty()) return;
  const ModelPreset& m = *opt_.model;
  if (m.scoring_func != "softmax" || !m.norm_topk_prob || m.router_bias || m.scores_scale_input ||
      m.correction_bias || m.routed_scaling_factor != 1.0)
    throw UsageError("--route-trace: model " + m.name +
                     ": recorded routing needs a softmax router with norm_topk_prob true, no "
                     "router bias and routed_scaling_factor 1");
  if (rec.size() != opt_.tokens)
    throw UsageError("--route-trace: " + std::to_string(rec.size()) +
                     " recorded tokens for --tokens " + std::to_string(opt_.tokens));
  for (size_t t = 0; t < rec.size(); ++t) {
    const std::string at = "--route-trace: token " + std::to_string(t) + " of the layer: ";
    if (rec[t].ids.size() != m.top_k || rec[t].logits_bf16.size() != m.top_k)
      throw UsageError(at + "'ids': not " + std::to_string(m.top_k) + " experts");
    for (size_t j = 0; j < m.top_k; ++j) {
      if (rec[t].ids[j] >= m.experts)
        throw UsageError(at + "'ids': expert " + std::to_string(rec[t].ids[j]) +
                         " >= E = " + std::to_string(m.experts));
      for (size_t i = 0; i < j; ++i)
        if (rec[t].ids[i] == rec[t].ids[j])
          throw UsageError(at + "'ids': expert " + std::to_string(rec[t].ids[j]) + " twice");
      const uint16_t b = rec[t].logits_bf16[j];
      if (b == 0 || b >= 0x7F80 || (j > 0 && b >= rec[t].logits_bf16[j - 1]))
        throw UsageError(at + "logits: not finite, > +0 and strictly decreasing");
    }
  }
}

/// Routing the builder lowers (see builder.hpp); anything else names its config.json field.
void LayerBuilder::check_routing(const ModelPreset& m) {
  auto refuse = [&](const std::string& field, const std::string& why) {
    throw ModelError(m.name + ": " + field + " (" + m.routing + "): " + why);
  };
  auto number = [](double v) {
    std::ostringstream o;
    o << v;
    return o.str();
  };
  check_model_top_k(m);
  if (m.scoring_func != "softmax" && m.scoring_func != "sigmoid")
    refuse("scoring_func '" + m.scoring_func + "'", "moesim lowers softmax and sigmoid scores");
  const bool grouped = m.n_group > 1 && m.topk_group < m.n_group;
  if (m.scores_scale_input) {
    // Llama-4: sigmoid of the selected logits, no bias, no groups, no scaling factor.
    if (m.scoring_func != "sigmoid")
      refuse("scoring_func '" + m.scoring_func + "'",
             "a router whose score scales the expert input uses sigmoid scores");
    if (m.correction_bias || grouped || m.routed_scaling_factor != 1.0)
      refuse("model_type '" + m.model_type + "' router",
             "an input-scaling router with a correction bias, groups or a scaling factor is "
             "not implemented");
    return;
  }
  if (!(m.routed_scaling_factor > 0) || !std::isfinite(m.routed_scaling_factor))
    refuse("routed_scaling_factor " + number(m.routed_scaling_factor),
           "must be a positive finite number");
  if (m.scoring_func == "softmax") {
    if (m.correction_bias)
      refuse("e_score_correction_bias (topk_method '" + m.topk_method + "')",
             "selection by biased scores is implemented for scoring_func 'sigmoid' only");
    // DeepSeek-V2's group_limited_greedy: group score = the group's largest softmax score.
    if (grouped && m.topk_method != "group_limited_greedy")
      refuse("n_group " + std::to_string(m.n_group) + " / topk_group " +
                 std::to_string(m.topk_group) + " (topk_method '" + m.topk_method + "')",
             "softmax scores are grouped with topk_method 'group_limited_greedy' only");
    if (grouped && m.router_bias)
      refuse("n_group " + std::to_string(m.n_group),
             "group-limited selection with a router bias is not implemented");
    if (!grouped) return;
  } else if (!m.correction_bias) {
    // Sigmoid scores: DeepSeek-V3's noaux_tc (Kimi-K2, GLM-4.5: the same with one group).
    refuse("topk_method '" + m.topk_method + "'",
           "sigmoid scores are lowered with topk_method 'noaux_tc' (e_score_correction_bias) "
           "only");
  }
  if (m.n_group == 0 || m.experts % m.n_group != 0)
    refuse("n_group " + std::to_string(m.n_group),
           "does not divide the " + std::to_string(m.experts) + " routed experts");
  if (m.topk_group == 0 || m.topk_group > m.n_group)
    refuse("topk_group " + std::to_string(m.topk_group),
           "is not in 1..n_group (" + std::to_string(m.n_group) + ")");
  if (grouped && m.scoring_func == "sigmoid" && m.experts / m.n_group < 2)
    refuse("n_group " + std::to_string(m.n_group),
           "a group score sums the top-2 scores of a group, which needs 2 experts per group");
  if (uint64_t{m.topk_group} * (m.experts / m.n_group) < m.top_k)
    refuse("topk_group " + std::to_string(m.topk_group),
           "the kept groups hold fewer than num_experts_per_tok (" + std::to_string(m.top_k) +
               ") experts");
}

}  // namespace moesim::workload::detail
