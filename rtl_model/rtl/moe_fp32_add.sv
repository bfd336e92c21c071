// moesim RTL: IEEE-754 binary32 adder (round to nearest even, subnormals kept).

/**
 * Combinational binary32 adder, the FP32 add of the numerics contract (isa_spec, docs/numerics.md).
 *
 * y = a + b rounded to nearest, ties to even. Subnormal inputs and results are kept (no flush),
 * overflow gives +-inf, inf + -inf gives NaN, every NaN result is the canonical 0x7FC00000. An
 * exact zero sum is +0 unless both operands are -0.
 *
 * Datapath: the larger-magnitude operand L and the smaller S are unpacked to 24-bit
 * significands at a common exponent (a subnormal counts as exponent 1 without hidden bit). S is
 * shifted right by the exponent difference keeping guard, round and sticky bits, then added to or
 * subtracted from L (28 bits: carry, 24 significand bits, G, R, S). A carry is normalised by one
 * right shift; a cancellation by a left shift of the leading-zero count, limited so that the
 * exponent does not go below 1 (the result is then subnormal). Rounding adds one ulp to the
 * packed {exponent, fraction}, so a carry out of the fraction moves into the exponent
 * (subnormal to normal, largest normal to inf) without a second normalisation.
 */
module moe_fp32_add (
  input  logic [31:0] a_i,
  input  logic [31:0] b_i,
  output logic [31:0] y_o
);

  localparam logic [31:0] CANON_NAN = 32'h7FC0_0000;

  // Operand classes.
  logic a_nan, b_nan, a_inf, b_inf;
  assign a_nan = (a_i[30:23] == 8'hFF) && (a_i[22:0] != 23'd0);
  assign b_nan = (b_i[30:23] == 8'hFF) && (b_i[22:0] != 23'd0);
  assign a_inf = (a_i[30:23] == 8'hFF) && (a_i[22:0] == 23'd0);
  assign b_inf = (b_i[30:23] == 8'hFF) && (b_i[22:0] == 23'd0);

  // Order the operands by magnitude: l is the larger (or equal) one.
  logic        swap;
  logic [31:0] l_op, s_op;
  assign swap = (b_i[30:0] > a_i[30:0]);
  assign l_op = swap ? b_i : a_i;
  assign s_op = swap ? a_i : b_i;

  logic        l_sign, s_sign, eff_sub;
  logic [7:0]  l_exp, s_exp;
  logic [23:0] l_sig, s_sig;
  assign l_sign  = l_op[31];
  assign s_sign  = s_op[31];
  assign eff_sub = l_sign ^ s_sign;
  assign l_exp   = (l_op[30:23] == 8'd0) ? 8'd1 : l_op[30:23];
  assign s_exp   = (s_op[30:23] == 8'd0) ? 8'd1 : s_op[30:23];
  assign l_sig   = {(l_op[30:23] != 8'd0), l_op[22:0]};
  assign s_sig   = {(s_op[30:23] != 8'd0), s_op[22:0]};

  // Alignment of the smaller operand: 27 bits {sig, G, R} plus a 32-bit tail that becomes sticky.
  logic [7:0]  exp_diff;
  logic [4:0]  shamt;
  logic [58:0] s_shifted;
  logic [26:0] s_aligned;
  assign exp_diff  = l_exp - s_exp;
  assign shamt     = (exp_diff > 8'd31) ? 5'd31 : exp_diff[4:0];
  assign s_shifted = {s_sig, 35'd0} >> shamt;
  assign s_aligned = {s_shifted[58:33], s_shifted[32] | (|s_shifted[31:0])};

  // Significand add/subtract: [27] carry, [26:3] significand, [2:0] guard/round/sticky.
  logic [27:0] sum;
  assign sum = eff_sub ? ({1'b0, l_sig, 3'd0} - {1'b0, s_aligned})
                       : ({1'b0, l_sig, 3'd0} + {1'b0, s_aligned});

  // Leading zeros of sum[26:0] (only used when sum[27:0] != 0, so the count is at most 26).
  logic [4:0] lzc;
  moe_lzc #(
    .WIDTH (27)
  ) u_lzc (
    .in_i  (sum[26:0]),
    .cnt_o (lzc)
  );

  // Normalisation.
  logic [26:0] norm;    // [26] hidden bit, [25:3] fraction, [2:0] G/R/S
  logic [8:0]  norm_exp;
  logic [4:0]  lshift;
  always_comb begin
    lshift = 5'd0;
    if (sum[27]) begin
      norm     = {sum[27:2], sum[1] | sum[0]};
      norm_exp = {1'b0, l_exp} + 9'd1;
    end else begin
      // Keep the exponent >= 1; a result left with norm[26] == 0 is subnormal.
      lshift   = ({4'd0, lzc} < ({1'b0, l_exp} - 9'd1)) ? lzc : 5'((l_exp - 8'd1));
      norm     = sum[26:0] << lshift;
      norm_exp = {1'b0, l_exp} - {4'd0, lshift};
    end
  end

  // Round to nearest even on the packed magnitude.
  logic [30:0] packed_mag, rounded_mag;
  logic        round_up;
  assign packed_mag  = {(norm[26] ? norm_exp[7:0] : 8'd0), norm[25:3]};
  assign round_up    = norm[2] & (norm[1] | norm[0] | norm[3]);
  assign rounded_mag = packed_mag + {30'd0, round_up};

  // Result selection.
  always_comb begin
    if (a_nan || b_nan || (a_inf && b_inf && (a_i[31] != b_i[31]))) begin
      y_o = CANON_NAN;
    end else if (a_inf || b_inf) begin
      y_o = a_inf ? a_i : b_i;
    end else if (sum == 28'd0) begin
      // Exact zero (both operands zero, or exact cancellation): -0 only for -0 + -0.
      y_o = {a_i[31] & b_i[31], 31'd0};
    end else if (norm_exp >= 9'd255) begin
      y_o = {l_sign, 8'hFF, 23'd0};
    end else begin
      y_o = {l_sign, rounded_mag};
    end
  end

endmodule
