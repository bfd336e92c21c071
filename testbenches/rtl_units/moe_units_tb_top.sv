// moesim RTL unit bench: wrapper top exposing every combinational leaf on its own ports.

/**
 * Bench-only wrapper so one Verilated model (one copy of the Verilator runtime) drives all the
 * combinational arithmetic leaves of rtl_model/rtl side by side. No logic of its own.
 */
module moe_units_tb_top (
  // moe_fp32_add / moe_fp32_mul / moe_fp32_minmax share operands
  input  logic [31:0]    fa_i,
  input  logic [31:0]    fb_i,
  input  logic           max_i,
  output logic [31:0]    add_o,
  output logic [31:0]    mul_o,
  output logic [31:0]    minmax_o,
  // moe_bf16_round
  input  logic [31:0]    round_f_i,
  output logic [15:0]    round_o,
  // moe_e4m3_to_fp32 / moe_mx_dequant
  input  logic [7:0]     code_i,
  input  logic [7:0]     scale_i,
  output logic [31:0]    e4m3_o,
  output logic [15:0]    dequant_o,
  // moe_mx_quant_block, N = 8 and N = 32
  input  logic [8*16-1:0]  q8_x_i,
  output logic [7:0]       q8_scale_o,
  output logic [8*8-1:0]   q8_codes_o,
  input  logic [32*16-1:0] q32_x_i,
  output logic [7:0]       q32_scale_o,
  output logic [32*8-1:0]  q32_codes_o,
  // moe_mx_dot: N = 8 and N = 32 with one scale, N = 32 with per-element scales (on dot32's a, w)
  input  logic [8*16-1:0]  dot8_a_i,
  input  logic [8*8-1:0]   dot8_w_i,
  input  logic [7:0]       dot8_scale_i,
  output logic [31:0]      dot8_o,
  input  logic [32*16-1:0] dot32_a_i,
  input  logic [32*8-1:0]  dot32_w_i,
  input  logic [7:0]       dot32_scale_i,
  output logic [31:0]      dot32_o,
  input  logic [32*8-1:0]  tdot32_scale_i,
  output logic [31:0]      tdot32_o,
  // moe_bf16_rom (one port; the bench loads a table through its public mem)
  input  logic [15:0]      rom_addr_i,
  output logic [15:0]      rom_data_o,
  // moe_lzc at the widths the leaves use (3, 12, 27, 48), on the low bits of one input
  input  logic [47:0]      lzc_in_i,
  output logic [1:0]       lzc3_o,
  output logic [3:0]       lzc12_o,
  output logic [4:0]       lzc27_o,
  output logic [5:0]       lzc48_o
);

  moe_fp32_add u_add (
    .a_i(fa_i),
    .b_i(fb_i),
    .y_o(add_o)
  );

  moe_fp32_mul u_mul (
    .a_i(fa_i),
    .b_i(fb_i),
    .y_o(mul_o)
  );

  moe_fp32_minmax u_minmax (
    .a_i  (fa_i),
    .b_i  (fb_i),
    .max_i(max_i),
    .y_o  (minmax_o)
  );

  moe_bf16_round u_round (
    .f_i(round_f_i),
    .y_o(round_o)
  );

  moe_e4m3_to_fp32 u_e4m3 (
    .code_i(code_i),
    .y_o   (e4m3_o)
  );

  moe_mx_dequant u_dequant (
    .code_i (code_i),
    .scale_i(scale_i),
    .y_o    (dequant_o)
  );

  moe_mx_quant_block #(
    .N(8)
  ) u_quant8 (
    .x_i    (q8_x_i),
    .scale_o(q8_scale_o),
    .codes_o(q8_codes_o)
  );

  moe_mx_quant_block #(
    .N(32)
  ) u_quant32 (
    .x_i    (q32_x_i),
    .scale_o(q32_scale_o),
    .codes_o(q32_codes_o)
  );

  moe_mx_dot #(
    .N(8)
  ) u_dot8 (
    .a_i    (dot8_a_i),
    .w_i    (dot8_w_i),
    .scale_i(dot8_scale_i),
    .y_o    (dot8_o)
  );

  moe_mx_dot #(
    .N(32)
  ) u_dot32 (
    .a_i    (dot32_a_i),
    .w_i    (dot32_w_i),
    .scale_i(dot32_scale_i),
    .y_o    (dot32_o)
  );

  moe_mx_dot #(
    .N             (32),
    .PER_ELEM_SCALE(1'b1)
  ) u_tdot32 (
    .a_i    (dot32_a_i),
    .w_i    (dot32_w_i),
    .scale_i(tdot32_scale_i),
    .y_o    (tdot32_o)
  );

  moe_bf16_rom #(
    .NPorts(1)
  ) u_rom (
    .addr_i(rom_addr_i),
    .data_o(rom_data_o)
  );

  moe_lzc #(
    .WIDTH(3)
  ) u_lzc3 (
    .in_i (lzc_in_i[2:0]),
    .cnt_o(lzc3_o)
  );

  moe_lzc #(
    .WIDTH(12)
  ) u_lzc12 (
    .in_i (lzc_in_i[11:0]),
    .cnt_o(lzc12_o)
  );

  moe_lzc #(
    .WIDTH(27)
  ) u_lzc27 (
    .in_i (lzc_in_i[26:0]),
    .cnt_o(lzc27_o)
  );

  moe_lzc #(
    .WIDTH(48)
  ) u_lzc48 (
    .in_i (lzc_in_i),
    .cnt_o(lzc48_o)
  );

endmodule
