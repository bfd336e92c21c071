// Planted faults for negative tests: flip one bit of one engine's initial memory image (moesim
// cosim --flip-bit ENGINE:SPACE:BYTE:BIT), or plant a lowering bug in a generated MoE program
// (moesim cosim|run --plant-fault NAME), which both engines then run alike: such a fault is
// caught by the independent reference or the stage profile, not by golden-vs-RTL comparison.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "moesim/isa/program.hpp"
#include "moesim/isa/spec.hpp"
#include "moesim/isa/trace.hpp"
#include "moesim/sim/builder.hpp"

namespace moesim::sim {

struct BitFlip {
  std::string engine;  ///< engine name ("golden" or "rtl")
  isa::Space space = isa::Space::Hbm;
  uint64_t byte = 0;  ///< byte offset in the space's byte image (isa::MemoryImage layout)
  unsigned bit = 0;   ///< 0..7
};

/// Parses "ENGINE:SPACE:BYTE:BIT" (SPACE as isa::space_name, BYTE decimal or 0x hex).
/// Throws UsageError naming --flip-bit and the bad part.
BitFlip parse_bit_flip(const std::string& text);

/// Flips the bit in `image`; a byte no segment covers (an initial 0) gets its own segment.
/// Throws UsageError if the byte is at or past `space_bytes` (the space's size in bytes).
void apply_bit_flip(const BitFlip& flip, uint64_t space_bytes, isa::MemoryImage& image);

/// Lowering bugs apply_program_fault can plant in a generated program.
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
  /// Llama-4 routing: the score scales the expert output instead of its input. Planted by
  /// build_moe_layer (BuildOptions::fault_score_scales_output), not by apply_program_fault.
  score_scales_output,
};

/// "topk-shift-7", "no-stage-markers", "shared-gate-dropped", "shared-as-routed",
/// "correction-bias-dropped", "group-mask-dropped", "weights-from-biased-scores",
/// "score-scales-output" (in enum order).
std::vector<std::string> program_fault_names();

/// Parses a --plant-fault name. Throws UsageError listing the names.
ProgramFault parse_program_fault(const std::string& name);

/// Rewrites `b.asm_text` with the fault and re-assembles `b.program`. Throws UsageError if the
/// program has nothing the fault applies to (e.g. topk-shift-7 on a program with no
/// C_SET_TOPK_REG, shared-gate-dropped on one without a gated shared expert), and
/// std::invalid_argument for score_scales_output (a build option, see above).
void apply_program_fault(const isa::Spec& spec, ProgramFault fault, BuiltProgram& b);

}  // namespace moesim::sim
