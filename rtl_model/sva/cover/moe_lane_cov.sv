// moesim RTL coverage: one lane of a wide bus, toggle-covered (moe_lanes_cov, docs/coverage.md).

// A probe only reads its lane.
/* verilator lint_off UNUSEDSIGNAL */

/** One LANE-bit lane of a bus that toggle coverage skips as a whole: lane_i is covered bit by bit. */
module moe_lane_cov #(
  parameter int unsigned LANE = 16
) (
  input logic [LANE-1:0] lane_i
);
endmodule : moe_lane_cov
