// MoE program builder (DESIGN.md §7): a routed GPT-OSS-style MoE layer, pair-major, as
// assembly TEXT with `; @stage=` markers (assembled with isa::assemble, so the text path is the
// one every run exercises) plus the initial memory image from a seeded generator.
//
// Math (shared/reference/models.md, routing function 9), per token t with input x (H values):
//   l = W_r x + b_r (E logits);  S, w = V_TOPK(l) (top-k, softmax over the selected logits)
//   per selected expert i: [g, u] = W1_i x + b1_i;  g = min(g, 7);  u = clamp(u, -7, 7)
//                          h = (u + 1) * (g * sigmoid(alpha * g));  e_i = W2_i h + b2_i
//   y_t = sum_i w_i e_i
// with every step in the machine's numerics (BF16 storage, FP32 RNE arithmetic, MXFP8 weights).
// Differences from the float model, stated once:
//   * alpha is the BF16 constant bf16(1.702) = 1.703125 (0x3FDA); sigmoid(a*g) is computed as
//     1 / (1 + exp(-a*g)) with V_MUL_VF(-a), V_EXP_V, V_ADD_VF(1), V_RECI_V.
//   * HF stores gate_up_proj interleaved (gate = even, up = odd output columns); the builder
//     stores W1 de-interleaved (output columns [0, I) gate, [I, 2I) up), which is the same
//     matrix with its rows permuted.
//
// Lowering (plena_isa.md §4.2, pair-major): inputs and weights live in HBM as MXFP8 (values are
// drawn, rounded to BF16 and quantised with num::mx_quantize, so H_PREFETCH_V loads them
// exactly). Activations in VRAM are column-block-major: block b of an R-row matrix at
// base + b*R*VLEN, row r at + r*VLEN. The program, in stage order:
//   residual_setup         H_PREFETCH_V of X (T_pad x H), W_r (E x H) and all biases
//   router_topk            per token: per expert V_MUL_VV + V_RED_SUM over H/VLEN blocks into an
//                          f-reg zeroed by S_LD_FP from a zero FP SRAM word, S_ST_FP, then
//                          S_MAP_V_FP into a logit row, V_ADD_VV router bias, V_TOPK (ids to
//                          INT SRAM, weights to FP SRAM)
//   accumulator_init       S_MAP_V_FP of a zero FP SRAM row into the T_pad x H accumulator and
//                          into rows 1..BLEN-1 of the pair slots
//   per pair p = t*k + j (unrolled; loops inside):
//     gather               V_GATHER per H/VLEN block into row 0 of the BLEN-row input slot
//     expert_weight_address  S_LD_INT id, S_MUL_INT by the expert's byte stride, S_ADD_INT base,
//                          C_SET_ADDR_REG, C_SET_SCALE_REG, C_SET_STRIDE_REG
//     expert_weight_prefetch H_PREFETCH_M, one MLEN x MLEN tile per K chunk of an output tile
//     expert_projection    per BLEN-column group: M_MM per K tile in K order, M_MM_WO
//     expert_bias          V_ADD_VV of the expert's bias rows onto row 0
//     expert_activation    clamped SwiGLU on row 0 into the BLEN-row activation slot
//     (down projection: the same four stages with W2)
//     expert_route_weight  S_LD_FP w_p, V_MUL_VF
//     scatter_combine      V_SCATTER_ADD per block into the accumulator row of token t
//   non_moe                H_STORE_V of the accumulator to HBM (MXFP8)
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "moesim/isa/program.hpp"
#include "moesim/isa/spec.hpp"
#include "moesim/sim/presets.hpp"

namespace moesim::sim {

struct BuildOptions {
  const ModelPreset* model = nullptr;
  unsigned tokens = 4;        ///< T (real tokens; padded to a multiple of HBM_V_ROWS)
  unsigned hidden = 0;        ///< H; a multiple of VLEN (= MLEN)
  unsigned intermediate = 0;  ///< I per expert; a multiple of VLEN
  uint64_t seed = 1;
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
  unsigned pairs = 0;       ///< tokens * top_k
  unsigned topk_rmask = 0;  ///< isa.yaml topk_policies: hardwired (E, k) or the policy register
  unsigned logit_rows = 0;  ///< ceil(E / VLEN)

  // HBM
  MxMatrix x;   ///< T_pad x H input
  MxMatrix wr;  ///< E_pad x H router weight
  MxMatrix br;  ///< router bias, as rows of VLEN (E values then zeros)
  MxMatrix b1;  ///< per expert 2I bias values, as E*2I/VLEN rows of VLEN (expert-major)
  MxMatrix b2;  ///< per expert H bias values, as E*H/VLEN rows of VLEN
  uint64_t w1 = 0, w1_expert_bytes = 0;  ///< expert e's W1 (2I x H, MXFP8) at w1 + e*stride
  uint64_t w2 = 0, w2_expert_bytes = 0;  ///< expert e's W2 (H x I, MXFP8)
  MxMatrix y;                            ///< T_pad x H output (H_STORE_V)
  uint64_t hbm_input_end = 0;            ///< bytes [0, hbm_input_end) are the initial image

  // VRAM (element addresses)
  uint64_t v_x = 0, v_wr = 0, v_br = 0, v_b1 = 0, v_b2 = 0, v_logits = 0, v_tmp = 0;
  uint64_t v_in = 0, v_h1 = 0, v_act = 0, v_out = 0, v_acc = 0;
  uint64_t vram_rows_used = 0;

  // FP SRAM (words)
  uint64_t fp_zero = 0;  ///< VLEN zero words
  uint64_t fp_limit = 0, fp_neg_limit = 0, fp_neg_alpha = 0, fp_one = 0;
  uint64_t fp_logits = 0;   ///< logit scratch, logit_rows*VLEN words
  uint64_t fp_weights = 0;  ///< route weight of pair p at fp_weights + p (V_TOPK)
  uint64_t fp_words_used = 0;

  // INT SRAM (words)
  uint64_t int_ids = 0;     ///< expert id of pair p at int_ids + p (V_TOPK)
  uint64_t int_tokens = 0;  ///< token index of pair p at int_tokens + p (static table)
  uint64_t int_words_used = 0;

  uint16_t alpha_bf16 = 0;  ///< bf16(alpha) bits
};

struct BuiltProgram {
  std::string name;  ///< e.g. "gpt-oss-20b_T4_H128_I128_seed1.asm"
  std::string asm_text;
  isa::Program program;
  isa::MemoryImage image;
  Layout layout;
  std::vector<std::string> notes;  ///< lowering facts for reports (e.g. the BF16 alpha)
};

/// Builds the program and image. Throws UsageError naming the flag for sizes the machine preset
/// cannot hold (hidden/intermediate not multiples of VLEN, MRAM/VRAM/SRAM/HBM/IMEM too small,
/// tokens = 0) and for models the builder cannot lower. Assembly errors are internal
/// (std::logic_error): the text is generated.
BuiltProgram build_moe_layer(const isa::Spec& spec, const isa::MachinePreset& preset,
                             const BuildOptions& options);

}  // namespace moesim::sim
