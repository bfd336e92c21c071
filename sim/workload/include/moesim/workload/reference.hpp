// Independent reference of a built MoE layer (docs/workloads.md, Independent reference; the
// rounding rules: docs/numerics.md): plain C++ tensor code that computes the layer from its math
// on the inputs of the builder's memory image, with no ISA, no program and no golden-model code.
// Two evaluations: with the machine's rounding, which must equal the golden model bit for bit
// (the BF16 accumulator and the MXFP8 output in HBM), and in float64, for the error table.
//
// Guard: a gated shared expert whose BF16 gate is exactly 1.0 on more than half of the tokens
// would hide a dropped gate multiply; check_against_reference reports it as a failure.
#pragma once

#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include "moesim/isa/engine.hpp"
#include "moesim/isa/spec.hpp"
#include "moesim/workload/builder.hpp"
#include "moesim/workload/presets.hpp"

namespace moesim::workload {

struct ReferenceResult {
  unsigned tokens = 0, hidden = 0, top_k = 0;
  /// Hardware-rounding evaluation.
  std::vector<uint16_t> acc_bf16;       ///< T x H token-major: the output accumulator
  std::vector<uint8_t> out_mxfp8;       ///< the H_STORE_V output region (Layout::y, y.bytes)
  std::vector<uint32_t> expert_ids;     ///< T x k, rank order (V_TOPK)
  std::vector<uint16_t> route_weights;  ///< T x k BF16
  /// sigmoid(w_g . x_t) per token (BF16) when the layer has a gated shared expert, else empty.
  std::vector<uint16_t> shared_gate;
  /// float64 evaluation: T x H.
  std::vector<double> exact;
  /// Tokens whose float64 top-k set differs from the hardware's selection.
  unsigned selection_differs = 0;
};

/// Evaluates the layer `b` was built for from `model` (the preset passed to build_moe_layer).
/// Throws std::logic_error if an input of the image is not reproduced by quantising its
/// dequantised values again (the image is not MXFP8-representable) and std::invalid_argument for
/// a layer it cannot evaluate.
ReferenceResult reference_layer(const isa::MachinePreset& preset, const ModelPreset& model,
                                const BuiltProgram& b);

/// What an engine computed for `b` after its run: the accumulator (T x H token-major BF16, from
/// the column-block-major VRAM layout of Layout::v_acc) and the HBM output region.
struct LayerOutput {
  std::vector<uint16_t> acc_bf16;
  std::vector<uint8_t> out_mxfp8;
};
LayerOutput read_layer_output(const isa::Engine& engine, const isa::MachinePreset& preset,
                              const BuiltProgram& b);

/// Dequantised T x H output from the MXFP8 output bytes.
std::vector<double> dequant_output(const isa::MachinePreset& preset, const BuiltProgram& b,
                                   const std::vector<uint8_t>& out_mxfp8);

/// One row of the error table: hardware output vs the float64 reference.
struct ErrorRow {
  std::string what;
  double max_abs = 0;
  /// max |got - exact| / |exact| over elements with |exact| >= kRelFloor * max |exact|.
  double max_rel = 0;
  double cosine = 0;  ///< <got, exact> / (|got| |exact|)
  static constexpr double kRelFloor = 1.0 / 64;
};
ErrorRow error_row(const std::string& what, const std::vector<double>& got,
                   const std::vector<double>& exact);

/// The comparison of an engine's output with the reference.
struct ReferenceCheck {
  uint64_t acc_elements = 0, acc_differing = 0;  ///< BF16 accumulator elements
  uint64_t out_bytes = 0, out_differing = 0;     ///< MXFP8 output bytes
  std::vector<std::string> first_differences;    ///< up to 8, readable
  std::vector<ErrorRow> errors;                  ///< accumulator, then MXFP8 output, vs float64
  unsigned selection_differs = 0;
  std::vector<std::string> guard_failures;  ///< the test cannot see what it should (see above)
  bool bit_exact() const { return acc_differing == 0 && out_differing == 0; }
  bool ok() const { return bit_exact() && guard_failures.empty(); }
};
ReferenceCheck check_against_reference(const isa::MachinePreset& preset, const BuiltProgram& b,
                                       const ReferenceResult& ref, const LayerOutput& got);

/// The bit-exactness line and the error table.
void print_reference_check(std::ostream& os, const std::string& engine, const ReferenceCheck& c);

}  // namespace moesim::workload
