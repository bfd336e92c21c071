// Per-rank programs of an expert-parallel deployment (docs/deployments.md, Per-rank programs):
// build_deployment() builds the single-accelerator layer and, for every EP rank, the rank's
// program (the layer's router, the rank's expert mask applied on the accelerator, fused shared
// experts as always-selected columns with weight 1, the rank's partial output to HBM) and its
// initial image, made from the layer's image (the same inputs, router and expert weights, so the
// ranks' combined output is the layer's). reference_deployment() (reference.cpp) evaluates the
// same deployment independently.
#pragma once

#include <cstdint>
#include <vector>

#include "moesim/isa/spec.hpp"
#include "moesim/workload/builder.hpp"
#include "moesim/workload/deployment.hpp"
#include "moesim/workload/reference.hpp"

namespace moesim::workload {

struct DeploymentBuild {
  Deployment deployment;
  DeploymentShape shape;
  /// The single-accelerator layer of the same model, shape and seed (with its shared expert,
  /// one MLP of width S x I, when the deployment fuses it).
  BuiltProgram layer;
  std::vector<BuiltProgram> ranks;  ///< rank r's program and initial image
  std::vector<unsigned> owner;      ///< per token: the rank it belongs to, t * EP / T
};

/// Builds the layer and every rank's program. `base` gives tokens, hidden, intermediate, topk,
/// seed (model, shared, shared_intermediate, rank are set here). Throws UsageError naming the key
/// or flag: a model whose experts exceed the machine's MAX_TOPK_EXPERTS ('n_routed_experts'),
/// more tokens than `max_tokens_per_rank`, the expert-major lowering, and whatever
/// build_moe_layer refuses.
DeploymentBuild build_deployment(const isa::Spec& spec, const isa::MachinePreset& preset,
                                 const Deployment& d, const BuildOptions& base);

/// The independent evaluation of a deployment (reference.cpp): the single-accelerator layer's
/// reference (its routing feeds every rank: the rank programs run the layer's router), then per
/// rank the masked pairs with the machine's rounding, the rank's BF16 accumulator and MXFP8
/// output, and the combine of the ranks' outputs.
struct DeploymentReference {
  ReferenceResult layer;
  std::vector<std::vector<uint16_t>> rank_acc;  ///< per rank: T x H BF16 accumulator
  std::vector<std::vector<uint8_t>> rank_out;   ///< per rank: the MXFP8 output region
  std::vector<unsigned> rank_pairs;  ///< per rank: pairs carrying a local expert (weight kept)
  /// T x H BF16: the ranks' dequantised MXFP8 outputs summed in rank order 0..EP-1, each add in
  /// FP32 rounded to BF16 (RNE), as V_ADD_VV rounds.
  std::vector<uint16_t> combined;
};
DeploymentReference reference_deployment(const isa::MachinePreset& preset,
                                         const DeploymentBuild& b);

}  // namespace moesim::workload
