// Expert-parallel deployments of an MoE layer (docs/deployments.md): a deployments.yaml names a
// model (preset or config.json) and its knobs (EP size, EPLB redundant experts, shared-expert
// fusion, max tokens per rank); derive_shape() gives each rank's shapes with the convention of
// the serving engines (SGLang / vLLM expert parallelism): with P = routed + redundant physical
// experts and S fused shared experts, a rank holds P / EP + S local experts, routes with top-k
// columns (top-k + S + 1 fused, the last a sentinel), and maps global to local ids with an
// expert mask of P + S + 1 entries.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "moesim/workload/presets.hpp"

namespace moesim::workload {

/// The most expert-mask entries a deployment's ranks hold in all, EP x (P + S + 1): derive_shape
/// makes one mask per rank, so a deployment beyond it is refused before any is made.
constexpr uint64_t kMaxDeploymentMaskEntries = uint64_t{1} << 22;

/// How a token that selected a logical expert with replicas picks one physical copy.
enum class ReplicaDispatch {
  round_robin,  ///< token t takes copy t mod (number of copies), copies in physical id order
};

struct Deployment {
  std::string name;
  std::string where;      ///< FILE:LINE of the entry
  std::string model_arg;  ///< the `model` value as written
  ModelPreset model;
  unsigned ep = 1;                 ///< expert-parallel ranks
  unsigned redundant = 0;          ///< EPLB redundant (physical) experts
  std::vector<unsigned> replicas;  ///< logical expert of physical expert routed + i
  ReplicaDispatch dispatch = ReplicaDispatch::round_robin;
  bool fuse_shared = false;          ///< shared experts fused into the routed set
  unsigned max_tokens_per_rank = 0;  ///< tokens one rank's layer holds
};

/// One rank's shapes.
struct RankShape {
  unsigned rank = 0;
  unsigned first_physical = 0;   ///< global physical ids [first, first + local_routed)
  unsigned local_routed = 0;     ///< P / EP
  unsigned local_shared = 0;     ///< S (fused) or 0
  unsigned local_experts = 0;    ///< P / EP + S
  unsigned routing_columns = 0;  ///< top-k, or top-k + S + 1 fused
  /// Global id -> local id, -1 for an expert held by another rank; P + S + 1 entries: the P
  /// physical routed experts, the S fused shared experts (local on every rank), the sentinel
  /// (always -1).
  std::vector<int32_t> mask;
};

struct DeploymentShape {
  unsigned routed = 0;     ///< logical routed experts E
  unsigned redundant = 0;  ///< R
  unsigned physical = 0;   ///< P = E + R
  unsigned shared = 0;     ///< S: fused shared experts (0 unfused)
  unsigned ep = 1;
  unsigned top_k = 0;
  unsigned routing_columns = 0;  ///< top-k (+ S + 1 fused)
  unsigned mask_entries = 0;     ///< P + S + 1
  std::vector<RankShape> ranks;
  /// Logical expert of each of the P physical experts (p < E: p; E + i: replicas[i]).
  std::vector<unsigned> physical_to_logical;
};

/// The shapes of every rank. The Deployment must be valid (load_deployments checks it; a
/// hand-made one that is not throws UsageError naming the knob).
DeploymentShape derive_shape(const Deployment& d);

/// Reads and validates a deployments file (docs/deployments.md). Every error is a UsageError
/// "FILE:LINE:COL: 'key': ..." : unknown or missing keys, experts that do not split over EP,
/// fusing a model without (fusable) shared experts, a replica listed twice or out of range, a
/// model that does not load, a name given twice, more than kMaxDeploymentMaskEntries mask
/// entries.
std::vector<Deployment> load_deployments(const std::string& path);

/// The deployments file shipped with moesim (sim/workload/deployments/deployments.yaml).
std::string default_deployments_file();

}  // namespace moesim::workload
