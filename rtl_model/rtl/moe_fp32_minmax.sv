// moesim RTL: binary32 maximum / minimum with canonical NaN and ordered signed zeros.

/**
 * Combinational FP32 max/min of the numerics contract (V_MAX_VF / V_MIN_VF, isa.yaml).
 *
 * y = max(a, b) when max_i, else min(a, b). A NaN operand gives the canonical NaN 0x7FC00000.
 * -0 orders below +0, so max(-0, +0) = +0 and min(-0, +0) = -0. Implemented as an unsigned
 * compare of order-preserving keys (negative: all bits inverted; positive: sign bit set).
 */
module moe_fp32_minmax (
  input  logic [31:0] a_i,
  input  logic [31:0] b_i,
  input  logic        max_i,
  output logic [31:0] y_o
);

  localparam logic [31:0] CANON_NAN = 32'h7FC0_0000;

  logic a_nan, b_nan;
  assign a_nan = (a_i[30:23] == 8'hFF) && (a_i[22:0] != 23'd0);
  assign b_nan = (b_i[30:23] == 8'hFF) && (b_i[22:0] != 23'd0);

  logic [31:0] a_key, b_key;
  assign a_key = a_i[31] ? ~a_i : {1'b1, a_i[30:0]};
  assign b_key = b_i[31] ? ~b_i : {1'b1, b_i[30:0]};

  logic a_greater;
  assign a_greater = (a_key > b_key);

  always_comb begin
    if (a_nan || b_nan) begin
      y_o = CANON_NAN;
    end else if (max_i) begin
      y_o = a_greater ? a_i : b_i;
    end else begin
      y_o = a_greater ? b_i : a_i;
    end
  end

endmodule
