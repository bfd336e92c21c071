// Model presets: values from the models' config.json (shared/reference/models.md §1 [S1,S5]).
#include "moesim/sim/presets.hpp"

namespace moesim::sim {

const std::vector<ModelPreset>& model_presets() {
  static const std::vector<ModelPreset> presets = {
      // openai/gpt-oss-20b config.json: hidden_size 2880, intermediate_size 2880,
      // num_local_experts 32, num_experts_per_tok 4, swiglu_limit 7.0; modeling_gpt_oss.py:
      // alpha 1.702, router bias, gate_up_proj_bias / down_proj_bias.
      {"gpt-oss-20b", "openai/gpt-oss-20b", 2880, 2880, 32, 4, 7.0, 1.702, true, true,
       "softmax over the top-k router logits (l = W_r x + b_r)"},
      // openai/gpt-oss-120b: same block with 128 experts (V_TOPK policy via C_SET_TOPK_REG).
      {"gpt-oss-120b", "openai/gpt-oss-120b", 2880, 2880, 128, 4, 7.0, 1.702, true, true,
       "softmax over the top-k router logits (l = W_r x + b_r)"},
  };
  return presets;
}

const ModelPreset& find_model(const std::string& name) {
  std::string known;
  for (const auto& p : model_presets()) {
    if (p.name == name) return p;
    known += (known.empty() ? "" : ", ") + p.name;
  }
  throw UsageError("unknown --model '" + name + "' (known: " + known + ")");
}

}  // namespace moesim::sim
