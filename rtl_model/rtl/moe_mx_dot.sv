// moesim RTL: MX dot product of N elements (BF16 activations x E4M3 weights).

/**
 * Combinational MX dot product of the matrix unit (isa.yaml M_MM, M_MV, M_TMV, M_TMM, M_BMV,
 * M_BTMV; docs/numerics.md). N is a power of two: MX_BLOCK (8 by default, 32 selectable by preset)
 * for the block dots, HLEN for the per-head dots.
 * p_n = fp32_mul(fp32(a_n), e4m3(w_n)), summed by the pairwise tree over the N terms with FP32
 * RNE adds (moe_fp32_add; level 0 adds (2i, 2i+1), each level halves: for N = 8
 * ((p0+p1)+(p2+p3))+((p4+p5)+(p6+p7))), then multiplied by 2^(scale-127) in FP32 RNE
 * (moe_fp32_mul; scale 0 is the subnormal 2^-127, 0xFF gives NaN).
 * a_i element n is bits [16*n +: 16], w_i code n is bits [8*n +: 8].
 *
 * PER_ELEM_SCALE = 1 (M_TMV / M_TMM: the K block runs across MX blocks; M_BMV / M_BTMV: the head
 * dot): scale_i holds N scales (scale n at bits [8*n +: 8]); each product is multiplied by its
 * own 2^(scale-127) in FP32 RNE before the tree, and the tree sum is the result.
 *
 * The products need no rounding: an 8-bit BF16 significand times a 4-bit E4M3 significand has
 * at most 12 bits, and its exponent range [-142, 136] lies inside binary32 (down to the
 * subnormal lsb 2^-149) except for overflow. So each product is formed exactly by a dedicated
 * 8 x 4-bit multiplier: normal when the biased exponent is >= 1, the exact subnormal otherwise,
 * +-inf when it exceeds 254 (what RNE gives for a 12-bit value >= 2^128). Specials follow
 * fp32_mul: NaN operand or inf * 0 -> canonical NaN, inf * finite -> inf, zero -> signed zero.
 */
module moe_mx_dot #(
  parameter int unsigned  N              = 8,
  parameter bit           PER_ELEM_SCALE = 1'b0,
  localparam int unsigned NumScales      = PER_ELEM_SCALE ? N : 1
) (
  input  logic [N*16-1:0]        a_i,
  input  logic [N*8-1:0]         w_i,
  input  logic [NumScales*8-1:0] scale_i,
  output logic [31:0]            y_o
);

  if (N == 0 || (N & (N - 1)) != 0) begin : g_bad_n
    $error("moe_mx_dot: N must be a power of two, got %0d", N);
  end

  localparam logic [31:0] CANON_NAN = 32'h7FC0_0000;

  logic [31:0] prod      [N];
  logic [31:0] scale_f32 [NumScales];
  // Tree nodes in heap order: leaves N .. 2N-1 are the terms (products, scaled first when
  // PER_ELEM_SCALE; leaf N+n is term n), node n adds nodes 2n and 2n+1, node 1 is the sum.
  logic [31:0] node      [1:2*N-1];

  // E8M0 scale as an FP32 factor: 2^(s-127); s = 0 is the subnormal 2^-127, 0xFF is NaN.
  for (genvar n = 0; n < NumScales; n++) begin : g_scale
    always_comb begin
      unique case (scale_i[8*n +: 8])
        8'hFF:   scale_f32[n] = CANON_NAN;
        8'h00:   scale_f32[n] = 32'h0040_0000;
        default: scale_f32[n] = {1'b0, scale_i[8*n +: 8], 23'd0};
      endcase
    end
  end

  for (genvar n = 0; n < N; n++) begin : g_prod
    logic [15:0] a;
    logic [7:0]  w;
    logic        sign, a_nan, a_inf, a_zero, w_nan, w_zero;
    logic [7:0]  a_sig, a_exp;
    logic [3:0]  w_sig, w_exp;
    logic [11:0] sig;          // exact significand product
    logic [3:0]  lzc;          // leading zeros of sig (sig != 0 where used)
    logic [10:0] frac;         // sig normalised, hidden bit dropped
    logic [9:0]  exp_sum;      // a_exp + w_exp + 11 - lzc: biased exponent plus 17 (>= 4)
    logic [4:0]  sub_shift;    // subnormal fraction = sig << (a_exp + w_exp + 5)

    assign a      = a_i[16*n +: 16];
    assign w      = w_i[8*n +: 8];
    assign sign   = a[15] ^ w[7];
    assign a_nan  = (a[14:7] == 8'hFF) && (a[6:0] != 7'd0);
    assign a_inf  = (a[14:7] == 8'hFF) && (a[6:0] == 7'd0);
    assign a_zero = (a[14:0] == 15'd0);
    assign w_nan  = (w[6:0] == 7'h7F);
    assign w_zero = (w[6:0] == 7'd0);
    assign a_sig  = {(a[14:7] != 8'd0), a[6:0]};
    assign a_exp  = (a[14:7] == 8'd0) ? 8'd1 : a[14:7];
    assign w_sig  = {(w[6:3] != 4'd0), w[2:0]};
    assign w_exp  = (w[6:3] == 4'd0) ? 4'd1 : w[6:3];
    // value = sig * 2^(a_exp - 134 + w_exp - 10) = sig * 2^(a_exp + w_exp - 144)
    assign sig    = 12'(a_sig) * 12'(w_sig);

    moe_lzc #(
      .WIDTH (12)
    ) u_lzc (
      .in_i  (sig),
      .cnt_o (lzc)
    );

    assign frac      = 11'(sig << lzc);
    // Biased FP32 exponent E = (11 - lzc) + a_exp + w_exp - 144 + 127 = exp_sum - 17.
    assign exp_sum   = 10'(a_exp) + 10'(w_exp) + 10'd11 - 10'(lzc);
    assign sub_shift = 5'(a_exp + 8'(w_exp) + 8'd5);

    always_comb begin
      if (a_nan || w_nan || (a_inf && w_zero)) begin
        prod[n] = CANON_NAN;
      end else if (a_inf) begin
        prod[n] = {sign, 8'hFF, 23'd0};
      end else if (a_zero || w_zero) begin
        prod[n] = {sign, 31'd0};
      end else if (exp_sum >= 10'd272) begin
        prod[n] = {sign, 8'hFF, 23'd0};                          // E >= 255: overflow
      end else if (exp_sum >= 10'd18) begin
        prod[n] = {sign, 8'(exp_sum - 10'd17), frac, 12'd0};  // normal
      end else begin
        prod[n] = {sign, 8'd0, 23'(sig) << sub_shift};           // exact subnormal
      end
    end
  end

  if (PER_ELEM_SCALE) begin : g_elem_scale
    for (genvar n = 0; n < N; n++) begin : g_mul
      moe_fp32_mul u_scale (
        .a_i(prod[n]),
        .b_i(scale_f32[n]),
        .y_o(node[N+n])
      );
    end
  end else begin : g_no_elem_scale
    for (genvar n = 0; n < N; n++) begin : g_leaf
      assign node[N+n] = prod[n];
    end
  end

  for (genvar n = 1; n < N; n++) begin : g_tree
    moe_fp32_add u_add (
      .a_i(node[2*n]),
      .b_i(node[2*n+1]),
      .y_o(node[n])
    );
  end

  if (PER_ELEM_SCALE) begin : g_out_sum
    assign y_o = node[1];
  end else begin : g_out_scaled
    moe_fp32_mul u_scale (
      .a_i(node[1]),
      .b_i(scale_f32[0]),
      .y_o(y_o)
    );
  end

endmodule
