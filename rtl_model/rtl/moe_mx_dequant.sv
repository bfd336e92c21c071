// moesim RTL: MXFP8 element dequantisation to BF16 (H_PREFETCH_V).

/**
 * Combinational MX dequantisation of one element (isa.yaml H_PREFETCH_V):
 * y = bf16_rne(fp32_mul(e4m3(code), 2^(scale-127))). The E8M0 scale becomes an exact FP32
 * power of two (scale 0 is the subnormal 2^-127 = 0x00400000; 0xFF is NaN), the product is
 * rounded once in FP32 (it underflows into FP32 subnormals for small scales) and once more to
 * BF16. NaN code or NaN scale gives 0x7FC0.
 */
module moe_mx_dequant (
  input  logic [7:0]  code_i,
  input  logic [7:0]  scale_i,
  output logic [15:0] y_o
);

  logic [31:0] elem_f32, scale_f32, prod_f32;

  always_comb begin
    unique case (scale_i)
      8'hFF:   scale_f32 = 32'h7FC0_0000;
      8'h00:   scale_f32 = 32'h0040_0000;
      default: scale_f32 = {1'b0, scale_i, 23'd0};
    endcase
  end

  moe_e4m3_to_fp32 u_decode (
    .code_i(code_i),
    .y_o   (elem_f32)
  );

  moe_fp32_mul u_scale (
    .a_i(elem_f32),
    .b_i(scale_f32),
    .y_o(prod_f32)
  );

  moe_bf16_round u_round (
    .f_i(prod_f32),
    .y_o(y_o)
  );

endmodule
