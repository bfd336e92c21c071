// One MoE layer of a Hugging Face checkpoint directory (docs/checkpoints-hf.md): its config.json
// as --model reads one, and the router and routed experts of layer N from the safetensors files
// (safetensors.hpp) under the tensor names of the model_type, as BuildOptions::weights. Only the
// tensors of that layer are read, and only the shards that hold them are opened.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "moesim/isa/spec.hpp"
#include "moesim/isa/usage_error.hpp"
#include "moesim/workload/builder.hpp"
#include "moesim/workload/presets.hpp"

namespace moesim::workload {

/// A value of a tensor that BF16 cannot hold (infinite or NaN): thrown when the builder reads the
/// tensor, and reported as it is, apart from the sizes the machine preset cannot hold.
class TensorValueError : public UsageError {
 public:
  using UsageError::UsageError;
};

struct HfLayer {
  ModelPreset model;                      ///< DIR/config.json (name: its path)
  std::unique_ptr<LayerWeights> weights;  ///< the layer's router and routed experts
  std::vector<std::string> files;         ///< the safetensors files opened
  std::string note;                       ///< for the run's notes: what was read from where
  /// The layer's tensors and their shapes, for a refusal of sizes the machine cannot hold:
  /// "model.layers.0.mlp.gate.weight [8, 64], the experts' gate and up [64, 64], down [64, 64]".
  std::string tensors;
};

/// Reads DIR/config.json (load_model_config, with its refusals) and checks layer `layer`'s
/// tensors: each present (in model.safetensors or where model.safetensors.index.json maps it),
/// of dtype BF16, F16 or F32, of the shape config.json gives, and with a hidden size and expert
/// width that are multiples of the machine preset's VLEN. model_type qwen3_moe and olmoe
/// (`model.layers.N.mlp.gate.weight`, `model.layers.N.mlp.experts.E.{gate,up,down}_proj.weight`)
/// and mixtral (`model.layers.N.block_sparse_moe.gate.weight`, `...experts.E.{w1,w3,w2}.weight`)
/// are read, and deepseek_v2 / deepseek_v3 (qwen3_moe's names, plus
/// `model.layers.N.mlp.shared_experts.{gate,up,down}_proj.weight` when n_shared_experts is not 0
/// and `model.layers.N.mlp.gate.e_score_correction_bias` with topk_method noaux_tc); any other is
/// refused. Every refusal is a UsageError naming the file, the tensor and
/// the field or limit. The values are converted when the builder asks for them: BF16 as it is,
/// F16 and F32 rounded to BF16 (RNE); an infinite or NaN value (or one that rounds to infinity)
/// is refused naming the tensor and the element (TensorValueError).
HfLayer load_hf_layer(const std::string& dir, unsigned layer, const isa::MachinePreset& preset,
                      std::vector<std::string>* ignored = nullptr);

/// --inputs FILE: a layer's input hidden states from a safetensors file that holds one tensor
/// [T, hidden] (BF16, F16 or F32), as BF16 values row-major (converted as load_hf_layer converts
/// weights); sets `tokens` to T. Refusals (UsageError naming the file, the tensor and the field):
/// not exactly one tensor, a shape other than [T, hidden] with T >= 1, another dtype, a value
/// that is infinite or NaN in BF16.
std::vector<uint16_t> read_hidden_states(const std::string& path, unsigned hidden,
                                         unsigned& tokens);

}  // namespace moesim::workload
