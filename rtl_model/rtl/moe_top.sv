// moesim RTL: top level of the PLENA-family MoE accelerator (core, memories, units, trace).

/**
 * moesim accelerator top. In-order, one instruction at a time (docs/architecture.md). The top
 * wires the parts, it holds none of them (but the two run-time size registers):
 *
 * - moe_fetch_ctrl (u_fetch): instruction memory, pc, issue decision, loop stack, one-cycle
 *   control instructions, retired-instruction count. Instruction pc is read asynchronously,
 *   decoded and trap-checked by moe_decoder (u_decoder) with the register values of this cycle.
 *   A trapping instruction occupies no cycle: trap_valid_o is raised, nothing is written and
 *   the machine stops. Otherwise the instruction issues (issue_valid_o); a one-cycle instruction
 *   (UNIT_CORE) writes its results at this cycle's edge and retires in the same cycle, a
 *   multi-cycle one starts its unit, which raises done in its last cycle. retire_valid_o marks
 *   the last cycle of every instruction; the next one issues in the following cycle. The
 *   machine halts when the pc reaches prog_len_i (C_BREAK outside a loop moves it there). The
 *   retired-instruction count is compared with instruction_budget_i (INSTRUCTION_BUDGET, a
 *   run-time input: machine.yaml `runtime`).
 * - moe_regfile (u_regs): gp, fp BF16, a 64-bit (NUM_*_REGS; gp0 and f0 read 0), the control
 *   registers (ctrl_reg_e, reset CTRL_<NAME>_RESET) and TOPK_POLICY's valid bit.
 * - Run-time parameters (machine.yaml `runtime`): mram_tiles_i (MRAM_TILES, at most the
 *   parameter MRAM_TILES_MAX, the depth the MRAM array is built with) and hbm_bytes_i
 *   (HBM_BYTES; the HBM backing store is the harness's) only bound moe_decoder's address checks;
 *   dma_queue_i (DMA_QUEUE) is the depth of the DMA queue; hbm_jitter_seed_i and
 *   hbm_jitter_max_i (HBM_JITTER_SEED, HBM_JITTER_MAX) drive moe_hbm_jitter. All are registered
 *   (mram_tiles_q, hbm_bytes_q, dma_queue_q, hbm_jitter_seed_q, hbm_jitter_max_q; held constant
 *   by the harness, loaded by the reset cycles).
 * - moe_dma_queue (u_dmaq): with DMA_QUEUE > 0 the pending transfers (docs/overlap.md), which
 *   feed moe_dma_unit one at a time while the core goes on; moe_fetch_ctrl's scoreboard stalls
 *   an instruction whose footprint (moe_decoder) meets a pending transfer's region, or a DMA
 *   instruction while the queue is full. The machine halts when the pc is past the program (or
 *   after a trap) and no transfer is pending. With DMA_QUEUE = 0 the core waits on the DMA unit
 *   as on any unit. moe_hbm_jitter (u_jitter) holds each transfer, in the order they start,
 *   for its HBM jitter (isa.yaml `hbm_jitter`) before moe_dma_unit starts it.
 * - moe_mem (u_mem): VRAM, MRAM, FP SRAM, INT SRAM and the BF16 ROMs, and the multiplexers
 *   that give their shared ports to the active unit; the DMA engine has ports of its own. HBM
 *   is moe_hbm.
 * - Units: moe_scalar_unit, moe_vector_unit, moe_topk_unit, moe_matrix_unit, moe_dma_unit. Only
 *   one unit of the core is active at a time (the DMA engine beside it with a queue). Every multi-cycle unit (and moe_hbm with the DMA unit) runs on
 *   a clock gated by its busy output (moe_clock_gate): its state changes only from its start
 *   cycle to its done cycle, and the simulation evaluates an idle unit's datapath not at all
 *   (docs/performance.md).
 * - Trace: issue/retire/trap ports, the scoreboard's stall and cause, the queue's push, engine
 *   start and completion, per-cycle write observation ports for every register file and SRAM
 *   (the DMA engine's VRAM and MRAM writes apart), for the C++ wrapper that builds retire and
 *   transfer records, and unit_busy_o: bit
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
  input  logic [DMA_QUEUE_BITS-1:0]          dma_queue_i,           // machine.yaml `runtime`
  input  logic [HBM_JITTER_SEED_BITS-1:0]    hbm_jitter_seed_i,     // machine.yaml `runtime`
  input  logic [HBM_JITTER_MAX_BITS-1:0]     hbm_jitter_max_i,      // machine.yaml `runtime`

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
  output logic                  stall_o,         // the instruction at pc waits on the scoreboard
  output stall_e                stall_cause_o,
  output logic                  xfer_push_o,     // the issuing DMA instruction is queued
  output logic                  xfer_start_o,    // a queued transfer starts on the engine
  output logic                  xfer_done_o,     // its last cycle: it completes at this edge

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
  output logic                  vram_we_o,       // the core's VRAM write port
  output logic [VramRowW-1:0]   vram_wrow_o,
  output logic                  dma_vram_we_o,   // the DMA engine's VRAM write port
  output logic [VramRowW-1:0]   dma_vram_wrow_o,
  output logic                  mram_we_o,
  output logic [MramRowW-1:0]   mram_wrow_o,
  output logic                  fpsram_we_o,
  output logic [FpAddrW-1:0]    fpsram_waddr_o,
  output logic                  intsram_we_o,
  output logic [IntAddrW-1:0]   intsram_waddr_o
);

  localparam int unsigned VramW      = VLEN * 16;
  localparam int unsigned NScale     = MLEN / MX_BLOCK;
  localparam int unsigned MramW      = MLEN * 8 + NScale * 8;
  localparam int unsigned LoopDepthW = $clog2(LOOP_DEPTH + 1);
  localparam int unsigned NBytesW    = $clog2(HBM_BYTES_PER_CYCLE + 1);

  ///////////////////////////////
  // Fetch, issue and control  //
  ///////////////////////////////

  logic [31:0]           pc, word;
  logic [STAGE_W-1:0]    stage;
  logic                  halted, trap, stall, issue, single, retire, unit_done;
  stall_e                stall_cause;
  logic                  start_map, start_vec, start_topk, start_mm, start_dma;
  unit_e                 act_unit;
  logic [31:0]           retired;
  logic [LoopDepthW-1:0] loop_depth;
  logic                  ctl_busy, ctl_gp_we, areg_we, ctrl_we;
  logic [31:0]           ctl_gp_wdata, ctrl_wdata;
  ctrl_reg_e             ctrl_sel;

  logic                  dec_trap;
  trap_e                 dec_cause;
  unit_e                 dec_unit;
  logic [IntAddrW-1:0]   dec_int_raddr;
  reg_idx_t              regs;
  ctl_req_t              ctl_req;
  scalar_req_t           sc_req;
  vec_req_t              vec_req;
  topk_req_t             topk_req;
  mm_req_t               mm_req;
  dma_req_t              dma_req;
  footprint_t            footprint;

  // DMA queue
  localparam int unsigned DmaqDepth = (1 << DMA_QUEUE_BITS) - 1;
  logic [DMA_QUEUE_BITS-1:0] dma_queue_q, dmaq_count;
  logic [DmaqDepth-1:0]      dmaq_valid;
  region_t [DmaqDepth-1:0]   dmaq_region;
  logic                      dmaq_start, dmaq_push, dmaq_pop;
  dma_req_t                  dmaq_req;

  // HBM jitter (isa.yaml `hbm_jitter`)
  logic [HBM_JITTER_SEED_BITS-1:0] hbm_jitter_seed_q;
  logic [HBM_JITTER_MAX_BITS-1:0]  hbm_jitter_max_q;
  logic                            jit_start, jit_wait;
  dma_req_t                        jit_req;

  moe_fetch_ctrl #(
    .LOOP_DEPTH (LOOP_DEPTH),
    .IMEM_WORDS (IMEM_WORDS)
  ) u_fetch (
    .clk_i,
    .rst_ni,
    .prog_len_i,
    .pc_o           (pc),
    .word_o         (word),
    .stage_o        (stage),
    .halted_o       (halted),
    .dec_trap_i     (dec_trap),
    .dec_unit_i     (dec_unit),
    .footprint_i    (footprint),
    .dma_queue_i    (dma_queue_q),
    .dmaq_count_i   (dmaq_count),
    .dmaq_valid_i   (dmaq_valid),
    .dmaq_region_i  (dmaq_region),
    .ctl_req_i      (ctl_req),
    .gp_rd_i        (gp_rd),
    .unit_done_i    (unit_done),
    .trap_o         (trap),
    .stall_o        (stall),
    .stall_cause_o  (stall_cause),
    .issue_o        (issue),
    .single_o       (single),
    .start_map_o    (start_map),
    .start_vec_o    (start_vec),
    .start_topk_o   (start_topk),
    .start_mm_o     (start_mm),
    .start_dma_o    (start_dma),
    .act_unit_o     (act_unit),
    .retire_o       (retire),
    .retired_o      (retired),
    .loop_depth_o   (loop_depth),
    .ctl_busy_o     (ctl_busy),
    .ctl_gp_we_o    (ctl_gp_we),
    .ctl_gp_wdata_o (ctl_gp_wdata),
    .areg_we_o      (areg_we),
    .ctrl_we_o      (ctrl_we),
    .ctrl_sel_o     (ctrl_sel),
    .ctrl_wdata_o   (ctrl_wdata)
  );

  //////////////////////
  // Register files   //
  //////////////////////

  logic [31:0] gp_rd, gp_rs1, gp_rs2;
  logic [15:0] fp_rd, fp_rs1, fp_rs2;
  logic [63:0] areg_rs2;
  logic [31:0] scale, stride, vmask, topk_policy;
  logic        topk_valid;
  logic        gp_we, fp_we;
  logic [3:0]  gp_waddr;
  logic [31:0] gp_wdata;
  logic [2:0]  fp_waddr;
  logic [15:0] fp_wdata;

  // Scalar and vector unit register writes
  logic        sc_gp_we, sc_fp_we, vec_fp_we;
  logic [3:0]  sc_gp_waddr;
  logic [2:0]  sc_fp_waddr, vec_fp_waddr;
  logic [31:0] sc_gp_wdata;
  logic [15:0] sc_fp_wdata, vec_fp_wdata;

  moe_regfile u_regs (
    .clk_i,
    .rst_ni,
    .regs_i         (regs),
    .gp_rd_o        (gp_rd),
    .gp_rs1_o       (gp_rs1),
    .gp_rs2_o       (gp_rs2),
    .fp_rd_o        (fp_rd),
    .fp_rs1_o       (fp_rs1),
    .fp_rs2_o       (fp_rs2),
    .areg_rs2_o     (areg_rs2),
    .scale_o        (scale),
    .stride_o       (stride),
    .vmask_o        (vmask),
    .topk_policy_o  (topk_policy),
    .topk_valid_o   (topk_valid),
    .sc_gp_we_i     (sc_gp_we),
    .sc_gp_waddr_i  (sc_gp_waddr),
    .sc_gp_wdata_i  (sc_gp_wdata),
    .ctl_gp_we_i    (ctl_gp_we),
    .ctl_gp_wdata_i (ctl_gp_wdata),
    .sc_fp_we_i     (sc_fp_we),
    .sc_fp_waddr_i  (sc_fp_waddr),
    .sc_fp_wdata_i  (sc_fp_wdata),
    .vec_fp_we_i    (vec_fp_we),
    .vec_fp_waddr_i (vec_fp_waddr),
    .vec_fp_wdata_i (vec_fp_wdata),
    .areg_we_i      (areg_we),
    .ctrl_we_i      (ctrl_we),
    .ctrl_sel_i     (ctrl_sel),
    .ctrl_wdata_i   (ctrl_wdata),
    .gp_we_o        (gp_we),
    .gp_waddr_o     (gp_waddr),
    .gp_wdata_o     (gp_wdata),
    .fp_we_o        (fp_we),
    .fp_waddr_o     (fp_waddr),
    .fp_wdata_o     (fp_wdata)
  );

  ////////////////////////
  // Decode             //
  ////////////////////////

  // Run-time sizes, registered: the harness holds the inputs constant for the model's lifetime
  // and the reset cycles load them, so the decoder sees the run's values from its first cycle,
  // from flops (an input port would put the decoder's logic into Verilator's input region,
  // evaluated at every eval()).
  logic [MRAM_TILES_BITS-1:0] mram_tiles_q;
  logic [HBM_BYTES_BITS-1:0]  hbm_bytes_q;
  always_ff @(posedge clk_i) begin : size_regs
    mram_tiles_q      <= mram_tiles_i;
    hbm_bytes_q       <= hbm_bytes_i;
    dma_queue_q       <= dma_queue_i;
    hbm_jitter_seed_q <= hbm_jitter_seed_i;
    hbm_jitter_max_q  <= hbm_jitter_max_i;
  end

  logic [31:0] int_rdata_async;

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
    .scale_i            (scale),
    .stride_i           (stride),
    .topk_policy_i      (topk_policy),
    .topk_valid_i       (topk_valid),
    .loop_depth_i       (loop_depth),
    .retired_i          (retired),
    .budget_i           (instruction_budget_i),
    .mram_tiles_i       (mram_tiles_q),
    .hbm_bytes_i        (hbm_bytes_q),
    .int_raddr_o        (dec_int_raddr),
    .int_rdata_i        (int_rdata_async),
    .trap_o             (dec_trap),
    .trap_cause_o       (dec_cause),
    .unit_o             (dec_unit),
    .footprint_o        (footprint),
    .reg_idx_o          (regs),
    .ctl_req_o          (ctl_req),
    .sc_req_o           (sc_req),
    .vec_req_o          (vec_req),
    .topk_req_o         (topk_req),
    .mm_req_o           (mm_req),
    .dma_req_o          (dma_req)
  );

  ///////////////////
  // Clock gates   //
  ///////////////////

  // A multi-cycle unit changes state only from its start cycle to its done cycle (busy); the
  // HBM pipeline holds requests only while the DMA unit is busy. Their clocks are gated with
  // those enables (moe_clock_gate), so that the simulation evaluates an idle unit's datapath
  // not at all (docs/performance.md).
  logic clk_vec, clk_topk, clk_mm, clk_dma;
  logic vec_busy, topk_busy, mm_busy, dma_busy;

  moe_clock_gate u_cg_vec  (.clk_i, .en_i(vec_busy),  .clk_o(clk_vec));
  moe_clock_gate u_cg_topk (.clk_i, .en_i(topk_busy), .clk_o(clk_topk));
  moe_clock_gate u_cg_mm   (.clk_i, .en_i(mm_busy),   .clk_o(clk_mm));
  moe_clock_gate u_cg_dma  (.clk_i, .en_i(dma_busy),  .clk_o(clk_dma));

  ///////////////
  // Units     //
  ///////////////

  // Scalar unit
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

  // BF16 ROMs, VLEN ports each (exp, reci); port 0 is shared with the top-k and scalar units
  logic [VramW-1:0] vec_exp_addr, vec_reci_addr, exp_data, reci_data;

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
  logic [VramW-1:0] vram_a_rdata_q, vram_b_rdata_q, vram_c_rdata_q;

  // Vector unit
  logic                vec_done, vec_a_re, vec_b_re, vec_vram_we;
  logic [VramRowW-1:0] vec_a_row, vec_b_row, vec_vram_wrow;
  logic [VramW-1:0]    vec_vram_wdata;

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
    .v_mask_i       (vmask),
    .fd_i           (regs.rd[2:0]),
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
  logic             mm_done, mm_vram_re, mm_vram_we, mm_mram_re;
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

  // DMA queue, DMA unit and HBM
  moe_dma_queue #(
    .HBM_V_ROWS (HBM_V_ROWS),
    .HBM_M_ROWS (HBM_M_ROWS)
  ) u_dmaq (
    .clk_i,
    .rst_ni,
    .depth_i  (dma_queue_q),
    .issue_i  (start_dma),
    .req_i    (dma_req),
    .done_i   (dma_done),
    .start_o  (dmaq_start),
    .req_o    (dmaq_req),
    .count_o  (dmaq_count),
    .valid_o  (dmaq_valid),
    .region_o (dmaq_region),
    .push_o   (dmaq_push),
    .pop_o    (dmaq_pop)
  );

  moe_hbm_jitter u_jitter (
    .clk_i,
    .rst_ni,
    .seed_i  (hbm_jitter_seed_q),
    .max_i   (hbm_jitter_max_q),
    .start_i (dmaq_start),
    .req_i   (dmaq_req),
    .start_o (jit_start),
    .req_o   (jit_req),
    .wait_o  (jit_wait)
  );

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
    .start_i          (jit_start),
    .op_i             (jit_req.op),
    .row_i            (jit_req.row),
    .code_addr_i      (jit_req.code_addr),
    .scale_addr_i     (jit_req.scale_addr),
    .stride_i         (jit_req.stride),
    .scale_stride_i   (jit_req.scale_stride),
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
    .vram_rdata_i     (vram_c_rdata_q),
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

  // The core waits on the DMA unit only without a queue.
  assign unit_done = map_done || vec_done || topk_done || mm_done ||
                     (dma_done && (dma_queue_q == '0));

  //////////////////////////////
  // Memories and their ports //
  //////////////////////////////

  logic                vram_we, fps_we, ints_we;
  logic [VramRowW-1:0] vram_wrow;
  logic [FpAddrW-1:0]  fps_waddr;
  logic [IntAddrW-1:0] ints_waddr;

  moe_mem #(
    .VLEN           (VLEN),
    .MLEN           (MLEN),
    .MX_BLOCK       (MX_BLOCK),
    .VRAM_ROWS      (VRAM_ROWS),
    .MRAM_TILES_MAX (MRAM_TILES_MAX),
    .FP_SRAM_WORDS  (FP_SRAM_WORDS),
    .INT_SRAM_WORDS (INT_SRAM_WORDS)
  ) u_mem (
    .clk_i,
    .act_unit_i       (act_unit),
    .vec_a_re_i       (vec_a_re),
    .vec_a_row_i      (vec_a_row),
    .topk_vram_re_i   (topk_vram_re),
    .topk_vram_row_i  (topk_vram_row),
    .mm_vram_re_i     (mm_vram_re),
    .mm_vram_row_i    (mm_vram_row),
    .vram_a_rdata_o   (vram_a_rdata_q),
    .vec_b_re_i       (vec_b_re),
    .vec_b_row_i      (vec_b_row),
    .vram_b_rdata_o   (vram_b_rdata_q),
    .dma_vram_re_i    (dma_vram_re),
    .dma_vram_row_i   (dma_vram_row),
    .vram_c_rdata_o   (vram_c_rdata_q),
    .vec_vram_we_i    (vec_vram_we),
    .vec_vram_wrow_i  (vec_vram_wrow),
    .vec_vram_wdata_i (vec_vram_wdata),
    .map_vram_we_i    (map_vram_we),
    .map_vram_wrow_i  (map_vram_wrow),
    .map_vram_wdata_i (map_vram_wdata),
    .map_vram_wmask_i (map_vram_wmask),
    .mm_vram_we_i     (mm_vram_we),
    .mm_vram_wrow_i   (mm_vram_wrow),
    .mm_vram_wdata_i  (mm_vram_wdata),
    .mm_vram_wmask_i  (mm_vram_wmask),
    .dma_vram_we_i    (dma_vram_we),
    .dma_vram_wrow_i  (dma_vram_wrow),
    .dma_vram_wdata_i (dma_vram_wdata),
    .mm_mram_re_i     (mm_mram_re),
    .mm_mram_row_i    (mm_mram_row),
    .mram_rdata_o     (mram_rdata_q),
    .dma_mram_we_i    (dma_mram_we),
    .dma_mram_wrow_i  (dma_mram_wrow),
    .dma_mram_wdata_i (dma_mram_wdata),
    .fpsram_raddr_i   (fpsram_raddr),
    .fpsram_rdata_o   (fpsram_rdata_async),
    .intsram_raddr_i  (dec_int_raddr),
    .intsram_rdata_o  (int_rdata_async),
    .sc_fps_we_i      (sc_fps_we),
    .sc_fps_waddr_i   (sc_fps_waddr),
    .sc_fps_wdata_i   (sc_fps_wdata),
    .sc_ints_we_i     (sc_ints_we),
    .sc_ints_waddr_i  (sc_ints_waddr),
    .sc_ints_wdata_i  (sc_ints_wdata),
    .topk_fp_we_i     (topk_fp_we),
    .topk_fp_waddr_i  (topk_fp_waddr),
    .topk_fp_wdata_i  (topk_fp_wdata),
    .topk_int_we_i    (topk_int_we),
    .topk_int_waddr_i (topk_int_waddr),
    .topk_int_wdata_i (topk_int_wdata),
    .vec_exp_addr_i   (vec_exp_addr),
    .vec_reci_addr_i  (vec_reci_addr),
    .topk_exp_addr_i  (topk_exp_addr),
    .topk_reci_addr_i (topk_reci_addr),
    .sc_rom_addr_i    (sc_rom_addr),
    .exp_data_o       (exp_data),
    .reci_data_o      (reci_data),
    .sqrt_data_o      (sqrt_data),
    .vram_we_o        (vram_we),
    .vram_wrow_o      (vram_wrow),
    .fpsram_we_o      (fps_we),
    .fpsram_waddr_o   (fps_waddr),
    .intsram_we_o     (ints_we),
    .intsram_waddr_o  (ints_waddr)
  );

  //////////////
  // Trace    //
  //////////////

  assign issue_valid_o  = issue;
  assign issue_pc_o     = pc;
  assign retire_valid_o = retire;
  assign retire_pc_o    = pc;
  assign retire_word_o  = word;
  assign retire_stage_o = stage;
  assign trap_valid_o   = trap;
  assign trap_cause_o   = dec_cause;
  assign trap_pc_o      = pc;
  assign trap_word_o    = word;
  assign trap_stage_o   = stage;
  assign halted_o       = halted && (dmaq_count == '0);
  assign stall_o        = stall;
  assign stall_cause_o  = stall_cause;
  assign xfer_push_o    = dmaq_push;
  assign xfer_start_o   = dmaq_start && (dma_queue_q != '0);
  assign xfer_done_o    = dmaq_pop;

  always_comb begin
    unit_busy_o                   = '0;
    unit_busy_o[UNIT_IDX_SCALAR]  = sc_busy;
    unit_busy_o[UNIT_IDX_CONTROL] = ctl_busy;
    unit_busy_o[UNIT_IDX_VECTOR]  = vec_busy;
    unit_busy_o[UNIT_IDX_TOPK]    = topk_busy;
    unit_busy_o[UNIT_IDX_MATRIX]  = mm_busy;
    unit_busy_o[UNIT_IDX_DMA]     = dma_busy || jit_wait;
  end

  assign gp_we_o         = gp_we;
  assign gp_waddr_o      = gp_waddr;
  assign gp_wdata_o      = gp_wdata;
  assign fp_we_o         = fp_we;
  assign fp_waddr_o      = fp_waddr;
  assign fp_wdata_o      = fp_wdata;
  assign areg_we_o       = areg_we;
  assign areg_waddr_o    = regs.rd[2:0];
  assign areg_wdata_o    = {gp_rs1, gp_rs2};
  assign ctrl_we_o       = ctrl_we;
  assign ctrl_sel_o      = ctrl_sel;
  assign ctrl_wdata_o    = ctrl_wdata;
  assign vram_we_o       = vram_we;
  assign vram_wrow_o     = vram_wrow;
  assign dma_vram_we_o   = dma_vram_we;
  assign dma_vram_wrow_o = dma_vram_wrow;
  assign mram_we_o       = dma_mram_we;
  assign mram_wrow_o     = dma_mram_wrow;
  assign fpsram_we_o     = fps_we;
  assign fpsram_waddr_o  = fps_waddr;
  assign intsram_we_o    = ints_we;
  assign intsram_waddr_o = ints_waddr;

  // Row bits beyond the VRAM depth (checked at issue) are not used.
  logic unused_bits;
  assign unused_bits = ^{vec_req.dst_row, vec_req.a_row, vec_req.b_row};

endmodule : moe_top
