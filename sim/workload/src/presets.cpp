// Model presets (docs/sources.md, Model configurations; the tags [Sx] are its sources) and the
// config.json reader.
#include "moesim/workload/presets.hpp"

#include <cmath>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <set>

#include "moesim/workload/json_file.hpp"

namespace moesim::workload {

namespace {

ModelPreset gpt_oss(const std::string& name, unsigned experts) {
  ModelPreset p;
  p.name = name;
  p.hf_id = "openai/" + name;
  p.model_type = "gpt_oss";
  p.hidden = 2880;
  p.intermediate = 2880;
  p.experts = experts;
  p.top_k = 4;
  p.activation = Activation::clamped_swiglu;
  p.swiglu_limit = 7.0;
  p.swiglu_alpha = 1.702;
  p.router_bias = true;
  p.expert_bias = true;
  p.routing = "softmax over the top-k router logits (l = W_r x + b_r)";
  return p;
}

ModelPreset make(const std::string& name, const std::string& hf_id, const std::string& type,
                 unsigned hidden, unsigned inter, unsigned experts, unsigned k) {
  ModelPreset p;
  p.name = name;
  p.hf_id = hf_id;
  p.model_type = type;
  p.hidden = hidden;
  p.intermediate = inter;
  p.experts = experts;
  p.top_k = k;
  return p;
}

std::vector<ModelPreset> all_presets() {
  std::vector<ModelPreset> v;
  // openai/gpt-oss-20b [S1,S5]: hidden_size 2880, intermediate_size 2880, num_local_experts 32,
  // num_experts_per_tok 4, swiglu_limit 7.0; alpha 1.702, router and expert biases (HF code).
  v.push_back(gpt_oss("gpt-oss-20b", 32));
  // openai/gpt-oss-120b [S2-S5]: the same block with 128 experts.
  v.push_back(gpt_oss("gpt-oss-120b", 128));
  // Qwen/Qwen3-30B-A3B [S6,S8]: moe_intermediate_size 768, num_experts 128, top-8,
  // norm_topk_prob true; no shared expert.
  ModelPreset q3 = make("qwen3-30b-a3b", "Qwen/Qwen3-30B-A3B", "qwen3_moe", 2048, 768, 128, 8);
  q3.routing = "softmax over all E, top-k, renormalised (norm_topk_prob true)";
  v.push_back(q3);
  // Qwen/Qwen1.5-MoE-A2.7B [S9,S8]: 60 experts, top-4, moe_intermediate_size 1408,
  // norm_topk_prob false; one shared expert of 5632 gated by sigmoid(shared_expert_gate . x).
  ModelPreset q15 =
      make("qwen1.5-moe-a2.7b", "Qwen/Qwen1.5-MoE-A2.7B", "qwen2_moe", 2048, 1408, 60, 4);
  q15.norm_topk_prob = false;
  q15.shared_experts = 1;
  q15.shared_intermediate = 5632;
  q15.shared_gate = true;
  q15.routing = "softmax over all E, top-k, not renormalised (norm_topk_prob false)";
  v.push_back(q15);
  // deepseek-ai/DeepSeek-V2-Lite [S10]: 64 routed experts, top-6, 1408, scoring softmax,
  // norm_topk_prob false, rsf 1.0, greedy, n_group 1 / topk_group 1; 2 shared experts fused
  // into one MLP of 2 * 1408.
  ModelPreset v2 =
      make("deepseek-v2-lite", "deepseek-ai/DeepSeek-V2-Lite", "deepseek_v2", 2048, 1408, 64, 6);
  v2.norm_topk_prob = false;
  v2.topk_method = "greedy";
  v2.shared_experts = 2;
  v2.shared_intermediate = 2 * 1408;
  v2.routing = "softmax over all E, greedy top-k, not renormalised, times 1.0";
  v.push_back(v2);
  // deepseek-ai/DeepSeek-V3 [S11]: 7168, 2048, 256 experts, top-8, sigmoid scores + selection
  // bias (noaux_tc), 8 groups / top-4 groups, renormalised, rsf 2.5; one shared expert 2048.
  ModelPreset v3 =
      make("deepseek-v3", "deepseek-ai/DeepSeek-V3", "deepseek_v3", 7168, 2048, 256, 8);
  v3.scoring_func = "sigmoid";
  v3.topk_method = "noaux_tc";
  v3.correction_bias = true;
  v3.n_group = 8;
  v3.topk_group = 4;
  v3.routed_scaling_factor = 2.5;
  v3.shared_experts = 1;
  v3.shared_intermediate = 2048;
  v3.routing =
      "sigmoid, + e_score_correction_bias for selection, group-limited top-k (8/4), "
      "renormalised, times 2.5";
  v.push_back(v3);
  // deepseek-ai/DeepSeek-V2 (236B) [S17]: 5120, 1536, 160 routed experts, top-6, softmax,
  // group_limited_greedy with n_group 8 / topk_group 3 (group score = the group's maximum),
  // norm_topk_prob false, rsf 16.0; 2 shared experts fused into one MLP of 2 * 1536.
  ModelPreset v2f =
      make("deepseek-v2", "deepseek-ai/DeepSeek-V2", "deepseek_v2", 5120, 1536, 160, 6);
  v2f.norm_topk_prob = false;
  v2f.topk_method = "group_limited_greedy";
  v2f.n_group = 8;
  v2f.topk_group = 3;
  v2f.routed_scaling_factor = 16.0;
  v2f.shared_experts = 2;
  v2f.shared_intermediate = 2 * 1536;
  v2f.routing =
      "softmax over all E, group-limited greedy top-k (8/3, group score = max), not "
      "renormalised, times 16";
  v.push_back(v2f);
  // moonshotai/Kimi-K2-Instruct [S12]: 7168, 2048, 384 experts, top-8, DeepSeek-V3's router
  // with one group (n_group 1 / topk_group 1), renormalised, rsf 2.827; one shared expert 2048.
  ModelPreset kimi = make("kimi-k2", "moonshotai/Kimi-K2-Instruct", "kimi_k2", 7168, 2048, 384, 8);
  kimi.scoring_func = "sigmoid";
  kimi.topk_method = "noaux_tc";
  kimi.correction_bias = true;
  kimi.routed_scaling_factor = 2.827;
  kimi.shared_experts = 1;
  kimi.shared_intermediate = 2048;
  kimi.routing =
      "sigmoid, + e_score_correction_bias for selection, top-k (one group), renormalised, "
      "times 2.827";
  v.push_back(kimi);
  // deepseek-ai/DeepSeek-V4-Pro [S19]: 384 routed experts, top-6, one shared expert, sqrtsoftplus
  // scores + selection bias (no groups), renormalised, swiglu_limit 10 on routed and shared
  // experts; hidden 7168, moe_intermediate_size 3072 and rsf 2.5 from a config class's defaults,
  // not from the official config.json (docs/sources.md, Config table).
  ModelPreset v4 =
      make("deepseek-v4-pro", "deepseek-ai/DeepSeek-V4-Pro", "deepseek_v4", 7168, 3072, 384, 6);
  v4.scoring_func = "sqrtsoftplus";
  v4.topk_method = "noaux_tc";
  v4.correction_bias = true;
  v4.routed_scaling_factor = 2.5;
  v4.shared_experts = 1;
  v4.shared_intermediate = 3072;
  v4.activation = Activation::limited_swiglu;
  v4.swiglu_limit = 10.0;
  v4.routing =
      "sqrtsoftplus, + e_score_correction_bias for selection, top-k, renormalised, times 2.5";
  v.push_back(v4);
  // zai-org/GLM-5.3-Flash [S20]: Glm5NextTextConfig defaults (hidden 4096,
  // moe_intermediate_size 2048, 288 routed experts, top-8, one shared expert, rsf 2.5,
  // n_group 1 / topk_group 1, norm_topk_prob true, swiglu_limit 10); DeepSeek-V3's router.
  ModelPreset glm =
      make("glm-5.3-flash", "zai-org/GLM-5.3-Flash", "glm5_next_text", 4096, 2048, 288, 8);
  glm.scoring_func = "sigmoid";
  glm.topk_method = "noaux_tc";
  glm.correction_bias = true;
  glm.routed_scaling_factor = 2.5;
  glm.shared_experts = 1;
  glm.shared_intermediate = 2048;
  glm.activation = Activation::limited_swiglu;
  glm.swiglu_limit = 10.0;
  glm.routing =
      "sigmoid, + e_score_correction_bias for selection, top-k (one group), renormalised, "
      "times 2.5";
  v.push_back(glm);
  // allenai/OLMoE-1B-7B-0924 [S16]: 2048, intermediate_size 1024 (per expert), 64 experts,
  // top-8, softmax over all E, norm_topk_prob false; no shared expert.
  ModelPreset olmoe = make("olmoe", "allenai/OLMoE-1B-7B-0924", "olmoe", 2048, 1024, 64, 8);
  olmoe.norm_topk_prob = false;
  olmoe.routing = "softmax over all E, top-k, not renormalised (norm_topk_prob false)";
  v.push_back(olmoe);
  // Qwen/Qwen3-Next-80B-A3B-Instruct [S18]: 2048, moe_intermediate_size 512, 512 experts,
  // top-10, norm_topk_prob true; one shared expert of 512 gated by
  // sigmoid(shared_expert_gate . x) (Qwen2-MoE's block).
  ModelPreset qn =
      make("qwen3-next", "Qwen/Qwen3-Next-80B-A3B-Instruct", "qwen3_next", 2048, 512, 512, 10);
  qn.shared_experts = 1;
  qn.shared_intermediate = 512;
  qn.shared_gate = true;
  qn.routing = "softmax over all E, top-k, renormalised (norm_topk_prob true)";
  v.push_back(qn);
  // meta-llama/Llama-4-Scout-17B-16E text_config [S13]: 5120, intermediate_size 8192, 16
  // experts, top-1; the score sigmoid(l_i) scales the expert input; one shared expert 8192.
  ModelPreset l4 =
      make("llama-4-scout", "meta-llama/Llama-4-Scout-17B-16E", "llama4_text", 5120, 8192, 16, 1);
  l4.scoring_func = "sigmoid";
  l4.norm_topk_prob = false;
  l4.scores_scale_input = true;
  l4.shared_experts = 1;
  l4.shared_intermediate = 8192;
  l4.routing = "top-1, sigmoid of the selected logit scales the expert input";
  v.push_back(l4);
  // mistralai/Mixtral-8x7B-v0.1 [S14]: 4096, intermediate_size 14336, 8 experts, top-2,
  // softmax over the top-k logits.
  ModelPreset mx =
      make("mixtral-8x7b", "mistralai/Mixtral-8x7B-v0.1", "mixtral", 4096, 14336, 8, 2);
  mx.routing = "softmax over the top-k router logits";
  v.push_back(mx);
  return v;
}

// ------------------------------------------------------------------------------ config.json

/// Keys with no effect on one MoE layer's inference math (attention, embeddings, positions,
/// layer placement, training-only losses and noise, dtype, tokenizer and framework metadata).
const std::set<std::string>& no_effect_keys() {
  static const std::set<std::string> keys = {"_name_or_path",
                                             "architectures",
                                             "auto_map",
                                             "transformers_version",
                                             "model_type",
                                             "torch_dtype",
                                             "dtype",
                                             "use_cache",
                                             "tie_word_embeddings",
                                             "vocab_size",
                                             "bos_token_id",
                                             "eos_token_id",
                                             "pad_token_id",
                                             "max_position_embeddings",
                                             "max_window_layers",
                                             "sliding_window",
                                             "use_sliding_window",
                                             "layer_types",
                                             "num_hidden_layers",
                                             "num_attention_heads",
                                             "num_key_value_heads",
                                             "head_dim",
                                             "attention_bias",
                                             "attention_dropout",
                                             "attention_chunk_size",
                                             "attn_temperature_tuning",
                                             "attn_scale",
                                             "floor_scale",
                                             "no_rope_layers",
                                             "use_qk_norm",
                                             "qk_layernorm",
                                             "rope_theta",
                                             "rope_scaling",
                                             "rope_parameters",
                                             "initializer_range",
                                             "rms_norm_eps",
                                             "router_aux_loss_coef",
                                             "output_router_logits",
                                             "router_jitter_noise",
                                             "aux_loss_alpha",
                                             "seq_aux",
                                             "quantization_config",
                                             "q_lora_rank",
                                             "kv_lora_rank",
                                             "qk_nope_head_dim",
                                             "qk_rope_head_dim",
                                             "v_head_dim",
                                             "num_nextn_predict_layers",
                                             "first_k_dense_replace",
                                             "moe_layer_freq",
                                             "decoder_sparse_step",
                                             "expert_interval",
                                             "mlp_only_layers",
                                             "interleave_moe_layer_step",
                                             "moe_layers",
                                             "intermediate_size_mlp",
                                             "ep_size",
                                             "pretraining_tp",
                                             "experts_implementation",
                                             "hidden_dropout",
                                             "use_return_dict",
                                             "o_groups",
                                             "index_topk"};
  return keys;
}

/// The model_types that load with DeepSeek's keys (n_routed_experts, moe_intermediate_size, ...).
bool deepseek_style(const std::string& t) {
  return t == "deepseek_v2" || t == "deepseek_v3" || t == "deepseek_v4" || t == "kimi_k2" ||
         t == "glm4_moe" || t == "glm5_next" || t == "glm5_next_text";
}

bool mentions_moe_math(const std::string& key) {
  for (const char* w : {"expert", "moe", "rout", "topk", "top_k", "gate", "gating", "swiglu",
                        "_act", "activation", "score", "shared", "group"})
    if (key.find(w) != std::string::npos) return true;
  return false;
}

class ConfigReader {
 public:
  ConfigReader(std::string path, const nlohmann::json& j) : path_(std::move(path)), j_(j) {}

  [[noreturn]] void fail(const std::string& key, const std::string& why) const {
    throw ModelError(path_ + ": key '" + key + "': " + why);
  }
  bool has(const std::string& key) const { return j_.contains(key) && !j_[key].is_null(); }
  unsigned uint(const std::string& key) {
    used_.insert(key);
    if (!has(key)) fail(key, "missing");
    const auto& v = j_[key];
    if (!v.is_number_integer() || v.get<int64_t>() < 0 || v.get<int64_t>() > 1 << 30)
      fail(key, "not a non-negative integer: " + v.dump());
    return v.get<unsigned>();
  }
  /// A count that must be at least 1 (a size, a number of experts, k).
  unsigned count(const std::string& key) {
    const unsigned v = uint(key);
    if (v == 0) fail(key, "must be at least 1, got 0");
    return v;
  }
  unsigned uint_or(const std::string& key, unsigned dflt) {
    return has(key) ? uint(key) : (used_.insert(key), dflt);
  }
  double number_or(const std::string& key, double dflt) {
    used_.insert(key);
    if (!has(key)) return dflt;
    if (!j_[key].is_number()) fail(key, "not a number: " + j_[key].dump());
    return j_[key].get<double>();
  }
  /// A positive finite number that the layer holds as a BF16 constant (so at most BF16's
  /// largest finite value, 3.3895e38).
  double positive_or(const std::string& key, double dflt) {
    const double v = number_or(key, dflt);
    if (!(v > 0) || !std::isfinite(v) || v > 3.3895313892515355e38)
      fail(key, "must be a positive number a BF16 constant can hold (at most 3.39e38), got " +
                    j_[key].dump());
    return v;
  }
  bool boolean_or(const std::string& key, bool dflt) {
    used_.insert(key);
    if (!has(key)) return dflt;
    if (!j_[key].is_boolean()) fail(key, "not a boolean: " + j_[key].dump());
    return j_[key].get<bool>();
  }
  std::string string_or(const std::string& key, const std::string& dflt) {
    used_.insert(key);
    if (!has(key)) return dflt;
    if (!j_[key].is_string()) fail(key, "not a string: " + j_[key].dump());
    return j_[key].get<std::string>();
  }
  /// The keys neither read nor known to have no effect: an error when they mention MoE math,
  /// else listed in `ignored`.
  void check_rest(std::vector<std::string>* ignored) const {
    for (const auto& [key, value] : j_.items()) {
      if (used_.count(key) != 0 || no_effect_keys().count(key) != 0) continue;
      if (mentions_moe_math(key))
        fail(key, "unknown key that may change the MoE layer's math (value " + value.dump() +
                      "); moesim cannot honour it");
      if (ignored != nullptr) ignored->push_back(key);
    }
  }

 private:
  std::string path_;
  const nlohmann::json& j_;
  std::set<std::string> used_;
};

ModelPreset parse_config(const std::string& path, const nlohmann::json& root,
                         std::vector<std::string>* ignored) {
  if (!root.is_object()) throw ModelError(path + ": not a JSON object");
  // Llama-4 multimodal configs keep the language model under text_config.
  const nlohmann::json& j =
      root.contains("text_config") && root["text_config"].is_object() ? root["text_config"] : root;
  ConfigReader r(path, j);
  ModelPreset p;
  p.name = path;
  p.model_type = r.string_or("model_type", "");
  if (p.model_type.empty() && &j != &root && root.contains("model_type") &&
      root["model_type"].is_string())
    p.model_type = root["model_type"].get<std::string>() + "_text";
  p.hf_id = r.string_or("_name_or_path", "");
  p.hidden = r.count("hidden_size");
  const std::string act = r.string_or("hidden_act", "silu");
  if (act != "silu" && act != "swish")
    r.fail("hidden_act", "'" + act + "': moesim lowers SwiGLU experts (silu) only");
  const std::string& t = p.model_type;
  if (t == "gpt_oss") {
    p.intermediate = r.count("intermediate_size");
    p.experts = r.count("num_local_experts");
    p.top_k = r.has("num_experts_per_tok") ? r.count("num_experts_per_tok")
                                           : r.count("experts_per_token");
    r.uint_or("experts_per_token", p.top_k);
    p.activation = Activation::clamped_swiglu;
    p.swiglu_limit = r.positive_or("swiglu_limit", 7.0);
    p.swiglu_alpha = 1.702;  // hard-coded in modeling_gpt_oss.py
    p.router_bias = p.expert_bias = true;
    p.routing = "softmax over the top-k router logits (l = W_r x + b_r)";
  } else if (t == "mixtral") {
    p.intermediate = r.count("intermediate_size");
    p.experts = r.count("num_local_experts");
    p.top_k = r.count("num_experts_per_tok");
    p.routing = "softmax over the top-k router logits";
  } else if (t == "olmoe") {
    // OLMoE: intermediate_size is each expert's width (there is no dense MLP).
    p.intermediate = r.count("intermediate_size");
    p.experts = r.count("num_experts");
    p.top_k = r.count("num_experts_per_tok");
    p.norm_topk_prob = r.boolean_or("norm_topk_prob", false);  // OlmoeConfig's default
    p.routing = std::string("softmax over all E, top-k, ") +
                (p.norm_topk_prob ? "renormalised" : "not renormalised");
  } else if (t == "qwen3_moe" || t == "qwen2_moe" || t == "qwen3_next") {
    r.uint_or("intermediate_size", 0);  // dense MLP width: used by no MoE layer
    p.intermediate = r.count("moe_intermediate_size");
    p.experts = r.count("num_experts");
    p.top_k = r.count("num_experts_per_tok");
    // The config classes' defaults: false, Qwen3NextConfig's true.
    p.norm_topk_prob = r.boolean_or("norm_topk_prob", t == "qwen3_next");
    if (t != "qwen3_moe") {
      // Qwen3-Next's block is Qwen2-MoE's (a sigmoid-gated shared expert).
      p.shared_intermediate = r.uint_or("shared_expert_intermediate_size", 0);
      p.shared_experts = p.shared_intermediate != 0 ? 1 : 0;
      p.shared_gate = r.boolean_or("shared_expert_gate", true) && p.shared_experts != 0;
    }
    p.routing = std::string("softmax over all E, top-k, ") +
                (p.norm_topk_prob ? "renormalised" : "not renormalised");
  } else if (deepseek_style(t)) {
    // Kimi-K2, GLM-4.5 and GLM-5.3-Flash run DeepSeek-V3's router (docs/sources.md, Routing
    // functions): sigmoid scores and e_score_correction_bias whether or not the file names
    // scoring_func / topk_method. DeepSeek-V4's router scores with sqrtsoftplus (its config
    // class's default) and always adds the bias; GLM-5.3-Flash and DeepSeek-V4 clamp their
    // SwiGLU at swiglu_limit, 10.0 unless the file says otherwise.
    const bool v3 = t != "deepseek_v2", v4 = t == "deepseek_v4";
    // The config classes of DeepSeek-V4 and GLM-5.3-Flash default to norm_topk_prob true and
    // swiglu_limit 10.0.
    const bool v4_defaults = v4 || t == "glm5_next" || t == "glm5_next_text";
    r.uint_or("intermediate_size", 0);  // dense layers' width
    p.intermediate = r.count("moe_intermediate_size");
    p.experts = r.count("n_routed_experts");
    p.top_k = r.count("num_experts_per_tok");
    p.shared_experts = r.uint_or("n_shared_experts", 0);
    p.shared_intermediate = p.intermediate * p.shared_experts;
    p.scoring_func = r.string_or("scoring_func", v4 ? "sqrtsoftplus" : v3 ? "sigmoid" : "softmax");
    p.norm_topk_prob = r.boolean_or("norm_topk_prob", v4_defaults);
    p.routed_scaling_factor = r.positive_or("routed_scaling_factor", v4 ? 1.5 : 1.0);
    p.n_group = r.uint_or("n_group", 1);
    p.topk_group = r.uint_or("topk_group", 1);
    p.topk_method = r.string_or("topk_method", v3 ? "noaux_tc" : "greedy");
    p.correction_bias = p.topk_method == "noaux_tc";
    p.routing = p.scoring_func + " scores, " + p.topk_method + " top-k";
    // DeepSeek-V4's clamp (docs/sources.md, Clamped SwiGLU): honoured wherever a DeepSeek-style
    // config carries the key.
    if (r.has("swiglu_limit") || v4_defaults) {
      p.activation = Activation::limited_swiglu;
      p.swiglu_limit = r.positive_or("swiglu_limit", 10.0);
    }
  } else if (t == "llama4_text" || t == "llama4") {
    p.intermediate = r.count("intermediate_size");
    p.experts = r.count("num_local_experts");
    p.top_k = r.count("num_experts_per_tok");
    p.scoring_func = "sigmoid";  // hard-coded in Llama4Router
    p.norm_topk_prob = false;
    p.scores_scale_input = true;
    p.shared_experts = 1;  // Llama4TextMoe always has a shared expert of intermediate_size
    p.shared_intermediate = p.intermediate;
    p.routing = "top-1, sigmoid of the selected logit scales the expert input";
  } else {
    r.fail("model_type", "'" + t +
                             "' is not one of gpt_oss, mixtral, olmoe, qwen2_moe, qwen3_moe, "
                             "qwen3_next, deepseek_v2, deepseek_v3, deepseek_v4, kimi_k2, "
                             "glm4_moe, glm5_next, llama4_text");
  }
  r.check_rest(ignored);
  if (&j != &root) {
    for (const auto& [key, value] : root.items())
      if (key != "text_config" && mentions_moe_math(key) && no_effect_keys().count(key) == 0)
        throw ModelError(path + ": key '" + key +
                         "': unknown key that may change the MoE layer's math (value " +
                         value.dump() + "); moesim cannot honour it");
  }
  if (p.hf_id.empty()) p.hf_id = p.model_type;
  return p;
}

}  // namespace

const char* activation_name(Activation a) {
  switch (a) {
    case Activation::clamped_swiglu:
      return "clamped_swiglu";
    case Activation::limited_swiglu:
      return "limited_swiglu";
    case Activation::swiglu:
      break;
  }
  return "swiglu";
}

Activation shared_activation(const ModelPreset& m) {
  return m.activation == Activation::limited_swiglu ? Activation::limited_swiglu
                                                    : Activation::swiglu;
}

std::string experts_key(const ModelPreset& m) {
  const std::string& t = m.model_type;
  if (deepseek_style(t)) return "n_routed_experts";
  if (t == "qwen2_moe" || t == "qwen3_moe" || t == "qwen3_next" || t == "olmoe")
    return "num_experts";
  return "num_local_experts";
}

const std::vector<ModelPreset>& model_presets() {
  static const std::vector<ModelPreset> presets = all_presets();
  return presets;
}

const ModelPreset& find_model(const std::string& name) {
  std::string known;
  for (const auto& p : model_presets()) {
    if (p.name == name) return p;
    known += (known.empty() ? "" : ", ") + p.name;
  }
  throw ModelError(name + ": not a model preset (known: " + known +
                   "; or a path to a config.json)");
}

ModelPreset load_model_config(const std::string& path, std::vector<std::string>* ignored) {
  nlohmann::json j;
  try {
    j = read_json_file(path, path);
  } catch (const ModelError&) {
    throw;
  } catch (const UsageError& e) {
    throw ModelError(e.what());  // unreadable, not JSON, a key twice: named by the path
  }
  return parse_config(path, j, ignored);
}

ModelPreset resolve_model(const std::string& arg, std::vector<std::string>* ignored) {
  const bool is_file = arg.size() > 5 && arg.compare(arg.size() - 5, 5, ".json") == 0;
  std::error_code ec;
  if (is_file || std::filesystem::is_regular_file(arg, ec)) return load_model_config(arg, ignored);
  return find_model(arg);
}

}  // namespace moesim::workload
