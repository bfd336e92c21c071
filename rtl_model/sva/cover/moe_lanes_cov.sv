// moesim RTL coverage: per-lane probes of the buses that toggle coverage skips (docs/coverage.md).

// The probes only read their bus: every lane is an input nothing uses.
/* verilator lint_off UNUSEDSIGNAL */
/* verilator lint_off UNUSEDPARAM */

/**
 * Toggle coverage (--coverage-toggle) skips a signal of more than --coverage-max-width bits
 * (256), and every signal declared inside a generate block. A VRAM row (VLEN x 16 bits), an MRAM
 * row (MLEN code bytes + MLEN/MX_BLOCK scale bytes) and an HBM beat (HBM_BYTES_PER_CYCLE bytes)
 * are wider, so moe_lanes_cov, bound to such a bus, cuts it into W / LANE lanes and hands each to
 * a moe_lane_cov instance, whose LANE-bit input port is toggle-covered like any narrow signal:
 * one toggle point per bit of the bus, named by the lane's instance (u_lanes_<bus>.g_lane[i]).
 */
module moe_lanes_cov #(
  parameter int unsigned W    = 1024,
  parameter int unsigned LANE = 16
) (
  input logic [W-1:0] bus_i
);
  if ((W % LANE) != 0) begin : g_bad_lane
    $error("moe_lanes_cov: the bus width must be a multiple of the lane width");
  end
  for (genvar l = 0; l < int'(W / LANE); l++) begin : g_lane
    moe_lane_cov #(.LANE(LANE)) u_lane (.lane_i(bus_i[l*LANE +: LANE]));
  end
endmodule : moe_lanes_cov
