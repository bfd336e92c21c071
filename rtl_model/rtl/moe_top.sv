// moesim RTL: top level of the PLENA-family MoE accelerator (core, memories, units, trace).

/**
 * moesim accelerator top. In-order, one instruction at a time (docs/architecture.md):
 *
 * - Issue: instruction pc_q is read asynchronously from the instruction memory ({stage, word}
 *   per entry, preloaded by the harness), decoded and trap-checked by moe_decoder with the
 *   register values of this cycle. A trapping instruction occupies no cycle: trap_valid_o is
 *   raised, nothing is written and the machine stops. Otherwise the instruction issues
 *   (issue_valid_o); a one-cycle instruction (UNIT_CORE) writes its results at this cycle's edge
 *   and retires in the same cycle, a multi-cycle one starts its unit, which raises done in its
 *   last cycle. retire_valid_o marks the last cycle of every instruction; the next one issues in
 *   the following cycle. The machine halts when pc_q reaches prog_len_i.
 * - State: gp, fp BF16, a 64-bit (NUM_*_REGS; gp0 and f0 read 0), the control registers
 *   (ctrl_reg_e, reset CTRL_<NAME>_RESET), TOPK_POLICY's valid bit, a loop stack of LOOP_DEPTH
 *   body-start pcs with a C_BREAK mark each, and the retired-instruction count, compared with
 *   instruction_budget_i (INSTRUCTION_BUDGET, a run-time input: machine.yaml `runtime`).
 * - Run-time sizes (machine.yaml `runtime`): mram_tiles_i (MRAM_TILES, at most the parameter
 *   MRAM_TILES_MAX, the depth the MRAM array is built with) and hbm_bytes_i (HBM_BYTES; the HBM backing store is
 *   the harness's). Both are registered (mram_tiles_q, hbm_bytes_q; held constant by the harness,
 *   loaded by the reset cycles) and only bound moe_decoder's address checks.
 *   C_BREAK outside a loop halts by moving pc to prog_len_i.
 * - Memories (arrays public to the harness): VRAM rows of VLEN BF16 with two synchronous read
 *   ports and one write port with per-element enables; MRAM rows {scales, codes} with one
 *   synchronous read and one write port; FP SRAM and INT SRAM (the scalar memories) with
 *   asynchronous reads and one write port each. HBM is moe_hbm.
 * - Units: moe_scalar_unit, moe_vector_unit, moe_topk_unit, moe_matrix_unit, moe_dma_unit. Only
 *   one unit is active at a time; shared memory ports are multiplexed to it.
 * - Trace: issue/retire/trap ports, per-cycle write observation ports for every register
 *   file and SRAM, for the C++ wrapper that builds retire records, and unit_busy_o: bit
 *   UNIT_IDX_<UNIT> (isa.yaml `units`, generated package) is high in every cycle that unit works,
 *   driven by the unit itself (a multi-cycle unit's busy output, start to done inclusive; the
 *   issue cycle of a one-cycle scalar or control instruction).
 */
module moe_top
  import moesim_isa_pkg::*;
  import moe_pkg::*;
#(
  parameter int unsigned MLEN                = 64,
  parameter int unsigned VLEN                = 64,
  parameter int unsigned BLEN                = 4,
  parameter int unsigned HLEN                = 16,
  parameter int unsigned MX_BLOCK            = 8,
  parameter int unsigned VRAM_ROWS           = 8192,
  parameter int unsigned MRAM_TILES_MAX      = 32,
  parameter int unsigned FP_SRAM_WORDS       = 4096,
  parameter int unsigned INT_SRAM_WORDS      = 4096,
  parameter int unsigned HBM_LATENCY         = 24,
  parameter int unsigned HBM_BYTES_PER_CYCLE = 64,
  parameter int unsigned HBM_V_ROWS          = 4,
  parameter int unsigned HBM_M_ROWS          = 64,
  parameter int unsigned LOOP_DEPTH          = 4,
  parameter int unsigned MAX_TOPK_EXPERTS    = 256,
  parameter int unsigned IMEM_WORDS          = 65536,
  localparam int unsigned VramRowW           = $clog2(VRAM_ROWS),
  localparam int unsigned MramRows           = MRAM_TILES_MAX * MLEN,
  localparam int unsigned MramRowW           = $clog2(MramRows),
  localparam int unsigned FpAddrW            = $clog2(FP_SRAM_WORDS),
  localparam int unsigned IntAddrW           = $clog2(INT_SRAM_WORDS)
) (
  input  logic                  clk_i,
  input  logic                  rst_ni,

  input  logic [31:0]           prog_len_i,      // instructions loaded in imem
  input  logic [INSTRUCTION_BUDGET_BITS-1:0] instruction_budget_i,  // machine.yaml `runtime`
  input  logic [MRAM_TILES_BITS-1:0]         mram_tiles_i,          // machine.yaml `runtime`
  input  logic [HBM_BYTES_BITS-1:0]          hbm_bytes_i,           // machine.yaml `runtime`

  // Instruction trace
  output logic                  issue_valid_o,
  output logic [31:0]           issue_pc_o,
  output logic                  retire_valid_o,
  output logic [31:0]           retire_pc_o,
  output logic [31:0]           retire_word_o,
  output logic [STAGE_W-1:0]    retire_stage_o,
  output logic                  trap_valid_o,
  output trap_e                 trap_cause_o,
  output logic [31:0]           trap_pc_o,
  output logic [31:0]           trap_word_o,
  output logic [STAGE_W-1:0]    trap_stage_o,   // stage tag of the trapping instruction
  output logic                  halted_o,
  output logic [NUM_UNITS-1:0]  unit_busy_o,     // bit UNIT_IDX_<unit>: the unit works this cycle

  // Write observation (the writes that take effect at this cycle's edge)
  output logic                  gp_we_o,
  output logic [3:0]            gp_waddr_o,
  output logic [31:0]           gp_wdata_o,
  output logic                  fp_we_o,
  output logic [2:0]            fp_waddr_o,
  output logic [15:0]           fp_wdata_o,
  output logic                  areg_we_o,
  output logic [2:0]            areg_waddr_o,
  output logic [63:0]           areg_wdata_o,
  output logic                  ctrl_we_o,
  output logic [CTRL_SEL_W-1:0] ctrl_sel_o,      // ctrl_reg_e
  output logic [31:0]           ctrl_wdata_o,
  output logic                  vram_we_o,
  output logic [VramRowW-1:0]   vram_wrow_o,
  output logic                  mram_we_o,
  output logic [MramRowW-1:0]   mram_wrow_o,
  output logic                  fpsram_we_o,
  output logic [FpAddrW-1:0]    fpsram_waddr_o,
  output logic                  intsram_we_o,
  output logic [IntAddrW-1:0]   intsram_waddr_o
);

  localparam int unsigned ImemW      = STAGE_W + 32;
  localparam int unsigned ImemAddrW  = $clog2(IMEM_WORDS);
  localparam int unsigned VramW      = VLEN * 16;
  localparam int unsigned NScale     = MLEN / MX_BLOCK;
  localparam int unsigned MramW      = MLEN * 8 + NScale * 8;
  localparam int unsigned LoopDepthW = $clog2(LOOP_DEPTH + 1);
  localparam int unsigned NBytesW    = $clog2(HBM_BYTES_PER_CYCLE + 1);

  //////////////////////////////////////
  // Memories (preloaded by harness)  //
  //////////////////////////////////////

  logic [ImemW-1:0] imem    [IMEM_WORDS]     /*verilator public_flat_rw*/;
  logic [VramW-1:0] vram    [VRAM_ROWS]      /*verilator public_flat_rw*/;
  logic [MramW-1:0] mram    [MramRows]       /*verilator public_flat_rw*/;
  logic [15:0]      fpsram  [FP_SRAM_WORDS]  /*verilator public_flat_rw*/;
  logic [31:0]      intsram [INT_SRAM_WORDS] /*verilator public_flat_rw*/;

  ///////////////////////////
  // Architectural state   //
  ///////////////////////////

  logic [31:0] gp_q [NUM_GP_REGS] /*verilator public_flat_rd*/;
  logic [15:0] fp_q [NUM_FP_REGS] /*verilator public_flat_rd*/;
  logic [63:0] areg_q [NUM_ADDR_REGS] /*verilator public_flat_rd*/;
  logic [31:0] scale_q /*verilator public_flat_rd*/;
  logic [31:0] stride_q /*verilator public_flat_rd*/;
  logic [31:0] vmask_q /*verilator public_flat_rd*/;
  logic [31:0] topk_policy_q /*verilator public_flat_rd*/;
  logic        topk_valid_q /*verilator public_flat_rd*/;
  logic [31:0] loop_pc_q [LOOP_DEPTH];
  logic        loop_brk_q [LOOP_DEPTH];  // C_BREAK marked the loop: its C_LOOP_END exits
  logic [LoopDepthW-1:0] loop_depth_q;

  logic [31:0] pc_q, pc_d;
  logic [31:0] retired_q;
  logic        busy_q, busy_d;
  unit_e       unit_q;
  logic        trapped_q;

  ///////////////
  // Fetch     //
  ///////////////

  logic [ImemW-1:0]   fetch;
  logic [31:0]        word;
  logic [STAGE_W-1:0] stage;
  logic               halted;

  assign fetch  = imem[ImemAddrW'(pc_q)];
  assign word   = fetch[31:0];
  assign stage  = fetch[ImemW-1:32];
  assign halted = trapped_q || (pc_q >= prog_len_i);

  // Register fields of the word (moe_decoder).
  reg_idx_t   regs;
  logic [3:0] f_rd, f_rs1, f_rs2;
  assign f_rd  = regs.rd;
  assign f_rs1 = regs.rs1;
  assign f_rs2 = regs.rs2;

  // Register reads (gp0 and f0 read 0). An fp/addr field past 7 traps at issue, so the 8-entry
  // files are indexed by the low 3 bits.
  logic [31:0] gp_rd, gp_rs1, gp_rs2;
  logic [15:0] fp_rd, fp_rs1, fp_rs2;
  logic [63:0] areg_rs2;
  assign gp_rd    = (f_rd == 4'd0) ? 32'd0 : gp_q[f_rd];
  assign gp_rs1   = (f_rs1 == 4'd0) ? 32'd0 : gp_q[f_rs1];
  assign gp_rs2   = (f_rs2 == 4'd0) ? 32'd0 : gp_q[f_rs2];
  assign fp_rd    = (f_rd[2:0] == 3'd0) ? 16'd0 : fp_q[f_rd[2:0]];
  assign fp_rs1   = (f_rs1[2:0] == 3'd0) ? 16'd0 : fp_q[f_rs1[2:0]];
  assign fp_rs2   = (f_rs2[2:0] == 3'd0) ? 16'd0 : fp_q[f_rs2[2:0]];
  assign areg_rs2 = areg_q[f_rs2[2:0]];

  ////////////////////////
  // Decode and issue   //
  ////////////////////////

  logic                dec_trap;
  trap_e               dec_cause;
  unit_e               dec_unit;
  logic [IntAddrW-1:0] dec_int_raddr;
  ctl_req_t            ctl_req;
  scalar_req_t         sc_req;
  vec_req_t            vec_req;
  topk_req_t           topk_req;
  mm_req_t             mm_req;
  dma_req_t            dma_req;
  logic [31:0]         int_rdata_async;

  moe_decoder #(
    .MLEN               (MLEN),
    .VLEN               (VLEN),
    .BLEN               (BLEN),
    .HLEN               (HLEN),
    .MX_BLOCK           (MX_BLOCK),
    .VRAM_ROWS          (VRAM_ROWS),
    .FP_SRAM_WORDS      (FP_SRAM_WORDS),
    .INT_SRAM_WORDS     (INT_SRAM_WORDS),
    .HBM_V_ROWS         (HBM_V_ROWS),
    .HBM_M_ROWS         (HBM_M_ROWS),
    .LOOP_DEPTH         (LOOP_DEPTH),
    .MAX_TOPK_EXPERTS   (MAX_TOPK_EXPERTS)
  ) u_decoder (
    .word_i             (word),
    .gp_rd_i            (gp_rd),
    .gp_rs1_i           (gp_rs1),
    .gp_rs2_i           (gp_rs2),
    .areg_i             (areg_rs2),
    .scale_i            (scale_q),
    .stride_i           (stride_q),
    .topk_policy_i      (topk_policy_q),
    .topk_valid_i       (topk_valid_q),
    .loop_depth_i       (loop_depth_q),
    .retired_i          (retired_q),
    .budget_i           (instruction_budget_i),
    .mram_tiles_i       (mram_tiles_q),
    .hbm_bytes_i        (hbm_bytes_q),
    .int_raddr_o        (dec_int_raddr),
    .int_rdata_i        (int_rdata_async),
    .trap_o             (dec_trap),
    .trap_cause_o       (dec_cause),
    .unit_o             (dec_unit),
    .reg_idx_o          (regs),
    .ctl_req_o          (ctl_req),
    .sc_req_o           (sc_req),
    .vec_req_o          (vec_req),
    .topk_req_o         (topk_req),
    .mm_req_o           (mm_req),
    .dma_req_o          (dma_req)
  );

  logic can_issue, issue, single, unit_done, retire;
  assign can_issue = !busy_q && !halted;
  assign issue     = can_issue && !dec_trap;
  assign single    = issue && (dec_unit == UNIT_CORE);

  logic start_map, start_vec, start_topk, start_mm, start_dma;
  assign start_map  = issue && (dec_unit == UNIT_MAP);
  assign start_vec  = issue && (dec_unit == UNIT_VECTOR);
  assign start_topk = issue && (dec_unit == UNIT_TOPK);
  assign start_mm   = issue && (dec_unit == UNIT_MATRIX);
  assign start_dma  = issue && (dec_unit == UNIT_DMA);

  // Unit owning the shared ports this cycle (the issuing one, or the busy one).
  unit_e act_unit;
  assign act_unit = busy_q ? unit_q : dec_unit;

  ///////////////////
  // Clock gates   //
  ///////////////////

  // A multi-cycle unit changes state only from its start cycle to its done cycle (busy); the
  // HBM pipeline holds requests only while the DMA unit is busy; a read data register changes
  // only in its read cycle. Their clocks are gated with those enables (moe_clock_gate), so that
  // the simulation evaluates an idle unit's datapath not at all (docs/performance.md).
  logic clk_vec, clk_topk, clk_mm, clk_dma, clk_vram_a, clk_vram_b, clk_mram;
  logic vec_busy, topk_busy, mm_busy, dma_busy, mm_mram_re;
  logic vram_a_re, vram_b_re;

  moe_clock_gate u_cg_vec    (.clk_i, .en_i(vec_busy),   .clk_o(clk_vec));
  moe_clock_gate u_cg_topk   (.clk_i, .en_i(topk_busy),  .clk_o(clk_topk));
  moe_clock_gate u_cg_mm     (.clk_i, .en_i(mm_busy),    .clk_o(clk_mm));
  moe_clock_gate u_cg_dma    (.clk_i, .en_i(dma_busy),   .clk_o(clk_dma));
  moe_clock_gate u_cg_vram_a (.clk_i, .en_i(vram_a_re),  .clk_o(clk_vram_a));
  moe_clock_gate u_cg_vram_b (.clk_i, .en_i(vram_b_re),  .clk_o(clk_vram_b));
  moe_clock_gate u_cg_mram   (.clk_i, .en_i(mm_mram_re), .clk_o(clk_mram));

  ///////////////
  // Units     //
  ///////////////

  // Scalar unit
  logic                sc_gp_we, sc_fp_we;
  logic [3:0]          sc_gp_waddr;
  logic [2:0]          sc_fp_waddr;
  logic [31:0]         sc_gp_wdata;
  logic [15:0]         sc_fp_wdata;
  logic [FpAddrW-1:0]  fpsram_raddr;
  logic [15:0]         fpsram_rdata_async;
  logic                sc_fps_we, sc_ints_we, sc_busy;
  logic [FpAddrW-1:0]  sc_fps_waddr;
  logic [15:0]         sc_fps_wdata;
  logic [IntAddrW-1:0] sc_ints_waddr;
  logic [31:0]         sc_ints_wdata;
  logic                map_done, map_vram_we;
  logic [VramRowW-1:0] map_vram_wrow;
  logic [VramW-1:0]    map_vram_wdata;
  logic [VLEN-1:0]     map_vram_wmask;
  logic [15:0]         sc_rom_addr, sqrt_data;

  // BF16 ROMs, VLEN ports each; port 0 is shared with the top-k and scalar units
  logic [VramW-1:0] vec_exp_addr, vec_reci_addr, exp_addr, reci_addr, exp_data, reci_data;

  moe_scalar_unit #(
    .VLEN     (VLEN),
    .VramRowW (VramRowW),
    .FpAddrW  (FpAddrW),
    .IntAddrW (IntAddrW)
  ) u_scalar (
    .clk_i,
    .rst_ni,
    .issue_i         (single),
    .req_i           (sc_req),
    .gp_rd_i         (gp_rd),
    .gp_rs1_i        (gp_rs1),
    .gp_rs2_i        (gp_rs2),
    .fp_rd_i         (fp_rd),
    .fp_rs1_i        (fp_rs1),
    .fp_rs2_i        (fp_rs2),
    .rom_addr_o      (sc_rom_addr),
    .exp_data_i      (exp_data[15:0]),
    .reci_data_i     (reci_data[15:0]),
    .sqrt_data_i     (sqrt_data),
    .gp_we_o         (sc_gp_we),
    .gp_waddr_o      (sc_gp_waddr),
    .gp_wdata_o      (sc_gp_wdata),
    .fp_we_o         (sc_fp_we),
    .fp_waddr_o      (sc_fp_waddr),
    .fp_wdata_o      (sc_fp_wdata),
    .fpsram_raddr_o  (fpsram_raddr),
    .fpsram_rdata_i  (fpsram_rdata_async),
    .intsram_rdata_i (int_rdata_async),
    .fpsram_we_o     (sc_fps_we),
    .fpsram_waddr_o  (sc_fps_waddr),
    .fpsram_wdata_o  (sc_fps_wdata),
    .intsram_we_o    (sc_ints_we),
    .intsram_waddr_o (sc_ints_waddr),
    .intsram_wdata_o (sc_ints_wdata),
    .map_start_i     (start_map),
    .map_done_o      (map_done),
    .vram_we_o       (map_vram_we),
    .vram_wrow_o     (map_vram_wrow),
    .vram_wdata_o    (map_vram_wdata),
    .vram_wmask_o    (map_vram_wmask),
    .busy_o          (sc_busy)
  );

  // VRAM read ports (registered data, held until the next read)
  logic [VramRowW-1:0] vram_a_row, vram_b_row;
  logic [VramW-1:0]   vram_a_rdata_q, vram_b_rdata_q;

  // Vector unit
  logic                vec_done, vec_a_re, vec_b_re, vec_vram_we, vec_fp_we;
  logic [VramRowW-1:0] vec_a_row, vec_b_row, vec_vram_wrow;
  logic [VramW-1:0]    vec_vram_wdata;
  logic [2:0]          vec_fp_waddr;
  logic [15:0]         vec_fp_wdata;

  moe_vector_unit #(
    .VLEN     (VLEN),
    .HLEN     (HLEN),
    .VramRowW (VramRowW)
  ) u_vector (
    .clk_i          (clk_vec),
    .rst_ni,
    .start_i        (start_vec),
    .op_i           (vec_req.op),
    .dst_row_i      (VramRowW'(vec_req.dst_row)),
    .a_row_i        (VramRowW'(vec_req.a_row)),
    .b_row_i        (VramRowW'(vec_req.b_row)),
    .use_scalar_i   (vec_req.use_scalar),
    .scalar_i       (fp_rs2),
    .shift_i        (gp_rs2),
    .masked_i       (vec_req.masked),
    .v_mask_i       (vmask_q),
    .fd_i           (f_rd[2:0]),
    .fd_val_i       (fp_rd),
    .done_o         (vec_done),
    .busy_o         (vec_busy),
    .vram_a_re_o    (vec_a_re),
    .vram_a_row_o   (vec_a_row),
    .vram_a_rdata_i (vram_a_rdata_q),
    .vram_b_re_o    (vec_b_re),
    .vram_b_row_o   (vec_b_row),
    .vram_b_rdata_i (vram_b_rdata_q),
    .vram_we_o      (vec_vram_we),
    .vram_wrow_o    (vec_vram_wrow),
    .vram_wdata_o   (vec_vram_wdata),
    .fp_we_o        (vec_fp_we),
    .fp_waddr_o     (vec_fp_waddr),
    .fp_wdata_o     (vec_fp_wdata),
    .exp_addr_o     (vec_exp_addr),
    .exp_data_i     (exp_data),
    .reci_addr_o    (vec_reci_addr),
    .reci_data_i    (reci_data)
  );

  // Top-k unit
  logic        topk_done, topk_vram_re, topk_int_we, topk_fp_we;
  logic [31:0] topk_vram_row, topk_int_waddr, topk_int_wdata, topk_fp_waddr;
  logic [15:0] topk_fp_wdata, topk_exp_addr, topk_reci_addr;

  moe_topk_unit #(
    .VLEN  (VLEN),
    .MAX_E (MAX_TOPK_EXPERTS)
  ) u_topk (
    .clk_i        (clk_topk),
    .rst_ni,
    .start_i      (start_topk),
    .e_i          (topk_req.e),
    .k_i          (topk_req.k),
    .logit_row_i  (topk_req.row),
    .id_addr_i    (topk_req.id_addr),
    .w_addr_i     (topk_req.w_addr),
    .done_o       (topk_done),
    .busy_o       (topk_busy),
    .vram_re_o    (topk_vram_re),
    .vram_row_o   (topk_vram_row),
    .vram_rdata_i (vram_a_rdata_q),
    .int_we_o     (topk_int_we),
    .int_waddr_o  (topk_int_waddr),
    .int_wdata_o  (topk_int_wdata),
    .fp_we_o      (topk_fp_we),
    .fp_waddr_o   (topk_fp_waddr),
    .fp_wdata_o   (topk_fp_wdata),
    .exp_addr_o   (topk_exp_addr),
    .exp_data_i   (exp_data[15:0]),
    .reci_addr_o  (topk_reci_addr),
    .reci_data_i  (reci_data[15:0])
  );

  // Matrix unit
  logic             mm_done, mm_vram_re, mm_vram_we;
  logic [31:0]      mm_mram_row, mm_vram_row, mm_vram_wrow;
  logic [VramW-1:0] mm_vram_wdata;
  logic [VLEN-1:0]  mm_vram_wmask;
  logic [MramW-1:0] mram_rdata_q;

  moe_matrix_unit #(
    .MLEN     (MLEN),
    .VLEN     (VLEN),
    .BLEN     (BLEN),
    .HLEN     (HLEN),
    .MX_BLOCK (MX_BLOCK)
  ) u_matrix (
    .clk_i         (clk_mm),
    .rst_ni,
    .start_i       (start_mm),
    .op_i          (mm_req.op),
    .mat_row_i     (mm_req.mat_row),
    .mat_col_i     (mm_req.mat_col),
    .act_row_i     (mm_req.act_row),
    .wo_row_i      (mm_req.wo_row),
    .wo_col_i      (mm_req.wo_col),
    .wo_stride_i   (mm_req.wo_stride),
    .done_o        (mm_done),
    .busy_o        (mm_busy),
    .mram_re_o     (mm_mram_re),
    .mram_row_o    (mm_mram_row),
    .mram_codes_i  (mram_rdata_q[MLEN*8-1:0]),
    .mram_scales_i (mram_rdata_q[MramW-1:MLEN*8]),
    .vram_re_o     (mm_vram_re),
    .vram_row_o    (mm_vram_row),
    .vram_rdata_i  (vram_a_rdata_q),
    .vram_we_o     (mm_vram_we),
    .vram_wrow_o   (mm_vram_wrow),
    .vram_wdata_o  (mm_vram_wdata),
    .vram_wmask_o  (mm_vram_wmask)
  );

  // DMA unit and HBM
  logic                dma_done, dma_vram_re, dma_vram_we, dma_mram_we;
  logic [VramRowW-1:0] dma_vram_row, dma_vram_wrow;
  logic [VramW-1:0]    dma_vram_wdata;
  logic [MramRowW-1:0] dma_mram_wrow;
  logic [MramW-1:0]    dma_mram_wdata;
  logic                hbm_req_valid, hbm_req_we, hbm_rsp_valid;
  logic [63:0]         hbm_req_addr;
  logic [NBytesW-1:0]  hbm_req_nbytes;
  logic [HBM_BYTES_PER_CYCLE*8-1:0] hbm_req_wdata, hbm_rsp_rdata;

  moe_dma_unit #(
    .LEN        (VLEN),
    .MX_BLOCK   (MX_BLOCK),
    .BPC        (HBM_BYTES_PER_CYCLE),
    .HBM_V_ROWS (HBM_V_ROWS),
    .HBM_M_ROWS (HBM_M_ROWS),
    .VramRowW   (VramRowW),
    .MramRowW   (MramRowW)
  ) u_dma (
    .clk_i            (clk_dma),
    .rst_ni,
    .start_i          (start_dma),
    .op_i             (dma_req.op),
    .row_i            (dma_req.row),
    .code_addr_i      (dma_req.code_addr),
    .scale_addr_i     (dma_req.scale_addr),
    .stride_i         (dma_req.stride),
    .scale_stride_i   (dma_req.scale_stride),
    .done_o           (dma_done),
    .busy_o           (dma_busy),
    .hbm_req_valid_o  (hbm_req_valid),
    .hbm_req_we_o     (hbm_req_we),
    .hbm_req_addr_o   (hbm_req_addr),
    .hbm_req_nbytes_o (hbm_req_nbytes),
    .hbm_req_wdata_o  (hbm_req_wdata),
    .hbm_rsp_valid_i  (hbm_rsp_valid),
    .hbm_rsp_rdata_i  (hbm_rsp_rdata),
    .vram_re_o        (dma_vram_re),
    .vram_row_o       (dma_vram_row),
    .vram_rdata_i     (vram_a_rdata_q),
    .vram_we_o        (dma_vram_we),
    .vram_wrow_o      (dma_vram_wrow),
    .vram_wdata_o     (dma_vram_wdata),
    .mram_we_o        (dma_mram_we),
    .mram_wrow_o      (dma_mram_wrow),
    .mram_wdata_o     (dma_mram_wdata)
  );

  moe_hbm #(
    .HBM_LATENCY (HBM_LATENCY),
    .BPC         (HBM_BYTES_PER_CYCLE)
  ) u_hbm (
    .clk_i        (clk_dma),
    .rst_ni,
    .req_valid_i  (hbm_req_valid),
    .req_we_i     (hbm_req_we),
    .req_addr_i   (hbm_req_addr),
    .req_nbytes_i (hbm_req_nbytes),
    .req_wdata_i  (hbm_req_wdata),
    .rsp_valid_o  (hbm_rsp_valid),
    .rsp_rdata_o  (hbm_rsp_rdata)
  );

  assign unit_done = map_done || vec_done || topk_done || mm_done || dma_done;
  assign retire    = single || unit_done;

  ////////////////////////////
  // Shared memory ports    //
  ////////////////////////////

  // VRAM read port A: vector A operand, top-k logits, matrix activations, DMA store rows.
  assign vram_a_re = vec_a_re || topk_vram_re || mm_vram_re || dma_vram_re;
  always_comb begin
    unique case (act_unit)
      UNIT_TOPK:   vram_a_row = VramRowW'(topk_vram_row);
      UNIT_MATRIX: vram_a_row = VramRowW'(mm_vram_row);
      UNIT_DMA:    vram_a_row = dma_vram_row;
      default:     vram_a_row = vec_a_row;
    endcase
  end
  assign vram_b_re  = vec_b_re;
  assign vram_b_row = vec_b_row;

  // VRAM write port.
  logic                vram_we;
  logic [VramRowW-1:0] vram_wrow;
  logic [VramW-1:0]    vram_wdata;
  logic [VLEN-1:0]     vram_wmask;
  assign vram_we = vec_vram_we || map_vram_we || mm_vram_we || dma_vram_we;
  always_comb begin
    unique case (act_unit)
      UNIT_MAP: begin
        vram_wrow  = map_vram_wrow;
        vram_wdata = map_vram_wdata;
        vram_wmask = map_vram_wmask;
      end
      UNIT_MATRIX: begin
        vram_wrow  = VramRowW'(mm_vram_wrow);
        vram_wdata = mm_vram_wdata;
        vram_wmask = mm_vram_wmask;
      end
      UNIT_DMA: begin
        vram_wrow  = dma_vram_wrow;
        vram_wdata = dma_vram_wdata;
        vram_wmask = '1;
      end
      default: begin
        vram_wrow  = vec_vram_wrow;
        vram_wdata = vec_vram_wdata;
        vram_wmask = '1;
      end
    endcase
  end

  // FP SRAM / INT SRAM write ports: scalar stores or top-k results.
  logic                fps_we, ints_we;
  logic [FpAddrW-1:0]  fps_waddr;
  logic [15:0]         fps_wdata;
  logic [IntAddrW-1:0] ints_waddr;
  logic [31:0]         ints_wdata;
  assign fps_we     = sc_fps_we || topk_fp_we;
  assign fps_waddr  = topk_fp_we ? FpAddrW'(topk_fp_waddr) : sc_fps_waddr;
  assign fps_wdata  = topk_fp_we ? topk_fp_wdata : sc_fps_wdata;
  assign ints_we    = sc_ints_we || topk_int_we;
  assign ints_waddr = topk_int_we ? IntAddrW'(topk_int_waddr) : sc_ints_waddr;
  assign ints_wdata = topk_int_we ? topk_int_wdata : sc_ints_wdata;

  // ROM port 0 serves the top-k unit while it runs, and the scalar unit in the issue cycle of
  // a one-cycle instruction (S_EXP_FP, S_RECI_FP).
  always_comb begin
    exp_addr  = vec_exp_addr;
    reci_addr = vec_reci_addr;
    if (act_unit == UNIT_TOPK) begin
      exp_addr[15:0]  = topk_exp_addr;
      reci_addr[15:0] = topk_reci_addr;
    end else if (act_unit == UNIT_CORE) begin
      exp_addr[15:0]  = sc_rom_addr;
      reci_addr[15:0] = sc_rom_addr;
    end
  end

  moe_bf16_rom #(
    .NPorts (VLEN)
  ) u_exp_rom (
    .addr_i (exp_addr),
    .data_o (exp_data)
  );

  moe_bf16_rom #(
    .NPorts (VLEN)
  ) u_reci_rom (
    .addr_i (reci_addr),
    .data_o (reci_data)
  );

  // SQRT_BF16: S_SQRT_FP only.
  moe_bf16_rom #(
    .NPorts (1)
  ) u_sqrt_rom (
    .addr_i (sc_rom_addr),
    .data_o (sqrt_data)
  );

  ///////////////////////
  // Memory arrays     //
  ///////////////////////

  // The read data registers, clocked only in their read cycles (moe_clock_gate).
  always_ff @(posedge clk_vram_a) begin : vram_a_port
    vram_a_rdata_q <= vram[vram_a_row];
  end

  always_ff @(posedge clk_vram_b) begin : vram_b_port
    vram_b_rdata_q <= vram[vram_b_row];
  end

  always_ff @(posedge clk_i) begin : vram_port
    if (vram_we) begin
      for (int e = 0; e < int'(VLEN); e++) begin
        if (vram_wmask[e]) vram[vram_wrow][16*e +: 16] <= vram_wdata[16*e +: 16];
      end
    end
  end

  always_ff @(posedge clk_mram) begin : mram_rd_port
    mram_rdata_q <= mram[MramRowW'(mm_mram_row)];
  end

  always_ff @(posedge clk_i) begin : mram_port
    if (dma_mram_we) mram[dma_mram_wrow] <= dma_mram_wdata;
  end

  assign fpsram_rdata_async = fpsram[fpsram_raddr];
  assign int_rdata_async    = intsram[dec_int_raddr];

  always_ff @(posedge clk_i) begin : sram_ports
    if (fps_we) fpsram[fps_waddr] <= fps_wdata;
    if (ints_we) intsram[ints_waddr] <= ints_wdata;
  end

  //////////////////////////////////////
  // Control flow and register writes //
  //////////////////////////////////////

  // One-cycle control instructions (ctl_busy: one issues).
  logic                  ctl_busy, ctl_gp_we, areg_we, ctrl_we, loop_push, loop_pop, loop_jump;
  logic                  loop_break, brk_halt, loop_top_brk;
  logic [31:0]           ctl_gp_wdata, ctrl_wdata;
  ctrl_reg_e             ctrl_sel;
  logic [31:0]           loop_top;

  assign loop_top     = loop_pc_q[(loop_depth_q == '0) ? 0 : 32'(loop_depth_q) - 1];
  assign loop_top_brk = loop_brk_q[(loop_depth_q == '0) ? 0 : 32'(loop_depth_q) - 1];

  always_comb begin
    ctl_busy     = 1'b0;
    ctl_gp_we    = 1'b0;
    ctl_gp_wdata = '0;
    areg_we      = 1'b0;
    ctrl_we      = 1'b0;
    ctrl_sel     = CTRL_SCALE;
    ctrl_wdata   = gp_rd;
    loop_push    = 1'b0;
    loop_pop     = 1'b0;
    loop_jump    = 1'b0;
    loop_break   = 1'b0;
    brk_halt     = 1'b0;
    if (single) begin
      ctl_busy = 1'b1;
      unique case (ctl_req.op)
        CTL_SET_ADDR: areg_we = 1'b1;
        CTL_SET_CTRL: begin ctrl_we = 1'b1; ctrl_sel = ctl_req.ctrl_sel; end
        CTL_LOOP_START: begin
          ctl_gp_we    = 1'b1;
          ctl_gp_wdata = ctl_req.loop_count;
          loop_push    = 1'b1;
        end
        CTL_LOOP_END: begin
          ctl_gp_we = 1'b1;
          if ((gp_rd > 32'd1) && !loop_top_brk) begin
            ctl_gp_wdata = gp_rd - 32'd1;
            loop_jump    = 1'b1;
          end else begin
            ctl_gp_wdata = 32'd0;
            loop_pop     = 1'b1;
          end
        end
        CTL_BREAK: begin
          // Outside a loop: halt (pc past the program). Inside: mark the innermost loop.
          brk_halt   = (loop_depth_q == '0);
          loop_break = (loop_depth_q != '0);
        end
        default: ctl_busy = 1'b0;  // a scalar unit instruction
      endcase
    end
  end

  // Register file write ports.
  logic        gp_we, fp_we;
  logic [3:0]  gp_waddr;
  logic [31:0] gp_wdata;
  logic [2:0]  fp_waddr;
  logic [15:0] fp_wdata;
  assign gp_we    = sc_gp_we || (ctl_gp_we && (f_rd != 4'd0));
  assign gp_waddr = sc_gp_we ? sc_gp_waddr : f_rd;
  assign gp_wdata = sc_gp_we ? sc_gp_wdata : ctl_gp_wdata;
  assign fp_we    = sc_fp_we || vec_fp_we;
  assign fp_waddr = sc_fp_we ? sc_fp_waddr : vec_fp_waddr;
  assign fp_wdata = sc_fp_we ? sc_fp_wdata : vec_fp_wdata;

  always_comb begin
    busy_d = busy_q;
    if (issue && !single) busy_d = 1'b1;
    if (unit_done) busy_d = 1'b0;
    pc_d = pc_q;
    if (retire) pc_d = loop_jump ? loop_top : brk_halt ? prog_len_i : pc_q + 32'd1;
  end

  // Run-time sizes, registered: the harness holds the inputs constant for the model's lifetime
  // and the reset cycles load them, so the decoder sees the run's values from its first cycle,
  // from flops (an input port would put the decoder's logic into Verilator's input region,
  // evaluated at every eval()).
  logic [MRAM_TILES_BITS-1:0] mram_tiles_q;
  logic [HBM_BYTES_BITS-1:0]  hbm_bytes_q;
  always_ff @(posedge clk_i) begin : size_regs
    mram_tiles_q <= mram_tiles_i;
    hbm_bytes_q  <= hbm_bytes_i;
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin : core_regs
    if (!rst_ni) begin
      pc_q      <= '0;
      retired_q <= '0;
      busy_q    <= 1'b0;
      unit_q    <= UNIT_CORE;
      trapped_q <= 1'b0;
    end else begin
      pc_q      <= pc_d;
      retired_q <= retired_q + 32'(retire);
      busy_q    <= busy_d;
      if (issue) unit_q <= dec_unit;
      if (can_issue && dec_trap) trapped_q <= 1'b1;
    end
  end

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
      if (gp_we) gp_q[gp_waddr] <= gp_wdata;
      if (fp_we) fp_q[fp_waddr] <= fp_wdata;
      if (areg_we) areg_q[f_rd[2:0]] <= {gp_rs1, gp_rs2};
      if (ctrl_we) begin
        unique case (ctrl_sel)
          CTRL_SCALE:  scale_q <= ctrl_wdata;
          CTRL_STRIDE: stride_q <= ctrl_wdata;
          CTRL_V_MASK: vmask_q <= ctrl_wdata;
          CTRL_TOPK_POLICY: begin
            topk_policy_q <= ctrl_wdata;
            topk_valid_q  <= 1'b1;
          end
          default: ;
        endcase
      end
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin : loop_regs
    if (!rst_ni) begin
      for (int i = 0; i < int'(LOOP_DEPTH); i++) begin
        loop_pc_q[i]  <= '0;
        loop_brk_q[i] <= 1'b0;
      end
      loop_depth_q <= '0;
    end else if (loop_push) begin
      loop_pc_q[32'(loop_depth_q)]  <= pc_q + 32'd1;
      loop_brk_q[32'(loop_depth_q)] <= 1'b0;
      loop_depth_q                  <= loop_depth_q + LoopDepthW'(1);
    end else if (loop_pop) begin
      loop_depth_q <= loop_depth_q - LoopDepthW'(1);
    end else if (loop_break) begin
      loop_brk_q[32'(loop_depth_q) - 1] <= 1'b1;
    end
  end

  //////////////
  // Trace    //
  //////////////

  assign issue_valid_o  = issue;
  assign issue_pc_o     = pc_q;
  assign retire_valid_o = retire;
  assign retire_pc_o    = pc_q;
  assign retire_word_o  = word;
  assign retire_stage_o = stage;
  assign trap_valid_o   = can_issue && dec_trap;
  assign trap_cause_o   = dec_cause;
  assign trap_pc_o      = pc_q;
  assign trap_word_o    = word;
  assign trap_stage_o   = stage;
  assign halted_o       = halted;

  always_comb begin
    unit_busy_o                   = '0;
    unit_busy_o[UNIT_IDX_SCALAR]  = sc_busy;
    unit_busy_o[UNIT_IDX_CONTROL] = ctl_busy;
    unit_busy_o[UNIT_IDX_VECTOR]  = vec_busy;
    unit_busy_o[UNIT_IDX_TOPK]    = topk_busy;
    unit_busy_o[UNIT_IDX_MATRIX]  = mm_busy;
    unit_busy_o[UNIT_IDX_DMA]     = dma_busy;
  end

  assign gp_we_o         = gp_we;
  assign gp_waddr_o      = gp_waddr;
  assign gp_wdata_o      = gp_wdata;
  assign fp_we_o         = fp_we;
  assign fp_waddr_o      = fp_waddr;
  assign fp_wdata_o      = fp_wdata;
  assign areg_we_o       = areg_we;
  assign areg_waddr_o    = f_rd[2:0];
  assign areg_wdata_o    = {gp_rs1, gp_rs2};
  assign ctrl_we_o       = ctrl_we;
  assign ctrl_sel_o      = ctrl_sel;
  assign ctrl_wdata_o    = ctrl_wdata;
  assign vram_we_o       = vram_we;
  assign vram_wrow_o     = vram_wrow;
  assign mram_we_o       = dma_mram_we;
  assign mram_wrow_o     = dma_mram_wrow;
  assign fpsram_we_o     = fps_we;
  assign fpsram_waddr_o  = fps_waddr;
  assign intsram_we_o    = ints_we;
  assign intsram_waddr_o = ints_waddr;

  // Address bits beyond the memory depth (checked at issue) are not used.
  logic unused_bits;
  assign unused_bits = ^{topk_vram_row, topk_int_waddr, topk_fp_waddr,
                         mm_mram_row, mm_vram_row, mm_vram_wrow,
                         vec_req.dst_row, vec_req.a_row, vec_req.b_row};

endmodule : moe_top
