// Planted lowering bugs for negative tests (moesim cosim|run --plant-fault NAME): the generated
// MoE program is built wrong on purpose (BuildOptions::fault) and both engines run it alike, so
// golden-vs-RTL comparison cannot see it; the independent reference (--reference) or the stage
// profile must catch it (issue 4's negative tests, docs/workloads.md).
#pragma once

#include <string>
#include <vector>

namespace moesim::workload {

/// One lowering bug build_moe_layer can plant.
enum class ProgramFault {
  /// The C_SET_TOPK_REG operand packed as (E << 7) | k instead of (E << 8) | k.
  topk_shift_7,
  /// No `; @stage=` markers: every instruction is billed to `other`.
  no_stage_markers,
  /// The shared gate's multiply of the shared expert's output (the in-place V_MUL_VV of the
  /// shared_expert_gate stage) left out.
  shared_gate_dropped,
  /// The shared expert's stages marked as routed ones (shared_expert_projection ->
  /// expert_projection, shared_expert_activation -> expert_activation, shared_expert_gate ->
  /// expert_route_weight).
  shared_as_routed,
  /// DeepSeek-V3 routing: s' = s + b computed as s + 0 (selection without
  /// e_score_correction_bias).
  correction_bias_dropped,
  /// DeepSeek-V3 routing: the group penalty add (s' + 0 / -inf) made s' + 0, so the top-k runs
  /// over every group.
  group_mask_dropped,
  /// DeepSeek-V3 routing: the route weights read the biased s' instead of the unbiased s.
  weights_from_biased_scores,
  /// Llama-4 routing: the score scales the expert output instead of its input (planted while
  /// lowering; the others are rewrites of the emitted program).
  score_scales_output,
};

/// "topk-shift-7", "no-stage-markers", "shared-gate-dropped", "shared-as-routed",
/// "correction-bias-dropped", "group-mask-dropped", "weights-from-biased-scores",
/// "score-scales-output" (in enum order).
std::vector<std::string> program_fault_names();

/// Parses a --plant-fault name. Throws UsageError listing the names.
ProgramFault parse_program_fault(const std::string& name);

}  // namespace moesim::workload
