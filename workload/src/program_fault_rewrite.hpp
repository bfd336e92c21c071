// The text rewrites behind most planted lowering bugs (program_fault.hpp), private to the sim
// library: build_moe_layer applies them to the program it has just emitted.
#pragma once

#include "moesim/isa/spec.hpp"
#include "moesim/workload/builder.hpp"
#include "moesim/workload/program_fault.hpp"

namespace moesim::workload {

/// Rewrites `b.asm_text` with the fault, re-assembles `b.program` and adds a note. Throws
/// UsageError if the program has nothing the fault applies to (e.g. topk-shift-7 on a program
/// with no C_SET_TOPK_REG, shared-gate-dropped on one without a gated shared expert), and
/// std::logic_error for score_scales_output, which the builder plants while lowering.
void rewrite_with_fault(const isa::Spec& spec, ProgramFault fault, BuiltProgram& b);

}  // namespace moesim::workload
