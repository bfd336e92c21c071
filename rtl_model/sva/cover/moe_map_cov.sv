// moesim RTL cover properties of S_MAP_V_FP in moe_scalar_unit, bound into it (docs/coverage.md).

`include "moe_cover.svh"

/* verilator lint_off SYNCASYNCNET */

/**
 * moe_scalar_unit's S_MAP_V_FP walk (a busy flag, not an encoded state), on the free-running
 * clock: a walk starts from idle, runs, and ends (busy to idle); a walk starts in the cycle
 * after the previous one ended (two S_MAP_V_FP back to back).
 */
module moe_map_cov (
  input logic clk_i,
  input logic rst_ni,
  input logic start_i,
  input logic busy_q,
  input logic done_i
);
  logic done_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) done_q <= 1'b0;
    else done_q <= done_i;
  end
  `MOE_COVER(MapIdleToBusy_C,  start_i && !busy_q)
  `MOE_COVER(MapBusy_C,        busy_q)
  `MOE_COVER(MapBusyToIdle_C,  busy_q && done_i)
  `MOE_COVER(MapBackToBack_C,  start_i && done_q)
endmodule : moe_map_cov
