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

  always_comb begin
    if (code_i[6:0] == 7'h7F) begin
      y_o = CANON_NAN;
    end else if (exp4 != 4'd0) begin
      // Normal: 2^(e-7) -> biased FP32 exponent e + 120.
      y_o = {sign, 8'(exp4) + 8'd120, man3, 20'd0};
    end else begin
      // Subnormal m * 2^-9: normalise on the leading one of m.
      unique casez (man3)
        3'b1??:  y_o = {sign, 8'd120, man3[1:0], 21'd0};  // 2^-7 * 1.xx
        3'b01?:  y_o = {sign, 8'd119, man3[0], 22'd0};    // 2^-8 * 1.x
        3'b001:  y_o = {sign, 8'd118, 23'd0};             // 2^-9
        3'b000:  y_o = {sign, 31'd0};                     // +-0
        default: y_o = {sign, 31'd0};
      endcase
    end
  end

endmodule
