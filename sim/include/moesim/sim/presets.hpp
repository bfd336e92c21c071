// Model presets for the MoE program builder (DESIGN.md §7): the MoE-relevant config.json
// values of real models (shared/reference/models.md §1, routing function 9 for GPT-OSS). Tests
// and the CLI scale hidden, intermediate and tokens down with explicit flags.
#pragma once

#include <stdexcept>
#include <string>
#include <vector>

namespace moesim::sim {

/// Bad command-line input, file or size: the CLI prints what() as one line and exits 2.
class UsageError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct ModelPreset {
  std::string name;           ///< --model value, e.g. "gpt-oss-20b"
  std::string hf_id;          ///< e.g. "openai/gpt-oss-20b"
  unsigned hidden = 0;        ///< hidden_size
  unsigned intermediate = 0;  ///< intermediate_size (per expert)
  unsigned experts = 0;       ///< num_local_experts (E)
  unsigned top_k = 0;         ///< num_experts_per_tok (k)
  double swiglu_limit = 0;    ///< clamp: gate <= limit, -limit <= up <= limit
  double swiglu_alpha = 0;    ///< sigmoid slope of the clamped SwiGLU
  bool router_bias = false;   ///< router Linear has a bias (l = W_r x + b_r)
  bool expert_bias = false;   ///< gate_up_proj_bias and down_proj_bias
  std::string routing;        ///< how weights come from logits
};

/// Every known preset, in a fixed order.
const std::vector<ModelPreset>& model_presets();

/// The preset named `name`. Throws UsageError "unknown --model 'x' (known: a, b)".
const ModelPreset& find_model(const std::string& name);

}  // namespace moesim::sim
