// moesim RTL assertions: the handshake checker of moe_scalar_unit (S_MAP_V_FP), bound into it (docs/assertions.md).

`include "moe_assert.svh"

// `disable iff (!rst_ni)` reads the asynchronous reset as a synchronous condition; the
// SYNCASYNCNET lint reports that on the design's rst_ni net: waived for the checker only.
/* verilator lint_off SYNCASYNCNET */

/**
 * A multi-cycle unit's handshake with the core, bound into the unit and checked on the unit's
 * own clock, which ticks in every cycle its busy output is high, so in every start cycle and in
 * every non-idle state: <Unit>StartIdle_A, start only while the unit is idle (idle_i, from the
 * unit's state); VecStateLegal_A, the vector unit's 3-bit state register holds one of its five
 * state_e codes (the top-k and matrix units' four states fill their 2-bit registers; the DMA
 * unit and S_MAP_V_FP keep a busy flag, not an encoded state).
 */
module moe_map_sva (
  input logic clk_i,
  input logic rst_ni,
  input logic start_i,
  input logic idle_i
);
  `MOE_ASSERT(MapStartIdle_A, start_i |-> idle_i,
              "moe_scalar_unit: S_MAP_V_FP started while one runs")
endmodule : moe_map_sva
