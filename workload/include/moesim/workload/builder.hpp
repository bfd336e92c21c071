// MoE program builder (DESIGN.md §7, docs/workloads.md): one MoE layer of a model preset
// (routed experts, optionally the shared expert), pair-major, as assembly TEXT with
// `; @stage=` markers (assembled with isa::assemble, so the text path is the one every run
// exercises) plus the initial memory image from a seeded generator.
//
// Math (shared/reference/models.md §2), per token t with input x (H values):
//   l = W_r x (+ b_r if router_bias)  (E logits)
//   norm_topk_prob true:  S, w = V_TOPK(l) with (E, k): top-k, softmax over the selected logits
//   norm_topk_prob false: V_TOPK with (E, E): the softmax over all E logits in rank order; the
//                         first k ranks are S and their weights p_i are used as they are
//   sigmoid scores with e_score_correction_bias (DeepSeek-V3, docs/workloads.md): s =
//                         sigmoid(l), s' = s + b, group scores (top-2 s' sum), the top
//                         topk_group groups kept and the others masked with -inf, S = V_TOPK
//                         top-k of s', w_i = s_i / (sum_S s + 1e-20) * rsf (unbiased s)
//   input-scaled (Llama-4): S = V_TOPK top-k of l, score_i = sigmoid(l_i) scales the expert
//                         input (e_i = E_i(bf16(score_i * x))), the output is added with w = 1
//   per selected expert i: [g, u] = W1_i x (+ b1_i);  e_i = W2_i h (+ b2_i) with
//     swiglu:          h = u * (g * sigmoid(g))
//     clamped_swiglu:  g = min(g, limit); u = clamp(u, -limit, limit);
//                      h = (u + 1) * (g * sigmoid(alpha * g))
//   y_t = sum_i w_i e_i                       (accumulated in rank order j = 0..k-1; in expert
//                                              index order, all E with w = 0 for the others,
//                                              for the expert-major lowering)
//   with --shared: y_t += s_t where s_t = W2_s (u * silu(g)), [g, u] = W1_s x (one fused MLP of
//                  width I_s), times sigmoid(w_g . x_t) when the model has a shared gate
//                  (added after every routed pair of the layer)
// with every step in the machine's numerics (BF16 storage, FP32 RNE arithmetic, MXFP8 weights).
// Differences from the float model, stated once:
//   * alpha is the BF16 constant bf16(alpha) (1.702 -> 1.703125, 0x3FDA; 1 for swiglu);
//     sigmoid(a*g) is 1 / (1 + exp(-a*g)) with V_MUL_VF(-a), V_EXP_V, V_ADD_VF(1), V_RECI_V.
//   * HF stores gate_up_proj interleaved (GPT-OSS) or as separate gate/up matrices; the builder
//     stores W1 as one matrix, output columns [0, I) gate, [I, 2I) up.
//   * The shared gate sigmoid(w_g . x_t): the dot product goes through V_MUL_VV + V_RED_SUM
//     (BF16-rounded after each VLEN block) into an f register, the sigmoid runs on the scalar FP
//     unit (S_SUB_FP from f0, S_EXP_FP, S_ADD_FP 1, S_RECI_FP; each result BF16) as in PLENA's
//     compiler, and V_ADD_VF onto a zero row broadcasts it for the V_MUL_VV into the output.
//
// Lowering (plena_isa.md §4.2, pair-major): inputs and weights live in HBM as MXFP8 (values are
// drawn, rounded to BF16 and quantised with num::mx_quantize, so H_PREFETCH_V loads them
// exactly). Activations in VRAM are column-block-major: block b of an R-row matrix at
// base + b*R*VLEN, row r at + r*VLEN. The program, in stage order:
//   residual_setup         H_PREFETCH_V of X (T_pad x H), W_r (E x H), the biases the model
//                          has and the shared gate weight
//   router_topk            per token: per expert V_MUL_VV + V_RED_SUM over H/VLEN blocks into an
//                          f-reg zeroed by S_LD_FP from a zero FP SRAM word, S_ST_FP, then
//                          S_MAP_V_FP into a logit row, V_ADD_VV router bias, V_TOPK (ids to
//                          INT SRAM, weights to FP SRAM); C_SET_TOPK_REG once before the first
//                          V_TOPK when the policy is the register (rmask 15). Sigmoid routing
//                          (DeepSeek-V3) first computes s, s', the group scores, a group V_TOPK
//                          and the -inf mask on the scalar FP unit and maps the masked s' into
//                          the logit row (C_SET_TOPK_REG per V_TOPK when groups alternate the
//                          policy), then overwrites V_TOPK's weights with the sigmoid weights;
//                          Llama-4 overwrites them with sigmoid(l_i)
//   accumulator_init       S_MAP_V_FP of a zero FP SRAM row into the T_pad x H accumulator and
//                          into rows 1..BLEN-1 of the pair slots
//   per pair p = t*k + j (unrolled; loops inside):
//     gather               V_GATHER per H/VLEN block into row 0 of the BLEN-row input slot
//     expert_route_weight  (input-scaled routing only) S_LD_FP w_p, V_MUL_VF of the input row
//     expert_weight_address  S_LD_INT id, S_MUL_INT by the expert's byte stride, S_ADD_INT base,
//                          C_SET_ADDR_REG, C_SET_SCALE_REG, C_SET_STRIDE_REG
//     expert_weight_prefetch H_PREFETCH_M, one MLEN x MLEN tile per K chunk of an output tile
//     expert_projection    per BLEN-column group: M_MM per K tile in K order, M_MM_WO
//     expert_bias          V_ADD_VV of the expert's bias rows onto row 0 (expert_bias only)
//     expert_activation    the activation on row 0 into the BLEN-row activation slot
//     (down projection: the same stages with W2)
//     expert_route_weight  S_LD_FP w_p, V_MUL_VF (not for input-scaled routing)
//     scatter_combine      V_SCATTER_ADD per block into the accumulator row of token t
//   expert-major (--lowering expert, see Lowering): the router also scatters the weights into
//   R[t][e] (router_topk), and per expert e: expert_weight_address (static), prefetch and
//   projection over all T_pad rows, expert_bias / expert_activation on the token rows, the
//   down projection, expert_route_weight (S_LD_FP R[t][e], V_MUL_VF per token row) and
//   scatter_combine (V_ADD_VV per token row), in expert index order
//   with --shared, over all T_pad rows in BLEN-row groups:
//     shared_expert_projection  C_SET_ADDR/SCALE/STRIDE_REG, H_PREFETCH_M, M_MM, M_MM_WO (W1_s)
//     shared_expert_activation  SwiGLU on the real token rows
//     shared_expert_projection  (W2_s)
//     shared_expert_gate   (gated models) per token: dot product, sigmoid row, V_MUL_VV per block
//     scatter_combine      V_ADD_VV of each token's shared row into its accumulator row
//   non_moe                H_STORE_V of the accumulator to HBM (MXFP8)
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "moesim/isa/program.hpp"
#include "moesim/isa/spec.hpp"
#include "moesim/workload/presets.hpp"
#include "moesim/workload/program_fault.hpp"

namespace moesim::workload {

/// Which V_TOPK encoding the router uses: `automatic` takes the hardwired rmask of isa.yaml
/// `topk_policies` when one has exactly the (E, k) V_TOPK must select, else the register
/// policy; `register_policy` always uses rmask 15 after C_SET_TOPK_REG (E << 8) | k.
enum class TopkEncoding { automatic, register_policy };

/// Routed-expert lowering. `pair` (pair-major, plena_isa.md §4.2): one BLEN-row slot per
/// token-expert pair (row 0 the token), the selected expert's weights fetched per pair through
/// its id. `expert` (dense expert-major): per expert e = 0..E-1 its weights are fetched once
/// from a static address and all T_pad token rows go through it in BLEN-row groups; token t's
/// result is scaled by R[t][e] (the V_TOPK weight of e for t, +0 when t did not select e; R is
/// scattered into FP SRAM after the router) and added into t's accumulator row. A static
/// program (no branches, immediate loop counts) cannot skip the tokens an expert did not get,
/// so expert-major trades weight traffic (E expert fetches instead of T*k) for matrix work.
enum class Lowering { pair, expert };

struct BuildOptions {
  const ModelPreset* model = nullptr;
  unsigned tokens = 4;        ///< T (real tokens; padded to a multiple of HBM_V_ROWS and BLEN)
  unsigned hidden = 0;        ///< H; a multiple of VLEN (= MLEN)
  unsigned intermediate = 0;  ///< I per expert; a multiple of VLEN
  bool shared = false;        ///< add the model's shared expert (UsageError if it has none)
  /// I_s of the fused shared MLP; 0: the model's shared_intermediate scaled like I
  /// (model.shared_intermediate * intermediate / model.intermediate, when that is exact).
  unsigned shared_intermediate = 0;
  TopkEncoding topk = TopkEncoding::automatic;
  Lowering lowering = Lowering::pair;
  uint64_t seed = 1;
  /// A lowering bug to plant (`--plant-fault`, program_fault.hpp); both engines run the program
  /// alike and the independent reference or the stage profile must catch it. UsageError if the
  /// layer has nothing the fault applies to (score-scales-output on a model whose router does
  /// not scale the expert input, topk-shift-7 on a hardwired V_TOPK policy, ...).
  std::optional<ProgramFault> fault;
};

/// Matrix-unit work of one part of the layer (routed experts or the shared expert), counted
/// from the emitted loop structure: what the retired-instruction stream of that part contains.
struct Utilisation {
  std::string part;                  ///< "routed" or "shared"
  std::string lowering;              ///< "pair" or "expert" (routed), "all-tokens" (shared)
  uint64_t matrix_instructions = 0;  ///< M_MM + M_MM_WO retired
  uint64_t mm = 0;                   ///< M_MM retired
  uint64_t weight_tiles = 0;         ///< H_PREFETCH_M retired
  uint64_t weight_bytes = 0;         ///< HBM bytes they read (codes + scales)
  /// Activation rows an M_MM multiplies that hold a real token (the others are zero padding),
  /// averaged over the part's M_MMs; at most BLEN.
  double useful_rows_per_tile = 0;
};

/// An MXFP8 matrix in HBM: `rows` x `cols` E4M3 codes row-major at `base`, then the
/// rows x cols/MX_BLOCK E8M0 scales row-major at base + scale_offset (scale_offset = rows*cols).
struct MxMatrix {
  uint64_t base = 0;
  uint64_t rows = 0, cols = 0;
  uint64_t scale_offset = 0;
  uint64_t bytes = 0;  ///< codes + scales
};

/// Where everything is. VRAM addresses are element addresses (row r = r*VLEN); FP SRAM and
/// INT SRAM addresses are word addresses; HBM addresses are bytes.
struct Layout {
  unsigned tokens = 0, tokens_padded = 0, hidden = 0, intermediate = 0, experts = 0, top_k = 0;
  unsigned pairs = 0;        ///< tokens * top_k
  unsigned topk_select = 0;  ///< the k of V_TOPK: top_k, or E when norm_topk_prob is false
  unsigned topk_rmask = 0;   ///< isa.yaml topk_policies: hardwired (E, k) or the policy register
  unsigned logit_rows = 0;   ///< ceil(E / VLEN)
  Lowering lowering = Lowering::pair;
  unsigned shared_intermediate = 0;  ///< I_s (0: no shared expert in the program)
  bool shared_gate = false;          ///< the shared expert output is gated
  /// Routing kind (docs/workloads.md): softmax (V_TOPK's weights), sigmoid_biased
  /// (DeepSeek-V3 / Kimi-K2 / GLM-4.5: sigmoid, correction bias, groups, weights from the
  /// unbiased scores) or input_scaled (Llama-4: the route weight sigmoid(l_i) scales the
  /// expert input; the output is added unweighted).
  enum class Routing { softmax, sigmoid_biased, input_scaled } routing = Routing::softmax;
  /// DeepSeek-V3 groups; the group step is emitted only when topk_group < n_group.
  unsigned n_group = 1, topk_group = 1, group_rows = 0;
  bool group_limited() const { return topk_group < n_group; }

  // HBM
  MxMatrix x;   ///< T_pad x H input
  MxMatrix wr;  ///< E_pad x H router weight
  MxMatrix br;  ///< router bias, as rows of VLEN (E values then zeros); rows 0 if none
  MxMatrix b1;  ///< per expert 2I bias values, as E*2I/VLEN rows of VLEN (expert-major); or none
  MxMatrix b2;  ///< per expert H bias values, as E*H/VLEN rows of VLEN; or none
  uint64_t w1 = 0, w1_expert_bytes = 0;  ///< expert e's W1 (2I x H, MXFP8) at w1 + e*stride
  uint64_t w2 = 0, w2_expert_bytes = 0;  ///< expert e's W2 (H x I, MXFP8)
  MxMatrix ws1;  ///< shared W1 (2I_s x H: gate rows [0, I_s), up rows [I_s, 2I_s)); or none
  MxMatrix ws2;  ///< shared W2 (H x I_s); or none
  MxMatrix wg;   ///< shared gate weight: row 0 of HBM_V_ROWS x H is w_g; or none
  MxMatrix y;    ///< T_pad x H output (H_STORE_V)
  uint64_t hbm_input_end = 0;  ///< bytes [0, hbm_input_end) are the initial image

  // VRAM (element addresses)
  uint64_t v_x = 0, v_wr = 0, v_br = 0, v_b1 = 0, v_b2 = 0, v_logits = 0, v_tmp = 0;
  uint64_t v_groups = 0;  ///< DeepSeek-V3 group scores (group_rows rows; 0: no group step)
  uint64_t v_ein = 0;     ///< expert-major input_scaled: the scaled token rows (T_pad x H)
  // pair-major slots (BLEN rows per block; 0 for expert-major), the accumulator (T_pad x H)
  uint64_t v_in = 0, v_h1 = 0, v_act = 0, v_out = 0, v_acc = 0;
  // expert-major: [g, u] (T_pad x 2I), activation (T_pad x I), expert output (T_pad x H)
  uint64_t v_eh1 = 0, v_eact = 0, v_eout = 0;
  // shared expert: gate weight, a zero row, the gate row, [g, u] (T_pad x 2I_s), the
  // activation (T_pad x I_s) and the output (T_pad x H), all column-block-major
  uint64_t v_wg = 0, v_zero = 0, v_gate = 0, v_sh1 = 0, v_shact = 0, v_shout = 0;
  uint64_t vram_rows_used = 0;

  // FP SRAM (words)
  uint64_t fp_zero = 0;  ///< VLEN zero words
  uint64_t fp_limit = 0, fp_neg_limit = 0, fp_neg_alpha = 0, fp_one = 0, fp_neg_one = 0;
  uint64_t fp_logits = 0;  ///< logit scratch, logit_rows*VLEN words
  /// V_TOPK weights: rank j of token t at fp_weights + t*topk_select + j (pair p = t*k + j
  /// uses rank j = p % k)
  uint64_t fp_weights = 0;
  uint64_t fp_dense = 0;  ///< expert-major: R[t][e] at fp_dense + t*E + e (0: pair-major)
  // Sigmoid routing (scoring_func sigmoid; 0 when unused). DeepSeek-V3: s = sigmoid(l) is
  // written over the logits at fp_logits, s' = s + b at fp_biased (masked in place by the group
  // step), b at fp_bias (BF16, part of the initial image like the constants).
  uint64_t fp_biased = 0, fp_bias = 0;
  uint64_t fp_groups = 0;   ///< group scores, group_rows*VLEN words (V_TOPK reads whole rows)
  uint64_t fp_penalty = 0;  ///< per group: +0 (kept) or -inf (masked)
  uint64_t fp_group_w = 0;  ///< the group V_TOPK's softmax weights (not used)
  uint64_t fp_neg_inf = 0, fp_eps = 0, fp_rsf = 0;  ///< -inf, bf16(1e-20), bf16(rsf)
  uint64_t fp_words_used = 0;

  // INT SRAM (words)
  uint64_t int_ids = 0;     ///< V_TOPK ids: rank j of token t at int_ids + t*topk_select + j
  uint64_t int_tokens = 0;  ///< token index of pair p at int_tokens + p (static table)
  uint64_t int_groups = 0;  ///< DeepSeek-V3: ids of the kept groups (topk_group words)
  uint64_t int_words_used = 0;

  uint16_t alpha_bf16 = 0;  ///< bf16(alpha) bits (1.0 for swiglu)

  /// FP SRAM word of pair p's weight and INT SRAM word of its expert id.
  uint64_t weight_word(unsigned p) const { return fp_weights + rank_word(p); }
  uint64_t id_word(unsigned p) const { return int_ids + rank_word(p); }
  uint64_t rank_word(unsigned p) const { return uint64_t{p / top_k} * topk_select + p % top_k; }
};

struct BuiltProgram {
  std::string name;  ///< e.g. "gpt-oss-20b_T4_H128_I128_seed1.asm"
  std::string asm_text;
  isa::Program program;
  isa::MemoryImage image;
  Layout layout;
  std::vector<std::string> notes;        ///< lowering facts for reports (e.g. the BF16 alpha)
  std::vector<Utilisation> utilisation;  ///< routed, then shared (with --shared)
};

/// Builds the program and image. Throws UsageError naming the flag for sizes the machine preset
/// cannot hold (hidden/intermediate not multiples of VLEN, MRAM/VRAM/SRAM/HBM/IMEM too small,
/// tokens = 0), for --shared on a model without a shared expert, and naming the config.json
/// field and value for routing the builder cannot lower (docs/workloads.md: scoring_func other
/// than softmax / sigmoid; softmax with e_score_correction_bias, group limits or
/// routed_scaling_factor != 1; sigmoid without topk_method noaux_tc or with group limits it
/// cannot honour; norm_topk_prob false with E > 255). Assembly errors are internal
/// (std::logic_error): the text is generated.
BuiltProgram build_moe_layer(const isa::Spec& spec, const isa::MachinePreset& preset,
                             const BuildOptions& options);

}  // namespace moesim::workload
