// moesim RTL unit bench: top-k unit with its exp and reciprocal ROMs.

/**
 * Bench-only wrapper: moe_topk_unit wired to two moe_bf16_rom instances (exp and reciprocal
 * tables, programmed by the bench through their public `mem` arrays) as the core wires them.
 * Every other port of the unit is a port of this wrapper. No logic of its own.
 */
module moe_topk_tb_top #(
  parameter int unsigned VLEN  = 64,
  parameter int unsigned MAX_E = 256
) (
  input  logic               clk_i,
  input  logic               rst_ni,
  input  logic               start_i,
  input  logic [15:0]        e_i,
  input  logic [15:0]        k_i,
  input  logic [31:0]        logit_row_i,
  input  logic [31:0]        id_addr_i,
  input  logic [31:0]        w_addr_i,
  output logic               done_o,
  output logic               busy_o,
  output logic               vram_re_o,
  output logic [31:0]        vram_row_o,
  input  logic [VLEN*16-1:0] vram_rdata_i,
  output logic               int_we_o,
  output logic [31:0]        int_waddr_o,
  output logic [31:0]        int_wdata_o,
  output logic               fp_we_o,
  output logic [31:0]        fp_waddr_o,
  output logic [15:0]        fp_wdata_o
);

  logic [15:0] exp_addr, exp_data, reci_addr, reci_data;

  moe_topk_unit #(
    .VLEN (VLEN),
    .MAX_E(MAX_E)
  ) u_topk (
    .clk_i       (clk_i),
    .rst_ni      (rst_ni),
    .start_i     (start_i),
    .e_i         (e_i),
    .k_i         (k_i),
    .logit_row_i (logit_row_i),
    .id_addr_i   (id_addr_i),
    .w_addr_i    (w_addr_i),
    .done_o      (done_o),
    .busy_o      (busy_o),
    .vram_re_o   (vram_re_o),
    .vram_row_o  (vram_row_o),
    .vram_rdata_i(vram_rdata_i),
    .int_we_o    (int_we_o),
    .int_waddr_o (int_waddr_o),
    .int_wdata_o (int_wdata_o),
    .fp_we_o     (fp_we_o),
    .fp_waddr_o  (fp_waddr_o),
    .fp_wdata_o  (fp_wdata_o),
    .exp_addr_o  (exp_addr),
    .exp_data_i  (exp_data),
    .reci_addr_o (reci_addr),
    .reci_data_i (reci_data)
  );

  moe_bf16_rom #(
    .NPorts(1)
  ) u_exp_rom (
    .addr_i(exp_addr),
    .data_o(exp_data)
  );

  moe_bf16_rom #(
    .NPorts(1)
  ) u_reci_rom (
    .addr_i(reci_addr),
    .data_o(reci_data)
  );

endmodule
