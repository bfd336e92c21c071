// Planted lowering bugs for negative tests (moesim cosim|run --plant-fault NAME): a rewrite of a
// built MoE program (plant_program_fault, applied after build_moe_layer; the builder knows
// nothing of them). Both engines run the rewritten program alike, so golden-vs-RTL comparison
// cannot see the bug; the independent reference (--reference) or the stage profile must catch
// it (docs/workloads.md, Planted lowering faults).
#pragma once

#include <string>
#include <vector>

#include "moesim/isa/spec.hpp"
#include "moesim/workload/builder.hpp"

namespace moesim::workload {

/// One lowering bug plant_program_fault can plant.
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
  /// Llama-4 routing: the score scales the expert output instead of its input (the input-scaling
  /// block of each pair or expert moved after its down projection, onto the output rows).
  score_scales_output,
};

/// "topk-shift-7", "no-stage-markers", "shared-gate-dropped", "shared-as-routed",
/// "correction-bias-dropped", "group-mask-dropped", "weights-from-biased-scores",
/// "score-scales-output" (in enum order).
std::vector<std::string> program_fault_names();

/// Parses a --plant-fault name. Throws UsageError listing the names.
ProgramFault parse_program_fault(const std::string& name);

/// Plants `fault` in `b`, built by build_moe_layer for `preset`: rewrites b.asm_text,
/// re-assembles b.program and adds a note (the image and the Layout stay). Throws UsageError
/// naming the fault if the program has nothing it applies to (topk-shift-7 on a hardwired
/// V_TOPK policy, shared-gate-dropped without a gated shared expert, score-scales-output on a
/// router that does not scale the expert input, ...).
void plant_program_fault(const isa::Spec& spec, const isa::MachinePreset& preset,
                         ProgramFault fault, BuiltProgram& b);

}  // namespace moesim::workload
