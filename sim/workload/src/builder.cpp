// MoE program builder (docs/workloads.md, Lowering): build_moe_layer, the LayerBuilder driver
// and the utilisation counts. The parts live in build_*.cpp (layer_builder.hpp).
#include "moesim/workload/builder.hpp"

#include <sstream>
#include <stdexcept>

#include "layer_builder.hpp"
#include "moesim/isa/assembler.hpp"
#include "moesim/isa/numerics.hpp"

namespace moesim::workload {

// A source without a shared expert or correction bias is never asked for them (has_shared(),
// has_correction_bias()).
void LayerWeights::shared_w1(std::vector<uint16_t>&) const {
  throw std::logic_error("LayerWeights: no shared expert");
}
void LayerWeights::shared_w2(std::vector<uint16_t>&) const {
  throw std::logic_error("LayerWeights: no shared expert");
}
void LayerWeights::correction_bias(std::vector<uint16_t>&) const {
  throw std::logic_error("LayerWeights: no correction bias");
}

namespace detail {

LayerBuilder::LayerBuilder(const isa::Spec& spec, const isa::MachinePreset& m,
                           const BuildOptions& o)
    : spec_(spec), m_(m), opt_(o) {
  vlen_ = static_cast<uint64_t>(m.vlen());
  mlen_ = static_cast<uint64_t>(m.mlen());
  blen_ = static_cast<uint64_t>(m.blen());
  mxb_ = static_cast<uint64_t>(m.mx_block());
  vrows_ = static_cast<uint64_t>(m.get("HBM_V_ROWS"));
}

BuiltProgram LayerBuilder::build() {
  validate_and_lay_out();
  BuiltProgram out;
  out.layout = L_;
  out.recorded = opt_.recorded;
  std::string model_name = opt_.model->name;
  const auto slash = model_name.find_last_of('/');
  if (slash != std::string::npos) model_name = model_name.substr(slash + 1);
  out.name = model_name + "_T" + std::to_string(L_.tokens) + "_H" + std::to_string(L_.hidden) +
             "_I" + std::to_string(L_.intermediate) +
             (L_.shared_intermediate != 0 ? "_S" + std::to_string(L_.shared_intermediate) : "") +
             (opt_.topk == TopkEncoding::register_policy ? "_topkreg" : "") +
             (opt_.lowering == Lowering::expert ? "_expertmajor" : "") +
             (opt_.recorded.empty() ? "" : "_recorded") + (opt_.rank ? "_rank" : "") + "_seed" +
             std::to_string(opt_.seed) + "_" + m_.name + ".asm";
  out.asm_text = emit_program();
  try {
    out.program = isa::assemble(spec_, out.asm_text, out.name);
  } catch (const isa::AsmError& e) {
    throw std::logic_error(std::string("program builder emitted bad assembly: ") + e.what());
  }
  const auto imem = static_cast<uint64_t>(m_.get("IMEM_WORDS"));
  if (out.program.size() > imem)
    throw UsageError(tokens_source() + ": the program has " + std::to_string(out.program.size()) +
                     " instructions; machine preset '" + m_.name +
                     "' has IMEM_WORDS=" + std::to_string(imem));
  // A rank program's image is made by build_deployment (deployment_build.hpp) from the layer's.
  if (!opt_.rank) out.image = make_image();
  if (opt_.model->activation == Activation::clamped_swiglu) {
    std::ostringstream alpha;
    alpha << "alpha " << opt_.model->swiglu_alpha << " is the BF16 constant "
          << num::bf16_to_f32(L_.alpha_bf16) << " (0x" << std::hex << std::uppercase
          << L_.alpha_bf16 << ")";
    out.notes.push_back(alpha.str());
  }
  out.notes.push_back(
      "W1 (gate_up_proj) is stored de-interleaved: output columns [0, I) gate, [I, 2I) up");
  out.notes.push_back("tokens padded to " + std::to_string(L_.tokens_padded) +
                      " (a multiple of HBM_V_ROWS and BLEN); padded rows are zero and not "
                      "routed");
  if (L_.topk_select != L_.top_k)
    out.notes.push_back("norm_topk_prob false: V_TOPK selects " + std::to_string(L_.experts) +
                        " of " + std::to_string(L_.experts) +
                        " (the softmax over all experts, in rank order); the first " +
                        std::to_string(L_.top_k) + " ranks are routed with those weights");
  if (L_.routing == Layout::Routing::sigmoid_biased) {
    std::ostringstream n;
    n << "sigmoid routing on the scalar FP unit: s = sigmoid(l), s' = s + b (b = "
         "e_score_correction_bias, BF16 in FP SRAM)";
    if (L_.group_limited())
      n << ", group score = sum of the top-2 s' of each of " << L_.n_group << " groups, top "
        << L_.topk_group << " groups kept, the others masked with -inf";
    n << ", V_TOPK top-" << L_.top_k << " of the masked s', w = s_i / (sum s + bf16(1e-20))"
      << " x bf16(" << opt_.model->routed_scaling_factor
      << ") from the unbiased s (the epsilon only matters when the BF16 sum is below ~2^-58)";
    out.notes.push_back(n.str());
  }
  if (L_.routing == Layout::Routing::input_scaled)
    out.notes.push_back(
        "input-scaled routing: V_TOPK top-" + std::to_string(L_.top_k) +
        " of the logits, score = sigmoid(l_i) on the scalar FP unit scales the expert input "
        "(bf16(score * x)); the expert output is added unweighted");
  if (L_.shared_gate)
    out.notes.push_back(
        "the shared gate sigmoid runs on the scalar FP unit (S_SUB_FP from f0, S_EXP_FP, "
        "S_ADD_FP 1, S_RECI_FP), then V_ADD_VF broadcasts it onto a zero row");
  out.utilisation = utilisation();
  return out;
}

std::string LayerBuilder::emit_program() {
  const ModelPreset& model = *opt_.model;
  e_.comment("moesim MoE layer: " + model.name + " (" + model.hf_id + "), routed" +
             (L_.shared_intermediate != 0 ? " + shared" : "") + ", pair-major");
  e_.comment("T=" + std::to_string(L_.tokens) + " (padded " + std::to_string(L_.tokens_padded) +
             ") H=" + std::to_string(L_.hidden) + " I=" + std::to_string(L_.intermediate) +
             " E=" + std::to_string(L_.experts) + " k=" + std::to_string(L_.top_k) +
             (L_.shared_intermediate != 0 ? " I_s=" + std::to_string(L_.shared_intermediate)
                                          : std::string()) +
             " seed=" + std::to_string(opt_.seed) + " machine=" + m_.name);
  e_.blank();
  emit_input_loads();
  emit_router();
  if (L_.rank_program()) emit_rank_mask();
  emit_accumulator_init();
  if (L_.lowering == Lowering::pair) {
    for (unsigned p = 0; p < L_.pairs; ++p) emit_pair(p);
  } else {
    for (unsigned e = 0; e < L_.experts; ++e) emit_expert(e);
  }
  if (L_.shared_intermediate != 0) emit_shared();
  emit_output_store();
  return e_.text();
}

/// Matrix-unit work per part, from the loop structure emitted above.
std::vector<Utilisation> LayerBuilder::utilisation() const {
  const uint64_t H = L_.hidden, I = L_.intermediate, IS = L_.shared_intermediate;
  const uint64_t tile_bytes = static_cast<uint64_t>(m_.get("HBM_M_ROWS")) * (mlen_ + mlen_ / mxb_);
  // One projection N x K over `groups` BLEN-row groups.
  auto projection = [&](Utilisation& u, uint64_t n, uint64_t k, uint64_t groups) {
    const uint64_t tiles = (n / mlen_) * (k / mlen_);
    u.weight_tiles += tiles;
    u.mm += tiles * (mlen_ / blen_) * groups;
    u.matrix_instructions +=
        tiles * (mlen_ / blen_) * groups + (n / mlen_) * (mlen_ / blen_) * groups;
  };
  std::vector<Utilisation> out;
  Utilisation r;
  r.part = "routed";
  if (L_.lowering == Lowering::pair) {
    r.lowering = "pair";
    for (unsigned p = 0; p < L_.pairs; ++p) {
      projection(r, 2 * I, H, 1);
      projection(r, H, I, 1);
    }
    r.useful_rows_per_tile = 1.0;  // row 0 of each pair slot holds the token
  } else {
    r.lowering = "expert";
    for (unsigned e = 0; e < L_.experts; ++e) {
      projection(r, 2 * I, H, L_.tokens_padded / blen_);
      projection(r, H, I, L_.tokens_padded / blen_);
    }
    // T*k of the E*T_pad rows an expert sees are routed to it.
    r.useful_rows_per_tile = static_cast<double>(L_.pairs) * static_cast<double>(blen_) /
                             (static_cast<double>(L_.experts) * L_.tokens_padded);
  }
  r.weight_bytes = r.weight_tiles * tile_bytes;
  out.push_back(r);
  if (IS != 0) {
    Utilisation s;
    s.part = "shared";
    s.lowering = "all-tokens";
    projection(s, 2 * IS, H, L_.tokens_padded / blen_);
    projection(s, H, IS, L_.tokens_padded / blen_);
    s.weight_bytes = s.weight_tiles * tile_bytes;
    s.useful_rows_per_tile =
        static_cast<double>(L_.tokens) * static_cast<double>(blen_) / L_.tokens_padded;
    out.push_back(s);
  }
  return out;
}

}  // namespace detail

void check_model_top_k(const ModelPreset& m) {
  if (m.top_k == 0 || m.top_k > m.experts)
    throw ModelError(m.name + ": num_experts_per_tok " + std::to_string(m.top_k) +
                     " is not in 1.." + std::to_string(m.experts));
}

void check_model_routing(const ModelPreset& model) { detail::LayerBuilder::check_routing(model); }

BuiltProgram build_moe_layer(const isa::Spec& spec, const isa::MachinePreset& preset,
                             const BuildOptions& options) {
  if (options.model == nullptr) throw std::invalid_argument("build_moe_layer: no model");
  return detail::LayerBuilder(spec, preset, options).build();
}

}  // namespace moesim::workload
