// moesim RTL cover properties of moe_topk_unit, bound into it (docs/coverage.md).

`include "moe_cover.svh"

/* verilator lint_off SYNCASYNCNET */

/**
 * moe_topk_unit, on the unit's own clock: each state, each transition (StExp and StWgt stay one
 * more cycle only for k > 1), a NaN logit read as -inf, a logit that enters the full list
 * (evicting the last), and a softmax whose sum is not a positive finite number (every weight +0).
 */
module moe_topk_unit_cov (
  input logic clk_i,
  input logic rst_ni,
  input logic q_idle, q_scan, q_exp, q_wgt,
  input logic d_idle, d_scan, d_exp, d_wgt,
  input logic nan_logit,
  input logic list_full,
  input logic sum_bad
);
  `MOE_COVER(TopkStIdle_C, q_idle)
  `MOE_COVER(TopkStScan_C, q_scan)
  `MOE_COVER(TopkStExp_C,  q_exp)
  `MOE_COVER(TopkStWgt_C,  q_wgt)

  `MOE_COVER(TopkIdleToScan_C, q_idle && d_scan)
  `MOE_COVER(TopkScanToScan_C, q_scan && d_scan)
  `MOE_COVER(TopkScanToExp_C,  q_scan && d_exp)
  `MOE_COVER(TopkExpToExp_C,   q_exp && d_exp)
  `MOE_COVER(TopkExpToWgt_C,   q_exp && d_wgt)
  `MOE_COVER(TopkWgtToWgt_C,   q_wgt && d_wgt)
  `MOE_COVER(TopkWgtToIdle_C,  q_wgt && d_idle)

  `MOE_COVER(TopkNanLogit_C,  q_scan && nan_logit)
  `MOE_COVER(TopkListFull_C,  q_scan && list_full)
  `MOE_COVER(TopkSumBad_C,    q_wgt && sum_bad)
endmodule : moe_topk_unit_cov
