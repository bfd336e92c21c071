// One MoE layer of a Hugging Face checkpoint: see hf_checkpoint.hpp.
#include "moesim/workload/hf_checkpoint.hpp"

#include <cmath>
#include <cstring>
#include <filesystem>

#include "moesim/isa/numerics.hpp"
#include "moesim/isa/usage_error.hpp"
#include "moesim/workload/json_file.hpp"
#include "moesim/workload/safetensors.hpp"

namespace moesim::workload {

namespace {

namespace st = safetensors;

std::string shape_text(const std::vector<uint64_t>& s) {
  std::string t = "[";
  for (size_t i = 0; i < s.size(); ++i) t += (i ? ", " : "") + std::to_string(s[i]);
  return t + "]";
}

/// F16 bits -> FP32 (exact).
float f16_to_f32(uint16_t h) {
  const uint32_t sign = static_cast<uint32_t>(h >> 15) << 31, exp = (h >> 10) & 0x1F,
                 man = h & 0x3FFu;
  if (exp == 0x1F) return num::f32_from_bits(sign | 0x7F800000u | man << 13);
  if (exp != 0) return num::f32_from_bits(sign | (exp - 15 + 127) << 23 | man << 13);
  const float v = std::ldexp(static_cast<float>(man), -24);  // subnormal: exact
  return sign != 0 ? -v : v;
}

/// One tensor of the layer: where it is and what it must be.
struct Ref {
  const st::File* file = nullptr;
  const st::Tensor* tensor = nullptr;
};

void check_dtype(const Ref& r) {
  const st::Dtype d = r.tensor->dtype;
  if (d != st::Dtype::BF16 && d != st::Dtype::F16 && d != st::Dtype::F32)
    throw UsageError(r.file->path() + ": tensor '" + r.tensor->name + "': 'dtype' " +
                     st::dtype_name(d) + ": moesim reads BF16, F16 and F32 values");
}

/// Element `flat` of a row-major tensor of `shape` as its index, one coordinate per dimension:
/// "[3]", "[1, 3]".
std::string index_text(const std::vector<uint64_t>& shape, uint64_t flat) {
  std::vector<uint64_t> at(shape.size());
  for (size_t d = shape.size(); d-- > 0;) {
    at[d] = flat % shape[d];
    flat /= shape[d];
  }
  std::string s = "[";
  for (size_t d = 0; d < at.size(); ++d) s += (d ? ", " : "") + std::to_string(at[d]);
  return s + "]";
}

/// The tensor's values as BF16 into out[0, elements): BF16 as it is, F16 and F32 rounded (RNE);
/// an infinite or NaN result is refused naming the element.
void to_bf16(const Ref& r, uint16_t* out) {
  const st::Tensor& t = *r.tensor;
  const uint8_t* p = r.file->data(t);
  const uint64_t n = t.elements();
  for (uint64_t i = 0; i < n; ++i) {
    uint16_t b = 0;
    if (t.dtype == st::Dtype::BF16) {
      b = static_cast<uint16_t>(p[2 * i] | p[2 * i + 1] << 8);
    } else if (t.dtype == st::Dtype::F16) {
      b = num::f32_to_bf16(f16_to_f32(static_cast<uint16_t>(p[2 * i] | p[2 * i + 1] << 8)));
    } else {
      uint32_t w = 0;
      std::memcpy(&w, p + 4 * i, 4);  // little-endian host (x86-64, as the build requires)
      b = num::f32_to_bf16(num::f32_from_bits(w));
    }
    if ((b & 0x7F80) == 0x7F80)
      throw TensorValueError(r.file->path() + ": tensor '" + t.name + "': element " +
                             index_text(t.shape, i) + " is infinite or NaN in BF16");
    out[i] = b;
  }
}

class HfWeights : public LayerWeights {
 public:
  HfWeights(const std::string& dir, unsigned layer, const ModelPreset& m,
            const isa::MachinePreset& preset)
      : ck_(dir), H_(m.hidden), I_(m.intermediate), E_(m.experts) {
    const std::string L = "model.layers." + std::to_string(layer) + ".";
    const bool mixtral = m.model_type == "mixtral";
    const std::string block = L + (mixtral ? "block_sparse_moe." : "mlp.");
    const uint64_t vlen = static_cast<uint64_t>(preset.vlen());
    router_ = take(block + "gate.weight", {E_, H_}, "num_experts x hidden_size");
    check_fits(router_, H_, "hidden_size", vlen, preset.name);
    for (unsigned e = 0; e < E_; ++e) {
      const std::string x = block + "experts." + std::to_string(e) + ".";
      gate_.push_back(take(x + (mixtral ? "w1" : "gate_proj") + ".weight", {I_, H_},
                           "intermediate x hidden_size"));
      up_.push_back(take(x + (mixtral ? "w3" : "up_proj") + ".weight", {I_, H_},
                         "intermediate x hidden_size"));
      down_.push_back(take(x + (mixtral ? "w2" : "down_proj") + ".weight", {H_, I_},
                           "hidden_size x intermediate"));
    }
    check_fits(gate_[0], I_, "the expert intermediate size", vlen, preset.name);
    // DeepSeek: n_shared_experts fused into one MLP, and the router's correction bias.
    if (m.shared_experts != 0) {
      const uint64_t S = m.shared_intermediate;
      const std::string x = block + "shared_experts.";
      shared_ = {take(x + "gate_proj.weight", {S, H_}, "n_shared_experts x intermediate x hidden"),
                 take(x + "up_proj.weight", {S, H_}, "n_shared_experts x intermediate x hidden"),
                 take(x + "down_proj.weight", {H_, S}, "hidden x n_shared_experts x intermediate")};
    }
    if (m.correction_bias)
      bias_ = {take(block + "gate.e_score_correction_bias", {E_}, "num_experts")};
  }

  bool has_shared() const override { return !shared_.empty(); }
  void shared_w1(std::vector<uint16_t>& out) const override {
    const uint64_t n = shared_[0].tensor->elements();
    out.resize(2 * n);
    to_bf16(shared_[0], out.data());
    to_bf16(shared_[1], out.data() + n);
  }
  void shared_w2(std::vector<uint16_t>& out) const override {
    out.resize(shared_[2].tensor->elements());
    to_bf16(shared_[2], out.data());
  }
  bool has_correction_bias() const override { return !bias_.empty(); }
  void correction_bias(std::vector<uint16_t>& out) const override {
    out.resize(E_);
    to_bf16(bias_[0], out.data());
  }

  void router(std::vector<uint16_t>& out) const override {
    out.resize(uint64_t{E_} * H_);
    to_bf16(router_, out.data());
  }
  void expert_w1(unsigned e, std::vector<uint16_t>& out) const override {
    out.resize(2 * uint64_t{I_} * H_);
    to_bf16(gate_.at(e), out.data());
    to_bf16(up_.at(e), out.data() + uint64_t{I_} * H_);
  }
  void expert_w2(unsigned e, std::vector<uint16_t>& out) const override {
    out.resize(uint64_t{H_} * I_);
    to_bf16(down_.at(e), out.data());
  }

  std::vector<std::string> files() const { return ck_.opened(); }
  std::string tensors() const {
    return router_.tensor->name + " " + shape_text(router_.tensor->shape) +
           ", the experts' gate and up " + shape_text(gate_[0].tensor->shape) + ", down " +
           shape_text(down_[0].tensor->shape);
  }

 private:
  st::Checkpoint ck_;
  uint64_t H_, I_;
  unsigned E_;
  Ref router_;
  std::vector<Ref> gate_, up_, down_;
  std::vector<Ref> shared_;  ///< gate, up, down of the fused shared expert (none: empty)
  std::vector<Ref> bias_;    ///< e_score_correction_bias (none: empty)

  Ref take(const std::string& name, const std::vector<uint64_t>& shape, const char* dims) {
    const auto [f, t] = ck_.tensor(name);
    const std::string who = f->path() + ": tensor '" + name + "'";
    check_dtype({f, t});
    if (t->shape != shape)
      throw UsageError(who + ": 'shape' " + shape_text(t->shape) + ", but config.json gives " +
                       shape_text(shape) + " (" + dims + ")");
    return {f, t};
  }

  static void check_fits(const Ref& r, uint64_t n, const char* what, uint64_t vlen,
                         const std::string& preset) {
    if (n % vlen != 0)
      throw UsageError(r.file->path() + ": tensor '" + r.tensor->name + "': 'shape' " +
                       shape_text(r.tensor->shape) + ": " + what + " " + std::to_string(n) +
                       " is not a multiple of VLEN = " + std::to_string(vlen) +
                       " of machine preset '" + preset + "'");
  }
};

/// Key `key` of config.json as an unsigned integer, `fallback` when absent.
uint64_t config_count(const std::string& config, const nlohmann::json& j, const char* key,
                      uint64_t fallback, uint64_t min) {
  const auto it = j.find(key);
  if (it == j.end()) return fallback;
  if (!it->is_number_unsigned() || it->get<uint64_t>() < min)
    throw UsageError(config + ": key '" + key + "': " + it->dump() +
                     ": an integer >= " + std::to_string(min) + " is needed");
  return it->get<uint64_t>();
}

/// Refuses a layer that the model's decoder builds with a dense MLP, as its Hugging Face code
/// places them: Qwen3-MoE a layer in `mlp_only_layers` or with (N + 1) not a multiple of
/// `decoder_sparse_step`; DeepSeek-V2/V3 N < `first_k_dense_replace` or N not a multiple of
/// `moe_layer_freq` (absent: the config class's default). OLMoE and Mixtral have no dense
/// layers.
void check_moe_layer(const std::string& config, const nlohmann::json& j, const std::string& type,
                     unsigned layer) {
  std::string why;
  if (type == "qwen3_moe") {
    // null is the config class's empty list; entries compare as numbers, as Python's `in` does.
    if (const auto only = j.find("mlp_only_layers"); only != j.end() && !only->is_null()) {
      const auto bad = [&] {
        return UsageError(config + ": key 'mlp_only_layers': " + only->dump() +
                          ": a list of layer numbers is needed");
      };
      if (!only->is_array()) throw bad();
      for (const auto& n : *only) {
        if (!n.is_number()) throw bad();
        if (n.get<double>() == static_cast<double>(layer))
          why = "it is in 'mlp_only_layers' " + only->dump();
      }
    }
    const uint64_t step = config_count(config, j, "decoder_sparse_step", 1, 1);
    if (why.empty() && (uint64_t{layer} + 1) % step != 0)
      why = "'decoder_sparse_step' is " + std::to_string(step) + " (MoE layers N with N + 1 a " +
            "multiple of it)";
  } else if (type == "deepseek_v2" || type == "deepseek_v3") {
    // Absent, the config classes' defaults: DeepseekV2Config 0, DeepseekV3Config 3.
    const uint64_t first =
        config_count(config, j, "first_k_dense_replace", type == "deepseek_v3" ? 3 : 0, 0);
    const uint64_t freq = config_count(config, j, "moe_layer_freq", 1, 1);
    if (layer < first)
      why = "'first_k_dense_replace' is " + std::to_string(first) +
            " (the layers below it are dense)";
    else if (layer % freq != 0)
      why = "'moe_layer_freq' is " + std::to_string(freq) + " (MoE layers N a multiple of it)";
  }
  if (!why.empty())
    throw UsageError(config + ": layer " + std::to_string(layer) +
                     " is a dense MLP layer, not an MoE layer: " + why + " (--layer)");
}

}  // namespace

HfLayer load_hf_layer(const std::string& dir, unsigned layer, const isa::MachinePreset& preset,
                      std::vector<std::string>* ignored) {
  namespace fs = std::filesystem;
  if (std::error_code ec; !fs::is_directory(dir, ec))
    throw UsageError(dir + ": not a directory (a checkpoint is the directory of its config.json " +
                     "and safetensors files)");
  const std::string config = (fs::path(dir) / "config.json").string();
  HfLayer h;
  h.model = load_model_config(config, ignored);
  const std::string& t = h.model.model_type;
  if (t != "qwen3_moe" && t != "olmoe" && t != "mixtral" && t != "deepseek_v2" &&
      t != "deepseek_v3")
    throw UsageError(config + ": key 'model_type': '" + t +
                     "': --checkpoint reads the layers of qwen3_moe, olmoe, mixtral, deepseek_v2 "
                     "and deepseek_v3");
  const nlohmann::json j = read_json_file(config, config);
  const auto layers = j.find("num_hidden_layers");
  if (layers == j.end() || !layers->is_number_unsigned() || layers->get<uint64_t>() == 0)
    throw UsageError(config + ": key 'num_hidden_layers': " +
                     (layers == j.end() ? std::string("missing") : layers->dump()) +
                     ": a positive integer is needed (the layers --layer picks from)");
  if (layer >= layers->get<uint64_t>())
    throw UsageError(config + ": key 'num_hidden_layers': " + layers->dump() +
                     ": the model has no layer " + std::to_string(layer) + " (--layer)");
  check_moe_layer(config, j, t, layer);
  auto w = std::make_unique<HfWeights>(dir, layer, h.model, preset);
  h.files = w->files();
  h.tensors = w->tensors();
  h.note = "weights of layer " + std::to_string(layer) + " (router and " +
           std::to_string(h.model.experts) + " experts) from the checkpoint " + dir + " (" +
           std::to_string(h.files.size()) + " safetensors file" + (h.files.size() == 1 ? "" : "s") +
           " opened), rounded to BF16 and quantised to MXFP8";
  h.weights = std::move(w);
  return h;
}

std::vector<uint16_t> read_hidden_states(const std::string& path, unsigned hidden,
                                         unsigned& tokens) {
  const st::File f(path);
  if (f.tensors().size() != 1)
    throw UsageError(path + ": " + std::to_string(f.tensors().size()) +
                     " tensors; the input hidden states are one tensor [tokens, hidden_size]");
  const st::Tensor& t = f.tensors()[0];
  const std::string who = path + ": tensor '" + t.name + "': 'shape' " + shape_text(t.shape);
  if (t.shape.size() != 2 || t.shape[1] != hidden)
    throw UsageError(who + ": not [tokens, " + std::to_string(hidden) +
                     "] (the layer's hidden size)");
  if (t.shape[0] == 0 || t.shape[0] > UINT32_MAX)
    throw UsageError(who + ": no tokens, or too many");
  check_dtype({&f, &t});
  std::vector<uint16_t> v(t.elements());
  to_bf16({&f, &t}, v.data());
  tokens = static_cast<unsigned>(t.shape[0]);
  return v;
}

}  // namespace moesim::workload
