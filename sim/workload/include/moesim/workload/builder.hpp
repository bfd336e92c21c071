// MoE program builder: one MoE layer of a model preset (routed experts, optionally the shared
// expert) as assembly text with `; @stage=` markers, assembled with isa::assemble, plus its
// initial memory image from a seeded generator.
//
// build_moe_layer() takes the ISA spec, a machine preset and BuildOptions (model, scaled sizes,
// --shared, V_TOPK encoding, lowering, seed); it returns a BuiltProgram (the text,
// the assembled program, the image, the Layout of every address, notes and per-part
// utilisation) and throws UsageError for what the machine or the builder cannot hold or lower
// (see its declaration). The layer's math, the differences from the float model, the memory
// layout and the emitted sequence per stage: docs/workloads.md, Lowering.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "moesim/isa/program.hpp"
#include "moesim/isa/spec.hpp"
#include "moesim/workload/presets.hpp"

namespace moesim::workload {

/// Which V_TOPK encoding the router uses: `automatic` takes the hardwired rmask of isa.yaml
/// `topk_policies` when one has exactly the (E, k) V_TOPK must select, else the register
/// policy; `register_policy` always uses rmask 15 after C_SET_TOPK_REG (E << 8) | k.
enum class TopkEncoding { automatic, register_policy };

/// Routed-expert lowering (docs/workloads.md, Lowering). `pair` (pair-major): one BLEN-row
/// slot per token-expert pair (row 0 the token), the selected expert's weights fetched per pair
/// through its id. `expert` (dense expert-major): per expert e = 0..E-1 its weights are fetched
/// once from a static address and all T_pad token rows go through it in BLEN-row groups; token
/// t's result is scaled by R[t][e] (the V_TOPK weight of e for t, +0 when t did not select e; R
/// is scattered into FP SRAM after the router) and added into t's accumulator row. A static
/// program (no branches, immediate loop counts) cannot skip the tokens an expert did not get,
/// so expert-major trades weight traffic (E expert fetches instead of T*k) for matrix work.
enum class Lowering { pair, expert };

/// A layer's weights from outside the seeded generator (a Hugging Face checkpoint,
/// hf_checkpoint.hpp). Each call writes one tensor's values as BF16 bits, row-major, into `out`
/// (resized by the callee); the builder quantises them to MXFP8 as it quantises drawn values
/// (num::mx_quantize, docs/numerics.md). The router and the routed experts always; the ungated
/// shared expert and the correction bias when the layer has them and has_shared() /
/// has_correction_bias() say the source holds them. No biases, no shared expert gate.
class LayerWeights {
 public:
  virtual ~LayerWeights() = default;
  virtual void router(std::vector<uint16_t>& out) const = 0;  ///< W_r: E x H
  /// Expert e's W1: 2I x H, the gate projection's rows [0, I), the up projection's [I, 2I).
  virtual void expert_w1(unsigned e, std::vector<uint16_t>& out) const = 0;
  virtual void expert_w2(unsigned e, std::vector<uint16_t>& out) const = 0;  ///< W2: H x I
  virtual bool has_shared() const { return false; }
  /// The fused shared expert's W1 (2 I_s x H, gate rows then up rows) and W2 (H x I_s).
  virtual void shared_w1(std::vector<uint16_t>& out) const;
  virtual void shared_w2(std::vector<uint16_t>& out) const;
  virtual bool has_correction_bias() const { return false; }
  virtual void correction_bias(std::vector<uint16_t>& out) const;  ///< E values
};

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
  uint64_t seed = 1;  ///< the input X (and, without `weights`, every weight) is drawn from it
  /// When set, the layer's weights (sizes: the options' hidden, intermediate, shared
  /// intermediate and the model's E); the layer may then have no biases and no shared expert
  /// gate, its shared expert and correction bias must be in `weights`, and no recorded routing is
  /// given (std::logic_error otherwise).
  const LayerWeights* weights = nullptr;
  /// When not empty, the input X: `tokens` x `hidden` BF16 values row-major (read_hidden_states,
  /// hf_checkpoint.hpp) instead of drawn ones; quantised as drawn values are.
  std::vector<uint16_t> inputs;
  /// Recorded routing (docs/route_traces.md): when not empty, one entry per token; the router's
  /// weight W_r is zero (its dot products still run and give +0 logits), then the BF16 logit
  /// logits_bf16[j] is written at expert ids[j] before V_TOPK, so V_TOPK selects exactly the
  /// recorded experts in rank order (the logits must be > +0 and strictly decreasing). Needs a
  /// softmax router with norm_topk_prob and no router bias (the CLI replaces the model's).
  struct RecordedRoute {
    std::vector<uint32_t> ids;
    std::vector<uint16_t> logits_bf16;
  };
  std::vector<RecordedRoute> recorded;
  /// One EP rank's program of a deployment (docs/deployments.md, Per-rank programs; built by
  /// build_deployment, deployment_build.hpp): the router as in the layer, then the rank's expert
  /// mask applied on the accelerator to every token's k routed columns, then `shared` fused
  /// shared columns per token, pair-major. The HBM holds `local_routed` + `shared` expert weight
  /// slots and one zero sentinel slot. Without an initial image: build_deployment makes it.
  struct RankProgram {
    unsigned local_routed = 0;    ///< P / EP routed slots
    unsigned shared = 0;          ///< S fused shared slots (after the routed ones)
    unsigned modulus = 1;         ///< C: the mask tables have C rows of E entries (row t mod C)
    std::vector<bool> own_token;  ///< per token: this rank computes its shared columns
  };
  std::optional<RankProgram> rank;
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
  /// Routing kind (docs/workloads.md): softmax (V_TOPK's weights; DeepSeek-V2: group-limited,
  /// times routed_scaling_factor), sigmoid_biased
  /// (DeepSeek-V3 / Kimi-K2 / GLM-4.5: sigmoid, correction bias, groups, weights from the
  /// unbiased scores) or input_scaled (Llama-4: the route weight sigmoid(l_i) scales the
  /// expert input; the output is added unweighted).
  enum class Routing { softmax, sigmoid_biased, input_scaled } routing = Routing::softmax;
  /// DeepSeek-V3 / -V2 groups; the group step is emitted only when topk_group < n_group.
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
  // Group-limited softmax routing (DeepSeek-V2 group_limited_greedy): the masked logits
  // l + P[group] at fp_biased; with norm_topk_prob false the full softmax of V_TOPK over all E
  // scattered by expert id into fp_scores (E words), from which the selected weights are read.
  uint64_t fp_scores = 0;
  uint64_t fp_groups = 0;   ///< group scores, group_rows*VLEN words (V_TOPK reads whole rows)
  uint64_t fp_penalty = 0;  ///< per group: +0 (kept) or -inf (masked)
  uint64_t fp_group_w = 0;  ///< the group V_TOPK's softmax weights (not used)
  uint64_t fp_neg_inf = 0, fp_eps = 0, fp_rsf = 0;  ///< -inf, bf16(1e-20), bf16(rsf)
  /// Recorded routing: the BF16 logit of rank j of token t at fp_recorded + t*top_k + j (0: none)
  uint64_t fp_recorded = 0;
  uint64_t fp_words_used = 0;

  // INT SRAM (words)
  uint64_t int_ids = 0;     ///< V_TOPK ids: rank j of token t at int_ids + t*topk_select + j
  uint64_t int_tokens = 0;  ///< token index of pair p at int_tokens + p (static table)
  uint64_t int_groups = 0;  ///< DeepSeek-V3: ids of the kept groups (topk_group words)
  uint64_t int_words_used = 0;

  uint16_t alpha_bf16 = 0;  ///< bf16(alpha) bits (1.0 for swiglu)

  /// A deployment rank's program (BuildOptions::rank; 0 / unused otherwise): `columns` pairs per
  /// token (top_k + S), `expert_slots` weight slots in HBM (local routed + S shared + the zero
  /// sentinel, the last), the masked routing the pairs read (INT SRAM int_pair_ids + p: the
  /// local slot of pair p; FP SRAM fp_pair_weights + p: its weight) and the mask tables of the
  /// initial image (row c = t mod mask_modulus, column = the logical expert V_TOPK selected:
  /// INT SRAM int_local_of + c*E + g the local slot or the sentinel, FP SRAM fp_keep + c*E + g
  /// 1.0 or +0).
  unsigned columns = 0, expert_slots = 0, mask_modulus = 0;
  uint64_t int_pair_ids = 0, int_local_of = 0, fp_pair_weights = 0, fp_keep = 0;
  bool rank_program() const { return columns != 0; }
  unsigned pair_columns() const { return columns != 0 ? columns : top_k; }
  /// INT SRAM word of pair p's expert (slot) id and FP SRAM word of its route weight: V_TOPK's
  /// words, or in a rank program the masked routing.
  uint64_t pair_id_word(unsigned p) const { return rank_program() ? int_pair_ids + p : id_word(p); }
  uint64_t pair_weight_word(unsigned p) const {
    return rank_program() ? fp_pair_weights + p : weight_word(p);
  }

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
  /// BuildOptions::recorded, kept for the reference (empty: the model's router).
  std::vector<BuildOptions::RecordedRoute> recorded;
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

/// The routing shape every use of a model needs, a deployment's shapes included: top-k in 1..E
/// (the first check of check_model_routing; throws its ModelError).
void check_model_top_k(const ModelPreset& model);

/// The routing checks of build_moe_layer that need no machine preset (top-k in 1..E, and the
/// config.json fields of a router the builder cannot lower): throws the same UsageError.
void check_model_routing(const ModelPreset& model);

}  // namespace moesim::workload
