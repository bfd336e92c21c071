// moesim RTL: fetch, issue and loop control of the core.

/**
 * The in-order control of moe_top (docs/architecture.md): the instruction memory and the pc, the
 * issue decision, the unit the core waits on, the retired-instruction count, the loop stack and
 * the one-cycle control instructions.
 *
 * - Fetch: instruction pc_q is read asynchronously from imem ({stage, word} per entry, preloaded
 *   by the harness). The machine halts when pc_q reaches prog_len_i or after a trap.
 * - Issue: with no unit busy and not halted, the instruction traps (trap_o: it occupies no cycle,
 *   nothing is written, the machine stops), stalls (stall_o) or issues (issue_o). A UNIT_CORE
 *   instruction (single_o) retires in its issue cycle; any other starts its unit
 *   (start_<unit>_o), and the core waits (busy_q, unit_q) for the unit's done (unit_done_i), the
 *   retire cycle. act_unit_o is the unit owning the shared memory ports this cycle (the issuing
 *   one, or the busy one).
 * - DMA queue (docs/overlap.md; dma_queue_i = DMA_QUEUE > 0): a DMA instruction issues into
 *   moe_dma_queue (start_dma_o) and retires in its issue cycle. The scoreboard holds issue
 *   (stall_o) while the instruction has a hazard: a DMA instruction while dma_queue_i transfers
 *   are pending (queue_full); any other while its footprint (footprint_i, from the decoder)
 *   meets the region of a pending transfer (dmaq_valid_i, dmaq_region_i, oldest first): RAW
 *   (the transfer writes rows it reads), WAW (writes rows it writes), WAR (reads rows it
 *   writes). stall_cause_o is the cause the stall is billed to: queue_full, or the kind of
 *   conflict with the youngest conflicting transfer (RAW before WAW before WAR). Traps come
 *   first: a trapping instruction never stalls. With dma_queue_i = 0 nothing is pending and
 *   the DMA unit is waited on as any unit.
 * - Control instructions (ctl_req_i, issue cycle): C_SET_ADDR_REG and C_SET_<reg>_REG request the
 *   register file writes (areg_we_o, ctrl_we_o: control register ctrl_sel_o = gp[rd]);
 *   C_LOOP_START writes the count to gp[rd] and pushes pc+1; C_LOOP_END decrements gp[rd] and
 *   jumps to the innermost body start while the count is above 1 and the loop is not marked,
 *   else clears gp[rd] and pops; C_BREAK marks the innermost loop, or halts outside a loop (pc
 *   moves to prog_len_i).
 * - State public to the harness: pc_q, retired_q, the loop stack (LOOP_DEPTH body-start pcs with
 *   a C_BREAK mark each, loop_depth_q), imem.
 */
module moe_fetch_ctrl
  import moesim_isa_pkg::*;
  import moe_pkg::*;
#(
  parameter int unsigned  LOOP_DEPTH = 4,
  parameter int unsigned  IMEM_WORDS = 65536,
  localparam int unsigned LoopDepthW = $clog2(LOOP_DEPTH + 1),
  localparam int unsigned DmaqDepth  = (1 << DMA_QUEUE_BITS) - 1
) (
  input  logic                  clk_i,
  input  logic                  rst_ni,
  input  logic [31:0]           prog_len_i,

  // Fetch
  output logic [31:0]           pc_o,
  output logic [31:0]           word_o,
  output logic [STAGE_W-1:0]    stage_o,
  output logic                  halted_o,

  // Issue
  input  logic                  dec_trap_i,
  input  unit_e                 dec_unit_i,
  input  footprint_t            footprint_i,
  input  logic [DMA_QUEUE_BITS-1:0] dma_queue_i,  // DMA_QUEUE of the run
  input  logic [DMA_QUEUE_BITS-1:0] dmaq_count_i, // pending transfers
  input  logic [DmaqDepth-1:0]  dmaq_valid_i,
  input  region_t [DmaqDepth-1:0] dmaq_region_i,
  input  ctl_req_t              ctl_req_i,
  input  logic [31:0]           gp_rd_i,        // gp[rd]: C_LOOP_END count, C_SET_*_REG value
  input  logic                  unit_done_i,    // the busy unit's last cycle
  output logic                  trap_o,
  output logic                  stall_o,        // the instruction waits on the scoreboard
  output stall_e                stall_cause_o,
  output logic                  issue_o,
  output logic                  single_o,       // a UNIT_CORE instruction issues
  output logic                  start_map_o,
  output logic                  start_vec_o,
  output logic                  start_topk_o,
  output logic                  start_mm_o,
  output logic                  start_dma_o,
  output unit_e                 act_unit_o,
  output logic                  retire_o,
  output logic [31:0]           retired_o,      // instructions retired so far
  output logic [LoopDepthW-1:0] loop_depth_o,

  // Control instructions: register file writes
  output logic                  ctl_busy_o,     // a control instruction issues
  output logic                  ctl_gp_we_o,    // gp[rd]
  output logic [31:0]           ctl_gp_wdata_o,
  output logic                  areg_we_o,
  output logic                  ctrl_we_o,
  output ctrl_reg_e             ctrl_sel_o,
  output logic [31:0]           ctrl_wdata_o
);

  localparam int unsigned ImemW     = STAGE_W + 32;
  localparam int unsigned ImemAddrW = $clog2(IMEM_WORDS);

  logic [ImemW-1:0] imem [IMEM_WORDS] /*verilator public_flat_rw*/;

  logic [31:0] loop_pc_q [LOOP_DEPTH];
  logic        loop_brk_q [LOOP_DEPTH];  // C_BREAK marked the loop: its C_LOOP_END exits
  logic [LoopDepthW-1:0] loop_depth_q;

  logic [31:0] pc_q, pc_d;
  logic [31:0] retired_q;
  logic        busy_q, busy_d;
  unit_e       unit_q;
  logic        trapped_q;

  ///////////
  // Fetch //
  ///////////

  logic [ImemW-1:0] fetch;
  assign fetch    = imem[ImemAddrW'(pc_q)];
  assign pc_o     = pc_q;
  assign word_o   = fetch[31:0];
  assign stage_o  = fetch[ImemW-1:32];
  assign halted_o = trapped_q || (pc_q >= prog_len_i);

  ///////////
  // Issue //
  ///////////

  logic can_issue, hazard, dma_queued;
  assign can_issue  = !busy_q && !halted_o;
  assign trap_o     = can_issue && dec_trap_i;
  assign stall_o    = can_issue && !dec_trap_i && hazard;
  assign issue_o    = can_issue && !dec_trap_i && !hazard;
  assign single_o   = issue_o && (dec_unit_i == UNIT_CORE);
  // A DMA instruction issuing into the queue occupies the core for its issue cycle only.
  assign dma_queued = issue_o && (dec_unit_i == UNIT_DMA) && (dma_queue_i != '0);

  assign start_map_o  = issue_o && (dec_unit_i == UNIT_MAP);
  assign start_vec_o  = issue_o && (dec_unit_i == UNIT_VECTOR);
  assign start_topk_o = issue_o && (dec_unit_i == UNIT_TOPK);
  assign start_mm_o   = issue_o && (dec_unit_i == UNIT_MATRIX);
  assign start_dma_o  = issue_o && (dec_unit_i == UNIT_DMA);

  assign act_unit_o   = busy_q ? unit_q : dec_unit_i;
  assign retire_o     = single_o || dma_queued || unit_done_i;
  assign retired_o    = retired_q;
  assign loop_depth_o = loop_depth_q;

  ////////////////
  // Scoreboard //
  ////////////////

  function automatic logic meets(rows_t a, rows_t b);
    return (a.lo < b.hi) && (b.lo < a.hi);  // an empty interval meets nothing
  endfunction

  // Per pending transfer: the conflicts of the instruction's footprint with its region.
  logic [DmaqDepth-1:0] raw, waw, war;
  always_comb begin
    for (int i = 0; i < int'(DmaqDepth); i++) begin
      region_t g;
      logic    rd, wr;
      g      = dmaq_region_i[i];
      rd     = g.mram ? meets(footprint_i.mram_rd, g.rows)
                      : meets(footprint_i.vram_rd_a, g.rows) || meets(footprint_i.vram_rd_b, g.rows);
      wr     = !g.mram && meets(footprint_i.vram_wr, g.rows);
      raw[i] = dmaq_valid_i[i] && g.write && rd;
      waw[i] = dmaq_valid_i[i] && g.write && wr;
      war[i] = dmaq_valid_i[i] && !g.write && wr;
    end
  end

  // The cause: queue_full for a DMA instruction, else the conflict with the youngest conflicting
  // transfer (the last entry, in issue order, with one).
  always_comb begin
    stall_cause_o = STALL_NONE;
    if (dec_unit_i == UNIT_DMA) begin
      if ((dma_queue_i != '0) && (dmaq_count_i >= dma_queue_i)) stall_cause_o = STALL_QUEUE_FULL;
    end else begin
      for (int i = 0; i < int'(DmaqDepth); i++) begin
        if (raw[i])      stall_cause_o = STALL_RAW;
        else if (waw[i]) stall_cause_o = STALL_WAW;
        else if (war[i]) stall_cause_o = STALL_WAR;
      end
    end
  end
  assign hazard = (stall_cause_o != STALL_NONE);

  //////////////////////////
  // Control instructions //
  //////////////////////////

  logic        loop_push, loop_pop, loop_jump, loop_break, brk_halt, loop_top_brk;
  logic [31:0] loop_top;

  assign loop_top     = loop_pc_q[(loop_depth_q == '0) ? 0 : 32'(loop_depth_q) - 1];
  assign loop_top_brk = loop_brk_q[(loop_depth_q == '0) ? 0 : 32'(loop_depth_q) - 1];

  always_comb begin
    ctl_busy_o     = 1'b0;
    ctl_gp_we_o    = 1'b0;
    ctl_gp_wdata_o = '0;
    areg_we_o      = 1'b0;
    ctrl_we_o      = 1'b0;
    ctrl_sel_o     = CTRL_SCALE;
    ctrl_wdata_o   = gp_rd_i;
    loop_push      = 1'b0;
    loop_pop       = 1'b0;
    loop_jump      = 1'b0;
    loop_break     = 1'b0;
    brk_halt       = 1'b0;
    if (single_o) begin
      ctl_busy_o = 1'b1;
      unique case (ctl_req_i.op)
        CTL_SET_ADDR: areg_we_o = 1'b1;
        CTL_SET_CTRL: begin ctrl_we_o = 1'b1; ctrl_sel_o = ctl_req_i.ctrl_sel; end
        CTL_LOOP_START: begin
          ctl_gp_we_o    = 1'b1;
          ctl_gp_wdata_o = ctl_req_i.loop_count;
          loop_push      = 1'b1;
        end
        CTL_LOOP_END: begin
          ctl_gp_we_o = 1'b1;
          if ((gp_rd_i > 32'd1) && !loop_top_brk) begin
            ctl_gp_wdata_o = gp_rd_i - 32'd1;
            loop_jump      = 1'b1;
          end else begin
            ctl_gp_wdata_o = 32'd0;
            loop_pop       = 1'b1;
          end
        end
        CTL_BREAK: begin
          // Outside a loop: halt (pc past the program). Inside: mark the innermost loop.
          brk_halt   = (loop_depth_q == '0);
          loop_break = (loop_depth_q != '0);
        end
        default: ctl_busy_o = 1'b0;  // a scalar unit instruction
      endcase
    end
  end

  ///////////////
  // Registers //
  ///////////////

  always_comb begin
    busy_d = busy_q;
    if (issue_o && !single_o && !dma_queued) busy_d = 1'b1;
    if (unit_done_i) busy_d = 1'b0;
    pc_d = pc_q;
    if (retire_o) pc_d = loop_jump ? loop_top : brk_halt ? prog_len_i : pc_q + 32'd1;
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
      retired_q <= retired_q + 32'(retire_o);
      busy_q    <= busy_d;
      if (issue_o) unit_q <= dec_unit_i;
      if (trap_o) trapped_q <= 1'b1;
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

endmodule : moe_fetch_ctrl
