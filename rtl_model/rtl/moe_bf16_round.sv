// moesim RTL: binary32 to BF16 conversion, round to nearest even.

/**
 * Combinational FP32 -> BF16 of the numerics contract: the upper 16 bits rounded to nearest,
 * ties to even, on the packed magnitude (a carry moves into the exponent; the largest finite
 * values round to inf). Subnormals round like normals. NaN gives the canonical BF16 NaN 0x7FC0.
 */
module moe_bf16_round (
  input  logic [31:0] f_i,
  output logic [15:0] y_o
);

  localparam logic [15:0] CANON_NAN = 16'h7FC0;

  logic is_nan, round_up;
  assign is_nan   = (f_i[30:23] == 8'hFF) && (f_i[22:0] != 23'd0);
  assign round_up = f_i[15] & ((|f_i[14:0]) | f_i[16]);

  assign y_o = is_nan ? CANON_NAN : (f_i[31:16] + {15'd0, round_up});

endmodule
