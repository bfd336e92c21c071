// moesim RTL: IEEE-754 binary32 multiplier (round to nearest even, subnormals kept).

/**
 * Combinational binary32 multiplier, the FP32 multiply of the numerics contract (isa_spec,
 * docs/numerics.md).
 *
 * y = a * b rounded to nearest, ties to even. Subnormal inputs and results are kept (no flush),
 * overflow gives +-inf, 0 * inf gives NaN, every NaN result is the canonical 0x7FC00000; the sign
 * of zero and inf results is the XOR of the operand signs.
 *
 * Datapath: 24 x 24-bit significand product (a subnormal counts as exponent 1 without hidden
 * bit), normalised by its leading-zero count so bit 47 is set. The biased result exponent is
 * ea + eb - 126 - lzc. If it is below 1 the product is shifted right by 1 - exponent (sticky
 * kept) and packed as a subnormal. Rounding adds one ulp to the packed {exponent, fraction}, so
 * a carry moves into the exponent (subnormal to normal, largest normal to inf).
 */
module moe_fp32_mul (
  input  logic [31:0] a_i,
  input  logic [31:0] b_i,
  output logic [31:0] y_o
);

  localparam logic [31:0] CANON_NAN = 32'h7FC0_0000;

  logic a_nan, b_nan, a_inf, b_inf, a_zero, b_zero, sign;
  assign a_nan  = (a_i[30:23] == 8'hFF) && (a_i[22:0] != 23'd0);
  assign b_nan  = (b_i[30:23] == 8'hFF) && (b_i[22:0] != 23'd0);
  assign a_inf  = (a_i[30:23] == 8'hFF) && (a_i[22:0] == 23'd0);
  assign b_inf  = (b_i[30:23] == 8'hFF) && (b_i[22:0] == 23'd0);
  assign a_zero = (a_i[30:0] == 31'd0);
  assign b_zero = (b_i[30:0] == 31'd0);
  assign sign   = a_i[31] ^ b_i[31];

  logic [23:0] a_sig, b_sig;
  logic [9:0]  a_exp, b_exp;
  assign a_sig = {(a_i[30:23] != 8'd0), a_i[22:0]};
  assign b_sig = {(b_i[30:23] != 8'd0), b_i[22:0]};
  assign a_exp = (a_i[30:23] == 8'd0) ? 10'd1 : {2'd0, a_i[30:23]};
  assign b_exp = (b_i[30:23] == 8'd0) ? 10'd1 : {2'd0, b_i[30:23]};

  logic [47:0] prod;
  assign prod = 48'(a_sig) * 48'(b_sig);

  // Normalisation: leading zeros of the product, then one shift so prod_norm[47] is set (the
  // product is non-zero where it is used).
  logic [5:0]  lzc;
  logic [47:0] prod_norm;
  moe_lzc #(
    .WIDTH (48)
  ) u_lzc (
    .in_i  (prod),
    .cnt_o (lzc)
  );
  assign prod_norm = prod << lzc;

  // Biased result exponent (signed: may be far below 1).
  logic signed [11:0] res_exp;
  assign res_exp = $signed({2'd0, a_exp}) + $signed({2'd0, b_exp}) - 12'sd126
                   - $signed({6'd0, lzc});

  // Subnormal results: shift right by 1 - res_exp (26 or more leaves only sticky bits).
  // keep holds the 23 fraction bits and the guard bit; sticky ORs every bit below the guard,
  // including those shifted out.
  logic [5:0]  rshift;
  logic [47:0] denorm;
  logic [23:0] keep;     // [23:1] fraction (the hidden bit is implied by res_exp), [0] guard
  logic        sticky;
  always_comb begin
    rshift = 6'd0;
    if (res_exp < 12'sd1) begin
      rshift = (res_exp < -12'sd24) ? 6'd26 : 6'(12'sd1 - res_exp);
    end
    denorm = prod_norm >> rshift;
    keep   = denorm[46:23];
    sticky = (|denorm[22:0]) || ((denorm << rshift) != prod_norm);
  end
  // denorm[47] is the hidden bit: implied by res_exp (set exactly when the result is normal).
  logic unused_hidden;
  assign unused_hidden = denorm[47];

  logic [30:0] packed_mag, rounded_mag;
  logic        round_up;
  assign packed_mag  = {((res_exp >= 12'sd1) ? res_exp[7:0] : 8'd0), keep[23:1]};
  assign round_up    = keep[0] & (sticky | keep[1]);
  assign rounded_mag = packed_mag + {30'd0, round_up};

  always_comb begin
    if (a_nan || b_nan || (a_inf && b_zero) || (b_inf && a_zero)) begin
      y_o = CANON_NAN;
    end else if (a_inf || b_inf) begin
      y_o = {sign, 8'hFF, 23'd0};
    end else if (a_zero || b_zero) begin
      y_o = {sign, 31'd0};
    end else if (res_exp >= 12'sd255) begin
      y_o = {sign, 8'hFF, 23'd0};
    end else begin
      y_o = {sign, rounded_mag};
    end
  end

endmodule
