// moesim RTL cover properties of moe_vector_unit, bound into it (docs/coverage.md).

`include "moe_cover.svh"

/* verilator lint_off SYNCASYNCNET */

/**
 * moe_vector_unit, on the unit's own clock (it ticks in every start cycle and every non-idle
 * state): each state (q_<state>), each transition (q_<from> and d_<to>: the next state) the
 * schedule of docs/rtl.md takes (StRow to StFinal only when VLEN = 2: one tree level), each
 * operation started, a masked start and a start with the scalar operand.
 */
module moe_vector_unit_cov
  import moe_pkg::*;
#(
  parameter int unsigned VLEN = 64
) (
  input logic    clk_i,
  input logic    rst_ni,
  input logic    start_i,
  input vec_op_e op_i,
  input logic    masked_i,
  input logic    use_scalar_i,
  input logic    q_idle, q_row, q_tree, q_final, q_scan,
  input logic    d_idle, d_row, d_tree, d_final, d_scan
);
  `MOE_COVER(VecStIdle_C,  q_idle)
  `MOE_COVER(VecStRow_C,   q_row)
  `MOE_COVER(VecStTree_C,  q_tree)
  `MOE_COVER(VecStFinal_C, q_final)
  `MOE_COVER(VecStScan_C,  q_scan)

  `MOE_COVER(VecIdleToRow_C,    q_idle && d_row)
  `MOE_COVER(VecIdleToScan_C,   q_idle && d_scan)
  `MOE_COVER(VecScanToScan_C,   q_scan && d_scan)
  `MOE_COVER(VecScanToIdle_C,   q_scan && d_idle)
  `MOE_COVER(VecRowToIdle_C,    q_row && d_idle)
  if (VLEN > 2) begin : g_tree
    `MOE_COVER(VecRowToTree_C,  q_row && d_tree)
    `MOE_COVER(VecTreeToTree_C, q_tree && d_tree)
    `MOE_COVER(VecTreeToFinal_C, q_tree && d_final)
  end else begin : g_no_tree
    `MOE_COVER(VecRowToFinal_C, q_row && d_final)
  end
  `MOE_COVER(VecFinalToIdle_C,  q_final && d_idle)

  logic go;
  assign go = start_i && q_idle;
  `MOE_COVER(VecOpAdd_C,    go && op_i == VEC_ADD)
  `MOE_COVER(VecOpSub_C,    go && op_i == VEC_SUB)
  `MOE_COVER(VecOpMul_C,    go && op_i == VEC_MUL)
  `MOE_COVER(VecOpMax_C,    go && op_i == VEC_MAX)
  `MOE_COVER(VecOpMin_C,    go && op_i == VEC_MIN)
  `MOE_COVER(VecOpExp_C,    go && op_i == VEC_EXP)
  `MOE_COVER(VecOpReci_C,   go && op_i == VEC_RECI)
  `MOE_COVER(VecOpRedSum_C, go && op_i == VEC_RED_SUM)
  `MOE_COVER(VecOpCopy_C,   go && op_i == VEC_COPY)
  `MOE_COVER(VecOpRsub_C,   go && op_i == VEC_RSUB)
  `MOE_COVER(VecOpRedMax_C, go && op_i == VEC_RED_MAX)
  `MOE_COVER(VecOpPs_C,     go && op_i == VEC_PS)
  `MOE_COVER(VecOpShift_C,  go && op_i == VEC_SHIFT)
  `MOE_COVER(VecMasked_C,   go && masked_i)
  `MOE_COVER(VecScalarB_C,  go && use_scalar_i)
endmodule : moe_vector_unit_cov
