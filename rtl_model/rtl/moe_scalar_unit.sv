// moesim RTL: scalar unit (integer ALU, BF16 scalar ALU, scalar loads/stores, S_MAP_V_FP).

/**
 * Scalar unit. The one-cycle instructions (S_ADD_INT, S_ADDI_INT, S_SUB_INT, S_MUL_INT,
 * S_LUI_INT, S_LD_INT, S_ST_INT, S_LD_FP, S_ST_FP and the BF16 scalar ops S_ADD/SUB/MAX/MUL_FP,
 * S_EXP/RECI/SQRT_FP) are combinational: their register and SRAM writes are presented in the
 * issue cycle (`issue_i`) and take effect at its clock edge. S_ADD/SUB/MUL_FP use one
 * moe_fp32_add / moe_fp32_mul and moe_bf16_round (SUB negates fs2), S_MAX_FP moe_fp32_minmax;
 * S_EXP/RECI/SQRT_FP read the BF16 ROMs at address f[fs1] (rom_addr_o; the exp and reci ROMs'
 * port 0 is given to this unit by moe_top in the issue cycle). The operation, destination
 * register field, immediate and addresses come from moe_decoder (req_i, scalar_req_t). The
 * INT SRAM and FP SRAM are the scalar memories: they are read asynchronously by this unit and
 * the issue stage, like a register file.
 *
 * S_MAP_V_FP walks the row one element per cycle: in cycle e (e = 0 .. VLEN-1, cycle 0 is the
 * issue cycle) it reads FP_SRAM[base + e] and writes element e of the VRAM row (per-element
 * write enable); `map_done_o` is high in cycle VLEN-1. Latency VLEN.
 *
 * `busy_o` is high in the issue cycle of a one-cycle scalar instruction (one this unit decodes;
 * the control instructions that share `issue_i` are not) and in every cycle of S_MAP_V_FP.
 */
module moe_scalar_unit
  import moe_pkg::*;
#(
  parameter int unsigned VLEN     = 64,
  parameter int unsigned VramRowW = 13,
  parameter int unsigned FpAddrW  = 12,
  parameter int unsigned IntAddrW = 12
) (
  input  logic                 clk_i,
  input  logic                 rst_ni,

  // One-cycle instructions (issue cycle)
  input  logic                 issue_i,          // a UNIT_CORE instruction issues
  input  scalar_req_t          req_i,            // its decoded operation and operands
  input  logic [31:0]          gp_rd_i,          // gp[rd field]
  input  logic [31:0]          gp_rs1_i,
  input  logic [31:0]          gp_rs2_i,
  input  logic [15:0]          fp_rd_i,          // f[rd field]
  input  logic [15:0]          fp_rs1_i,         // f[rs1 field]
  input  logic [15:0]          fp_rs2_i,         // f[rs2 field]

  // BF16 ROMs (combinational): address f[fs1], data of the exp, reci and sqrt tables
  output logic [15:0]          rom_addr_o,
  input  logic [15:0]          exp_data_i,
  input  logic [15:0]          reci_data_i,
  input  logic [15:0]          sqrt_data_i,

  // Register file write port
  output logic                 gp_we_o,
  output logic [3:0]           gp_waddr_o,
  output logic [31:0]          gp_wdata_o,
  output logic                 fp_we_o,
  output logic [2:0]           fp_waddr_o,
  output logic [15:0]          fp_wdata_o,

  // Scalar memories: asynchronous reads, writes at the clock edge
  output logic [FpAddrW-1:0]   fpsram_raddr_o,
  input  logic [15:0]          fpsram_rdata_i,
  input  logic [31:0]          intsram_rdata_i,  // INT_SRAM[req_i.ls_addr] (issue-stage port)
  output logic                 fpsram_we_o,
  output logic [FpAddrW-1:0]   fpsram_waddr_o,
  output logic [15:0]          fpsram_wdata_o,
  output logic                 intsram_we_o,
  output logic [IntAddrW-1:0]  intsram_waddr_o,
  output logic [31:0]          intsram_wdata_o,

  // S_MAP_V_FP (row req_i.map_row, base req_i.ls_addr)
  input  logic                 map_start_i,
  output logic                 map_done_o,
  output logic                 vram_we_o,
  output logic [VramRowW-1:0]  vram_wrow_o,
  output logic [VLEN*16-1:0]   vram_wdata_o,
  output logic [VLEN-1:0]      vram_wmask_o,

  output logic                 busy_o
);

  localparam int unsigned ElemW = $clog2(VLEN);

  ///////////////////////////
  // One-cycle operations  //
  ///////////////////////////

  // Addresses and rows checked at issue: the low bits index the memories.
  logic [3:0]          f_rd;
  logic [FpAddrW-1:0]  fp_addr;   // also S_MAP_V_FP's base
  logic [IntAddrW-1:0] int_addr;
  logic [VramRowW-1:0] map_row;
  assign f_rd     = req_i.rd;
  assign fp_addr  = FpAddrW'(req_i.ls_addr);
  assign int_addr = IntAddrW'(req_i.ls_addr);
  assign map_row  = VramRowW'(req_i.map_row);

  logic        own_op, gp_we, fp_we;
  logic [31:0] gp_wdata;
  logic [15:0] fp_wdata;

  // BF16 scalar ALU: f[fs1] op f[fs2] in FP32, rounded to BF16.
  logic [31:0] fa, fb, fb_add, f_add, f_mul, f_max, f_alu;
  logic [15:0] f_rnd;
  assign fa     = {fp_rs1_i, 16'h0000};
  assign fb     = {fp_rs2_i, 16'h0000};
  assign fb_add = (req_i.op == SC_SUB_FP) ? {~fb[31], fb[30:0]} : fb;

  moe_fp32_add u_fadd (
    .a_i (fa),
    .b_i (fb_add),
    .y_o (f_add)
  );

  moe_fp32_mul u_fmul (
    .a_i (fa),
    .b_i (fb),
    .y_o (f_mul)
  );

  moe_fp32_minmax u_fmax (
    .a_i   (fa),
    .b_i   (fb),
    .max_i (1'b1),
    .y_o   (f_max)
  );

  assign f_alu = (req_i.op == SC_MUL_FP) ? f_mul :
                 (req_i.op == SC_MAX_FP) ? f_max : f_add;

  moe_bf16_round u_fround (
    .f_i (f_alu),
    .y_o (f_rnd)
  );

  assign rom_addr_o = fp_rs1_i;

  always_comb begin
    own_op          = 1'b1;
    gp_we           = 1'b0;
    gp_wdata        = '0;
    fp_we           = 1'b0;
    fp_wdata        = fpsram_rdata_i;
    fpsram_we_o     = 1'b0;
    intsram_we_o    = 1'b0;
    unique case (req_i.op)
      SC_ADD_INT:  begin gp_we = 1'b1; gp_wdata = gp_rs1_i + gp_rs2_i; end
      SC_ADDI_INT: begin gp_we = 1'b1; gp_wdata = gp_rs1_i + req_i.imm; end
      SC_SUB_INT:  begin gp_we = 1'b1; gp_wdata = gp_rs1_i - gp_rs2_i; end
      SC_MUL_INT:  begin gp_we = 1'b1; gp_wdata = gp_rs1_i * gp_rs2_i; end
      SC_LUI_INT:  begin gp_we = 1'b1; gp_wdata = req_i.imm; end
      SC_LD_INT:   begin gp_we = 1'b1; gp_wdata = intsram_rdata_i; end
      SC_LD_FP:    fp_we = 1'b1;
      SC_ADD_FP, SC_SUB_FP, SC_MAX_FP, SC_MUL_FP: begin
        fp_we    = 1'b1;
        fp_wdata = f_rnd;
      end
      SC_EXP_FP:   begin fp_we = 1'b1; fp_wdata = exp_data_i; end
      SC_RECI_FP:  begin fp_we = 1'b1; fp_wdata = reci_data_i; end
      SC_SQRT_FP:  begin fp_we = 1'b1; fp_wdata = sqrt_data_i; end
      SC_ST_INT:   intsram_we_o = issue_i;
      SC_ST_FP:    fpsram_we_o = issue_i;
      default:     own_op = 1'b0;
    endcase
  end

  // gp0 and f0 writes are discarded.
  assign gp_we_o    = issue_i && gp_we && (f_rd != 4'd0);
  assign gp_waddr_o = f_rd;
  assign gp_wdata_o = gp_wdata;
  assign fp_we_o    = issue_i && fp_we && (f_rd[2:0] != 3'd0);
  assign fp_waddr_o = f_rd[2:0];
  assign fp_wdata_o = fp_wdata;

  assign fpsram_waddr_o  = fp_addr;
  assign fpsram_wdata_o  = fp_rd_i;
  assign intsram_waddr_o = int_addr;
  assign intsram_wdata_o = gp_rd_i;

  // Address bits beyond the memory depths (checked at issue) are not used.
  logic unused_addr_bits;
  assign unused_addr_bits = ^{req_i.ls_addr, req_i.map_row};

  /////////////////
  // S_MAP_V_FP  //
  /////////////////

  logic                busy_q, busy_d;
  logic [ElemW-1:0]    elem_q, elem_d;
  logic [VramRowW-1:0] row_q;
  logic [FpAddrW-1:0]  base_q;
  logic [ElemW-1:0]    elem;
  logic                active;

  assign active = map_start_i || busy_q;
  assign elem   = map_start_i ? '0 : elem_q;

  always_comb begin
    busy_d = busy_q;
    elem_d = elem_q;
    if (active) begin
      elem_d = elem + ElemW'(1);
      busy_d = (32'(elem) != VLEN - 1);
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin : map_regs
    if (!rst_ni) begin
      busy_q <= 1'b0;
      elem_q <= '0;
      row_q  <= '0;
      base_q <= '0;
    end else begin
      busy_q <= busy_d;
      elem_q <= elem_d;
      if (map_start_i) begin
        row_q  <= map_row;
        base_q <= fp_addr;
      end
    end
  end

  assign fpsram_raddr_o = busy_q ? base_q + FpAddrW'(elem_q) : fp_addr;
  assign map_done_o     = active && (32'(elem) == VLEN - 1);
  assign vram_we_o      = active;
  assign vram_wrow_o    = busy_q ? row_q : map_row;
  assign vram_wdata_o   = {VLEN{fpsram_rdata_i}};
  assign vram_wmask_o   = VLEN'(1) << elem;

  assign busy_o = (issue_i && own_op) || active;

endmodule : moe_scalar_unit
