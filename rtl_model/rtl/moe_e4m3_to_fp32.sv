// moesim RTL: OCP MX E4M3 element to binary32 (exact).

/**
 * Combinational E4M3 decode (OCP Microscaling v1.0): sign, 4-bit exponent (bias 7), 3-bit
 * mantissa, no infinities. S.1111.111 is NaN and gives the canonical FP32 NaN 0x7FC00000.
 * Exponent 0 encodes the subnormals m/8 * 2^-6 (normalised here into FP32 normals); the
 * largest magnitude is 448. Every other code is (1 + m/8) * 2^(e-7), exactly representable.
 */
module moe_e4m3_to_fp32 (
  input  logic [7:0]  code_i,
  output logic [31:0] y_o
);

  localparam logic [31:0] CANON_NAN = 32'h7FC0_0000;

  logic       sign;
  logic [3:0] exp4;
  logic [2:0] man3;
  assign sign = code_i[7];
  assign exp4 = code_i[6:3];
  assign man3 = code_i[2:0];

  // Subnormal m * 2^-9 with m != 0 is 1.f * 2^(-7 - lz), lz the leading zeros of m; its
  // fraction is m shifted past its leading one.
  logic [1:0] man_lz;
  logic [2:0] sub_frac;
  moe_lzc #(
    .WIDTH (3)
  ) u_lzc (
    .in_i  (man3),
    .cnt_o (man_lz)
  );
  assign sub_frac = man3 << (man_lz + 2'd1);

  always_comb begin
    if (code_i[6:0] == 7'h7F) begin
      y_o = CANON_NAN;
    end else if (exp4 != 4'd0) begin
      // Normal: 2^(e-7) -> biased FP32 exponent e + 120.
      y_o = {sign, 8'(exp4) + 8'd120, man3, 20'd0};
    end else if (man3 != 3'd0) begin
      // Subnormal: 2^(-7-lz) -> biased FP32 exponent 120 - lz.
      y_o = {sign, 8'd120 - 8'(man_lz), sub_frac, 20'd0};
    end else begin
      y_o = {sign, 31'd0};                                // +-0
    end
  end

endmodule
