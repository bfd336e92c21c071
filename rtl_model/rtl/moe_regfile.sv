// moesim RTL: architectural register files and control registers of the core.

/**
 * The gp (NUM_GP_REGS x 32 bits), fp (NUM_FP_REGS x BF16) and addr (NUM_ADDR_REGS x 64 bits)
 * register files and the control registers (ctrl_reg_e: SCALE, STRIDE, V_MASK, TOPK_POLICY,
 * reset CTRL_<NAME>_RESET, and TOPK_POLICY's valid bit), with their read and write ports.
 *
 * Read ports (combinational): gp[rd], gp[rs1], gp[rs2], f[rd], f[rs1], f[rs2] and a[rs2] of the
 * register fields of the instruction at issue (regs_i, from moe_decoder); gp0 and f0 read 0. An
 * fp / addr field past 7 traps at issue, so the 8-entry files are indexed by its low 3 bits.
 *
 * Write ports (at the clock edge): gp from the scalar unit or, for C_LOOP_START / C_LOOP_END, the
 * control logic at register rd (a write of gp0 is dropped); fp from the scalar unit or the vector
 * unit (V_RED_SUM / V_RED_MAX); a[rd] = {gp[rs1], gp[rs2]} for C_SET_ADDR_REG; a control
 * register. The selected gp / fp write port is an output too (moe_top's write observation).
 * The registers are public to the harness (checkpoints, digests).
 */
module moe_regfile
  import moesim_isa_pkg::*;
  import moe_pkg::*;
(
  input  logic            clk_i,
  input  logic            rst_ni,

  // Read ports
  input  reg_idx_t        regs_i,
  output logic [31:0]     gp_rd_o,
  output logic [31:0]     gp_rs1_o,
  output logic [31:0]     gp_rs2_o,
  output logic [15:0]     fp_rd_o,
  output logic [15:0]     fp_rs1_o,
  output logic [15:0]     fp_rs2_o,
  output logic [63:0]     areg_rs2_o,
  output logic [31:0]     scale_o,
  output logic [31:0]     stride_o,
  output logic [31:0]     vmask_o,
  output logic [31:0]     topk_policy_o,
  output logic            topk_valid_o,

  // Write requests
  input  logic            sc_gp_we_i,
  input  logic [3:0]      sc_gp_waddr_i,
  input  logic [31:0]     sc_gp_wdata_i,
  input  logic            ctl_gp_we_i,     // gp[rd]
  input  logic [31:0]     ctl_gp_wdata_i,
  input  logic            sc_fp_we_i,
  input  logic [2:0]      sc_fp_waddr_i,
  input  logic [15:0]     sc_fp_wdata_i,
  input  logic            vec_fp_we_i,
  input  logic [2:0]      vec_fp_waddr_i,
  input  logic [15:0]     vec_fp_wdata_i,
  input  logic            areg_we_i,       // a[rd] = {gp[rs1], gp[rs2]}
  input  logic            ctrl_we_i,
  input  ctrl_reg_e       ctrl_sel_i,
  input  logic [31:0]     ctrl_wdata_i,

  // The gp / fp write ports (the writes that take effect at this cycle's edge)
  output logic            gp_we_o,
  output logic [3:0]      gp_waddr_o,
  output logic [31:0]     gp_wdata_o,
  output logic            fp_we_o,
  output logic [2:0]      fp_waddr_o,
  output logic [15:0]     fp_wdata_o
);

  logic [31:0] gp_q [NUM_GP_REGS] /*verilator public_flat_rd*/;
  logic [15:0] fp_q [NUM_FP_REGS] /*verilator public_flat_rd*/;
  logic [63:0] areg_q [NUM_ADDR_REGS] /*verilator public_flat_rd*/;
  logic [31:0] scale_q /*verilator public_flat_rd*/;
  logic [31:0] stride_q /*verilator public_flat_rd*/;
  logic [31:0] vmask_q /*verilator public_flat_rd*/;
  logic [31:0] topk_policy_q /*verilator public_flat_rd*/;
  logic        topk_valid_q /*verilator public_flat_rd*/;

  ////////////////
  // Read ports //
  ////////////////

  assign gp_rd_o       = (regs_i.rd == 4'd0) ? 32'd0 : gp_q[regs_i.rd];
  assign gp_rs1_o      = (regs_i.rs1 == 4'd0) ? 32'd0 : gp_q[regs_i.rs1];
  assign gp_rs2_o      = (regs_i.rs2 == 4'd0) ? 32'd0 : gp_q[regs_i.rs2];
  assign fp_rd_o       = (regs_i.rd[2:0] == 3'd0) ? 16'd0 : fp_q[regs_i.rd[2:0]];
  assign fp_rs1_o      = (regs_i.rs1[2:0] == 3'd0) ? 16'd0 : fp_q[regs_i.rs1[2:0]];
  assign fp_rs2_o      = (regs_i.rs2[2:0] == 3'd0) ? 16'd0 : fp_q[regs_i.rs2[2:0]];
  assign areg_rs2_o    = areg_q[regs_i.rs2[2:0]];
  assign scale_o       = scale_q;
  assign stride_o      = stride_q;
  assign vmask_o       = vmask_q;
  assign topk_policy_o = topk_policy_q;
  assign topk_valid_o  = topk_valid_q;

  /////////////////
  // Write ports //
  /////////////////

  assign gp_we_o    = sc_gp_we_i || (ctl_gp_we_i && (regs_i.rd != 4'd0));
  assign gp_waddr_o = sc_gp_we_i ? sc_gp_waddr_i : regs_i.rd;
  assign gp_wdata_o = sc_gp_we_i ? sc_gp_wdata_i : ctl_gp_wdata_i;
  assign fp_we_o    = sc_fp_we_i || vec_fp_we_i;
  assign fp_waddr_o = sc_fp_we_i ? sc_fp_waddr_i : vec_fp_waddr_i;
  assign fp_wdata_o = sc_fp_we_i ? sc_fp_wdata_i : vec_fp_wdata_i;

  always_ff @(posedge clk_i or negedge rst_ni) begin : regfile_regs
    if (!rst_ni) begin
      for (int i = 0; i < NUM_GP_REGS; i++) gp_q[i] <= '0;
      for (int i = 0; i < NUM_FP_REGS; i++) fp_q[i] <= '0;
      for (int i = 0; i < NUM_ADDR_REGS; i++) areg_q[i] <= '0;
      scale_q       <= CTRL_SCALE_RESET;
      stride_q      <= CTRL_STRIDE_RESET;
      vmask_q       <= CTRL_V_MASK_RESET;
      topk_policy_q <= CTRL_TOPK_POLICY_RESET;
      topk_valid_q  <= 1'b0;
    end else begin
      if (gp_we_o) gp_q[gp_waddr_o] <= gp_wdata_o;
      if (fp_we_o) fp_q[fp_waddr_o] <= fp_wdata_o;
      if (areg_we_i) areg_q[regs_i.rd[2:0]] <= {gp_rs1_o, gp_rs2_o};
      if (ctrl_we_i) begin
        unique case (ctrl_sel_i)
          CTRL_SCALE:  scale_q <= ctrl_wdata_i;
          CTRL_STRIDE: stride_q <= ctrl_wdata_i;
          CTRL_V_MASK: vmask_q <= ctrl_wdata_i;
          CTRL_TOPK_POLICY: begin
            topk_policy_q <= ctrl_wdata_i;
            topk_valid_q  <= 1'b1;
          end
          default: ;
        endcase
      end
    end
  end

endmodule : moe_regfile
