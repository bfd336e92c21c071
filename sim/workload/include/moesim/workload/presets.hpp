// Model presets for the MoE program builder (docs/workloads.md): the MoE-relevant config.json
// values of real models (docs/sources.md, Model configurations). Tests and the CLI
// scale hidden, intermediate and tokens down with explicit flags. A preset records the model's
// math as it is, including routing functions the builder cannot lower: build_moe_layer rejects
// those with a UsageError naming the config.json field and value, never lowering them as
// something else.
#pragma once

#include <stdexcept>
#include <string>
#include <vector>

#include "moesim/isa/usage_error.hpp"

namespace moesim::workload {

/// Bad input about a model (a preset name or a config.json): its message starts with the name or
/// path ("gpt-5: not a model preset ...", "c.json: key 'top_k': ..."), not with the flag or key
/// that named it, which the reader adds: `moesim` prints "--model " before it, a campaign spec
/// or deployments file its FILE:LINE:COL and key.
class ModelError : public UsageError {
 public:
  using UsageError::UsageError;
};

/// The expert MLP's activation: e(x) = W2 h + b2 with [g, u] = W1 x + b1 and
///   swiglu:         h = silu(g) * u = g * sigmoid(g) * u
///   clamped_swiglu: g = min(g, limit); u = clamp(u, -limit, limit);
///                   h = (u + 1) * (g * sigmoid(alpha * g))            (GPT-OSS)
///   limited_swiglu: g = min(g, limit); u = clamp(u, -limit, limit);
///                   h = silu(g) * u    (DeepSeek-V4, GLM-5.3-Flash: no alpha, no + 1)
enum class Activation { swiglu, clamped_swiglu, limited_swiglu };

/// "swiglu", "clamped_swiglu" or "limited_swiglu" (reports).
const char* activation_name(Activation a);

struct ModelPreset {
  std::string name;           ///< --model value, e.g. "gpt-oss-20b" (or the config.json path)
  std::string hf_id;          ///< e.g. "openai/gpt-oss-20b"
  std::string model_type;     ///< config.json model_type, e.g. "gpt_oss", "qwen2_moe"
  unsigned hidden = 0;        ///< hidden_size
  unsigned intermediate = 0;  ///< per routed expert (intermediate_size / moe_intermediate_size)
  unsigned experts = 0;  ///< routed experts E (num_local_experts / num_experts / n_routed_experts)
  unsigned top_k = 0;    ///< num_experts_per_tok (k)
  Activation activation = Activation::swiglu;
  double swiglu_limit = 0;    ///< clamped / limited: gate <= limit, -limit <= up <= limit
  double swiglu_alpha = 1.0;  ///< clamped_swiglu only: sigmoid slope
  bool router_bias = false;   ///< router Linear has a bias (l = W_r x + b_r)
  bool expert_bias = false;   ///< gate_up_proj_bias and down_proj_bias

  // Routing (docs/sources.md, Routing functions; docs/workloads.md lists what build_moe_layer
  // refuses). Lowerable: scoring_func "softmax" with no correction bias, norm_topk_prob true
  // (softmax over the k selected logits, = V_TOPK) or false (the full softmax over E, taken from
  // V_TOPK with k = E; needs E <= 255), times routed_scaling_factor, optionally group-limited
  // (DeepSeek-V2's group_limited_greedy: group score = the group's largest score); scoring_func
  // "sigmoid" with
  // the correction bias (DeepSeek-V3 noaux_tc: groups, renormalisation, scaling factor); and
  // scores_scale_input (Llama-4: sigmoid of the selected logits scales the expert input).
  std::string scoring_func = "softmax";  ///< "softmax" or "sigmoid" (DeepSeek-V3, Llama-4)
  bool norm_topk_prob = true;            ///< renormalise the k selected probabilities
  double routed_scaling_factor = 1.0;    ///< weights *= rsf (DeepSeek)
  unsigned n_group = 1, topk_group = 1;  ///< DeepSeek group-limited selection (1/1: off)
  std::string topk_method;          ///< DeepSeek: "greedy", "group_limited_greedy" or "noaux_tc"
  bool correction_bias = false;     ///< e_score_correction_bias used for selection (V3)
  bool scores_scale_input = false;  ///< Llama-4: sigmoid(l_i) scales the expert INPUT

  // Shared experts (docs/sources.md, Config table): n_shared MLPs fused into one SwiGLU MLP of
  // width shared_intermediate, added to the routed output unweighted, or times sigmoid(w_g . x)
  // when shared_gate (Qwen2-MoE).
  unsigned shared_experts = 0;       ///< n_shared_experts (0: none)
  unsigned shared_intermediate = 0;  ///< fused width (moe_intermediate_size * n_shared, ...)
  bool shared_gate = false;          ///< Qwen2-MoE shared_expert_gate (Linear hidden -> 1)

  std::string routing;  ///< one-line description of the routing function (reports)
};

/// The activation of the model's shared expert: limited_swiglu when the routed experts have it
/// (DeepSeek-V4's and GLM-5.3-Flash's shared MLP clamps as their experts do), else swiglu.
Activation shared_activation(const ModelPreset& m);

/// The config.json key that holds the model's routed experts E, as its model_type spells it:
/// "n_routed_experts" (DeepSeek, Kimi-K2, GLM-4.5), "num_experts" (Qwen, OLMoE) or
/// "num_local_experts" (GPT-OSS, Mixtral, Llama-4). Refusals about E name it.
std::string experts_key(const ModelPreset& m);

/// Every known preset, in a fixed order.
const std::vector<ModelPreset>& model_presets();

/// The preset named `name`. Throws ModelError "x: not a model preset (known: a, b; ...)".
const ModelPreset& find_model(const std::string& name);

/// A Hugging Face config.json (docs/sources.md, Config table; docs/workloads.md lists the keys).
/// Keys that set the MoE layer's math are read (a value of the wrong type is an error naming file
/// and key); keys known to have no effect on one MoE layer's inference (attention, vocabulary,
/// rope, layer counts, dtype, router_aux_loss_coef, output_router_logits, ...) are accepted; an
/// unknown key whose name mentions experts, routing, gating, MoE or activation is an error (it may
/// change the math); other unknown keys are accepted and listed in `ignored`. Throws ModelError
/// naming the file for unreadable files, bad JSON and unknown model_type.
ModelPreset load_model_config(const std::string& path, std::vector<std::string>* ignored = nullptr);

/// --model: a preset name, or a path to a config.json (anything ending in ".json" or naming an
/// existing file). Every refusal is a ModelError.
ModelPreset resolve_model(const std::string& arg, std::vector<std::string>* ignored = nullptr);

}  // namespace moesim::workload
