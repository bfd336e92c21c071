// moesim RTL: MXFP8 quantisation of one block of N BF16 values (H_STORE_V).

/**
 * Combinational OCP MX v1.0 block quantiser (isa.yaml H_STORE_V), integer arithmetic only.
 *
 * If any element is NaN: scale 0xFF and every code 0x7F. Otherwise amax = max |x|,
 * e = floor(log2(amax)) - 8 clamped to [-127, 127] (amax = 0 gives -127, amax = inf gives 127),
 * scale = e + 127, and code n = E4M3_RNE_sat(x_n / 2^e).
 *
 * Element conversion: x = sig * 2^ex with an 8-bit significand (BF16 subnormals have no hidden
 * bit). q = x / 2^e has binade kq = msb(sig) + ex - e. E4M3 values are integer multiples of the
 * quantum 2^(max(kq, -6) - 3), so n = RNE(q / quantum) is formed by shifting the significand
 * right by max(kq, -6) - 3 - ex + e (>= -3; a left shift of up to 3 is exact) with guard and
 * sticky bits. The magnitude code is then (max(kq, -6) + 6) * 8 + n: for normals n is in [8, 16]
 * and carries into the exponent field by itself; for subnormals (kq < -6) n is the mantissa and a
 * round-up to 8 becomes the smallest normal. Codes above 0x7E (448) saturate to 0x7E; inf
 * elements saturate as well; zeros and values rounding to zero keep their sign.
 */
module moe_mx_quant_block #(
  parameter int unsigned N = 8
) (
  input  logic [N*16-1:0] x_i,
  output logic [7:0]      scale_o,
  output logic [N*8-1:0]  codes_o
);

  // Block classification: NaN anywhere, largest magnitude.
  logic        any_nan;
  logic [14:0] amax;
  always_comb begin
    any_nan = 1'b0;
    amax    = 15'd0;
    for (int unsigned n = 0; n < N; n++) begin
      if (x_i[16*n+7 +: 8] == 8'hFF && x_i[16*n +: 7] != 7'd0) begin
        any_nan = 1'b1;
      end
      if (x_i[16*n +: 15] > amax) begin
        amax = x_i[16*n +: 15];
      end
    end
  end

  // Shared exponent e (signed) from floor(log2(amax)).
  logic signed [9:0] shared_exp;
  always_comb begin
    if (amax[14:7] == 8'hFF) begin
      shared_exp = 10'sd127;                                  // inf
    end else if (amax[14:7] != 8'd0) begin
      // Normal: floor(log2) = exp - 127, e = exp - 135 (>= -134, clamp below).
      shared_exp = $signed({2'd0, amax[14:7]}) - 10'sd135;
    end else begin
      shared_exp = -10'sd127;                                 // zero or subnormal amax
    end
    if (shared_exp < -10'sd127) begin
      shared_exp = -10'sd127;
    end
  end

  assign scale_o = any_nan ? 8'hFF : 8'(shared_exp + 10'sd127);

  for (genvar n = 0; n < N; n++) begin : g_elem
    logic        sign, is_zero, is_inf;
    logic [7:0]  exp8;
    logic [7:0]  sig;
    logic [2:0]  msb;
    logic signed [11:0] ex, kq, kq_c, rshift;
    logic [4:0]  rs;
    logic [26:0] shifted;
    logic [10:0] n_int, n_rnd;
    logic        guard, sticky;
    logic [11:0] code_mag;
    logic [6:0]  code_sat;

    assign sign    = x_i[16*n+15];
    assign exp8    = x_i[16*n+7 +: 8];
    assign is_zero = (x_i[16*n +: 15] == 15'd0);
    assign is_inf  = (exp8 == 8'hFF);  // NaN blocks are handled before this is used
    assign sig     = {(exp8 != 8'd0), x_i[16*n +: 7]};
    // x = sig * 2^ex with ex = max(exp, 1) - 127 - 7.
    assign ex      = $signed({4'd0, ((exp8 == 8'd0) ? 8'd1 : exp8)}) - 12'sd134;

    always_comb begin
      msb = 3'd0;
      for (int unsigned b = 0; b < 8; b++) begin
        if (sig[b]) begin
          msb = 3'(b);
        end
      end
    end

    always_comb begin
      kq     = $signed({9'd0, msb}) + ex - 12'(shared_exp);
      kq_c   = (kq < -12'sd6) ? -12'sd6 : kq;
      rshift = kq_c - 12'sd3 - ex + 12'(shared_exp) + 12'sd3;  // shift of {sig, 3'b000}
      rs     = (rshift > 12'sd16) ? 5'd16 : 5'(rshift);
      shifted = {sig, 3'd0, 16'd0} >> rs;
      n_int   = shifted[26:16];
      guard   = shifted[15];
      sticky  = |shifted[14:0];
      n_rnd   = n_int + {10'd0, guard & (sticky | n_int[0])};
      code_mag = 12'(kq_c + 12'sd6) * 12'd8 + {1'b0, n_rnd};
      code_sat = (code_mag > 12'd126 || kq_c > 12'sd8) ? 7'h7E : code_mag[6:0];
    end

    always_comb begin
      if (any_nan) begin
        codes_o[8*n +: 8] = 8'h7F;
      end else if (is_zero) begin
        codes_o[8*n +: 8] = {sign, 7'd0};
      end else if (is_inf) begin
        codes_o[8*n +: 8] = {sign, 7'h7E};
      end else begin
        codes_o[8*n +: 8] = {sign, code_sat};
      end
    end
  end

endmodule
