// Layers the workload and co-simulation tests build (build: H = I = 64 on the default preset).
#pragma once

#include <string>

#include "moesim/isa/spec.hpp"
#include "moesim/workload/builder.hpp"
#include "moesim/workload/presets.hpp"

namespace moesim::test {

/// The layer at H = I = 64 (one VLEN block on the default preset), seed 3.
inline workload::BuiltProgram build(const workload::ModelPreset& m, unsigned tokens,
                                    bool shared = false,
                                    workload::TopkEncoding topk = workload::TopkEncoding::automatic,
                                    workload::Lowering lowering = workload::Lowering::pair) {
  const auto& spec = isa::Spec::builtin();
  workload::BuildOptions o;
  o.model = &m;
  o.tokens = tokens;
  o.hidden = 64;
  o.intermediate = 64;
  o.shared = shared;
  o.topk = topk;
  o.lowering = lowering;
  o.seed = 3;
  return workload::build_moe_layer(spec, spec.preset("default"), o);
}

/// A softmax-routed SwiGLU model with E experts and top-k (the router-policy shapes).
inline workload::ModelPreset shape(unsigned experts, unsigned k) {
  workload::ModelPreset m = workload::find_model("qwen3-30b-a3b");
  m.name = "shape-" + std::to_string(experts) + "-" + std::to_string(k);
  m.experts = experts;
  m.top_k = k;
  return m;
}

/// A GPT-OSS-20B layer (or `model`'s) of the given shape on `machine`.
inline workload::BuiltProgram build_shaped(unsigned tokens, unsigned hidden, unsigned intermediate,
                                           const std::string& machine = "default",
                                           uint64_t seed = 1,
                                           const std::string& model = "gpt-oss-20b") {
  const auto& spec = isa::Spec::builtin();
  workload::BuildOptions o;
  o.model = &workload::find_model(model);
  o.tokens = tokens;
  o.hidden = hidden;
  o.intermediate = intermediate;
  o.seed = seed;
  return workload::build_moe_layer(spec, spec.preset(machine), o);
}

}  // namespace moesim::test
