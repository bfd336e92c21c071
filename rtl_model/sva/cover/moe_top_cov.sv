// moesim RTL cover properties of the core, bound into moe_top (docs/coverage.md).

`include "moe_cover.svh"

// `disable iff (!rst_ni)` reads the asynchronous reset as a synchronous condition (as the
// assertions, docs/assertions.md).
/* verilator lint_off SYNCASYNCNET */
// A checker reads the fields it needs of the structs and words it is given.
/* verilator lint_off UNUSEDSIGNAL */

/**
 * moe_top: the core's events, on the free-running clock. Trap causes, stall causes, stage codes,
 * units, control registers and V_TOPK policies are named by moesim_isa_pkg and moe_pkg (isa_spec
 * is their single source), never by number.
 *
 * - Core: the core waits on each unit; a one-cycle (control or scalar) instruction issues; an
 *   instruction stalls; the machine halts past the program; each trap cause as the decoder
 *   raises it.
 * - Scoreboard (docs/overlap.md): each stall cause at each queue occupancy (g_occ[n]: n transfers
 *   pending; queue_full at n is a run with DMA_QUEUE = n).
 * - DMA queue: each occupancy, a push at each, a completion at each, a push and a completion in
 *   one cycle; the engine starting a queued transfer in the cycle after the previous one's done,
 *   for every pair of kinds (back to back); the DMA engine busy beside each other unit.
 * - Loops: each depth 1 .. LOOP_DEPTH reached, and a DMA instruction issuing at each depth;
 *   C_LOOP_END jumping back, and leaving; C_BREAK inside a loop, and outside (halts).
 * - V_TOPK at issue: each hardwired policy (TOPK_HW_RMASK[i]), and the register policy
 *   (TOPK_REG_RMASK) with E in {1, VLEN, 255, 256, 512} and k in {1, 255} where k <= E <=
 *   MAX_TOPK_EXPERTS, and with k = E.
 * - Control registers read while they still hold their reset value (no C_SET_*_REG since reset):
 *   SCALE (a DMA instruction), STRIDE (a DMA instruction with stride select), V_MASK (a masked
 *   vector instruction), TOPK_POLICY (V_TOPK with the register policy: it traps unset).
 * - Every stage code of stages.yaml on an issuing instruction.
 */
module moe_top_cov
  import moesim_isa_pkg::*;
  import moe_pkg::*;
#(
  parameter int unsigned  VLEN              = 64,
  parameter int unsigned  LOOP_DEPTH        = 4,
  parameter int unsigned  MAX_TOPK_EXPERTS  = 512,
  localparam int unsigned LoopDepthW        = $clog2(LOOP_DEPTH + 1),
  localparam int unsigned DmaqDepth         = (1 << DMA_QUEUE_BITS) - 1
) (
  input logic                      clk_i,
  input logic                      rst_ni,
  input logic [31:0]               word,
  input logic [STAGE_W-1:0]        stage,
  input logic                      halted,
  input logic                      trapped_q,
  input logic                      trap,
  input trap_e                     dec_cause,
  input logic                      stall,
  input stall_e                    stall_cause,
  input logic                      issue,
  input logic                      single,
  input unit_e                     dec_unit,
  input logic                      busy_q,
  input unit_e                     unit_q,
  input logic [NUM_UNITS-1:0]      unit_busy,
  input logic [DMA_QUEUE_BITS-1:0] dma_queue_q,
  input logic [DMA_QUEUE_BITS-1:0] dmaq_count,
  input logic                      dmaq_push,
  input logic                      dmaq_pop,
  input logic                      dmaq_start,
  input dma_op_e                   dmaq_op,
  input logic                      dma_done,
  input logic [LoopDepthW-1:0]     loop_depth,
  input ctl_req_t                  ctl_req,
  input logic [31:0]               gp_rd,
  input logic                      loop_top_brk,
  input logic                      start_topk,
  input topk_req_t                 topk_req,
  input logic                      start_vec,
  input logic                      vec_masked,
  input logic                      ctrl_we,
  input ctrl_reg_e                 ctrl_sel
);

  /////////////
  // Core    //
  /////////////

  `MOE_COVER(CoreWaitMap_C,    busy_q && unit_q == UNIT_MAP)
  `MOE_COVER(CoreWaitVector_C, busy_q && unit_q == UNIT_VECTOR)
  `MOE_COVER(CoreWaitTopk_C,   busy_q && unit_q == UNIT_TOPK)
  `MOE_COVER(CoreWaitMatrix_C, busy_q && unit_q == UNIT_MATRIX)
  `MOE_COVER(CoreWaitDma_C,    busy_q && unit_q == UNIT_DMA)
  `MOE_COVER(CoreSingle_C,     single)
  `MOE_COVER(CoreStall_C,      stall)
  `MOE_COVER(CoreHaltEnd_C,    halted && !trapped_q)

  `MOE_COVER_LOW(TrapIllegalInstruction_C,       trap && dec_cause == TRAP_ILLEGAL_INSTRUCTION)
  `MOE_COVER_LOW(TrapAddressOutOfRange_C,        trap && dec_cause == TRAP_ADDRESS_OUT_OF_RANGE)
  `MOE_COVER_LOW(TrapAddressMisaligned_C,        trap && dec_cause == TRAP_ADDRESS_MISALIGNED)
  `MOE_COVER_LOW(TrapTopkPolicyUnset_C,          trap && dec_cause == TRAP_TOPK_POLICY_UNSET)
  `MOE_COVER_LOW(TrapTopkPolicyInvalid_C,        trap && dec_cause == TRAP_TOPK_POLICY_INVALID)
  `MOE_COVER_LOW(TrapLoopDepthOverflow_C,        trap && dec_cause == TRAP_LOOP_DEPTH_OVERFLOW)
  `MOE_COVER_LOW(TrapLoopUnderflow_C,            trap && dec_cause == TRAP_LOOP_UNDERFLOW)
  `MOE_COVER_LOW(TrapLoopCountZero_C,            trap && dec_cause == TRAP_LOOP_COUNT_ZERO)
  `MOE_COVER_LOW(TrapInstructionBudgetExceeded_C,
                 trap && dec_cause == TRAP_INSTRUCTION_BUDGET_EXCEEDED)

  ////////////////////////////
  // Scoreboard, DMA queue  //
  ////////////////////////////

  for (genvar n = 1; n <= int'(DmaqDepth); n++) begin : g_occ
    `MOE_COVER(StallQueueFull_C,
               stall && stall_cause == STALL_QUEUE_FULL && dmaq_count == DMA_QUEUE_BITS'(n))
    `MOE_COVER(StallRaw_C, stall && stall_cause == STALL_RAW && dmaq_count == DMA_QUEUE_BITS'(n))
    `MOE_COVER(StallWaw_C, stall && stall_cause == STALL_WAW && dmaq_count == DMA_QUEUE_BITS'(n))
    `MOE_COVER(StallWar_C, stall && stall_cause == STALL_WAR && dmaq_count == DMA_QUEUE_BITS'(n))
  end

  for (genvar n = 0; n <= int'(DmaqDepth); n++) begin : g_cnt
    `MOE_COVER(DmaqCount_C, dma_queue_q != '0 && dmaq_count == DMA_QUEUE_BITS'(n))
    if (n < int'(DmaqDepth)) begin : g_push
      `MOE_COVER(DmaqPush_C, dmaq_push && dmaq_count == DMA_QUEUE_BITS'(n))
    end
    if (n > 0) begin : g_pop
      `MOE_COVER(DmaqPop_C, dmaq_pop && dmaq_count == DMA_QUEUE_BITS'(n))
    end
  end
  `MOE_COVER(DmaqPushPop_C, dmaq_push && dmaq_pop)

  // Back to back: the engine starts a transfer that waited in the queue in the cycle after it
  // completed the previous one (last_op_q: the kind of the transfer it started last).
  logic    done_q;
  dma_op_e last_op_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      done_q    <= 1'b0;
      last_op_q <= DMA_PREFETCH_M;
    end else begin
      done_q <= dma_done;
      if (dmaq_start) last_op_q <= dmaq_op;
    end
  end
  logic b2b;
  assign b2b = dmaq_start && done_q && dma_queue_q != '0 && dmaq_count != '0;
  `MOE_COVER(DmaB2bPrefetchMPrefetchM_C,
             b2b && last_op_q == DMA_PREFETCH_M && dmaq_op == DMA_PREFETCH_M)
  `MOE_COVER(DmaB2bPrefetchMPrefetchV_C,
             b2b && last_op_q == DMA_PREFETCH_M && dmaq_op == DMA_PREFETCH_V)
  `MOE_COVER(DmaB2bPrefetchMStoreV_C,
             b2b && last_op_q == DMA_PREFETCH_M && dmaq_op == DMA_STORE_V)
  `MOE_COVER(DmaB2bPrefetchVPrefetchM_C,
             b2b && last_op_q == DMA_PREFETCH_V && dmaq_op == DMA_PREFETCH_M)
  `MOE_COVER(DmaB2bPrefetchVPrefetchV_C,
             b2b && last_op_q == DMA_PREFETCH_V && dmaq_op == DMA_PREFETCH_V)
  `MOE_COVER(DmaB2bPrefetchVStoreV_C,
             b2b && last_op_q == DMA_PREFETCH_V && dmaq_op == DMA_STORE_V)
  `MOE_COVER(DmaB2bStoreVPrefetchM_C,
             b2b && last_op_q == DMA_STORE_V && dmaq_op == DMA_PREFETCH_M)
  `MOE_COVER(DmaB2bStoreVPrefetchV_C,
             b2b && last_op_q == DMA_STORE_V && dmaq_op == DMA_PREFETCH_V)
  `MOE_COVER(DmaB2bStoreVStoreV_C,
             b2b && last_op_q == DMA_STORE_V && dmaq_op == DMA_STORE_V)

  logic dma_busy;
  assign dma_busy = unit_busy[UNIT_IDX_DMA];
  `MOE_COVER(OverlapDmaScalar_C,  dma_busy && unit_busy[UNIT_IDX_SCALAR])
  `MOE_COVER(OverlapDmaControl_C, dma_busy && unit_busy[UNIT_IDX_CONTROL])
  `MOE_COVER(OverlapDmaVector_C,  dma_busy && unit_busy[UNIT_IDX_VECTOR])
  `MOE_COVER(OverlapDmaTopk_C,    dma_busy && unit_busy[UNIT_IDX_TOPK])
  `MOE_COVER(OverlapDmaMatrix_C,  dma_busy && unit_busy[UNIT_IDX_MATRIX])

  ///////////
  // Loops //
  ///////////

  for (genvar d = 1; d <= int'(LOOP_DEPTH); d++) begin : g_depth
    `MOE_COVER(LoopDepth_C, loop_depth == LoopDepthW'(d))
    `MOE_COVER(LoopDmaInBody_C, issue && dec_unit == UNIT_DMA && loop_depth == LoopDepthW'(d))
  end
  logic loop_end;
  assign loop_end = single && ctl_req.op == CTL_LOOP_END;
  `MOE_COVER(LoopEndJump_C, loop_end && gp_rd > 32'd1 && !loop_top_brk)
  `MOE_COVER(LoopEndExit_C, loop_end && gp_rd <= 32'd1 && !loop_top_brk)
  `MOE_COVER(LoopEndAfterBreak_C, loop_end && gp_rd > 32'd1 && loop_top_brk)
  `MOE_COVER(LoopBreakInside_C, single && ctl_req.op == CTL_BREAK && loop_depth != '0)
  `MOE_COVER(LoopBreakOutside_C, single && ctl_req.op == CTL_BREAK && loop_depth == '0)

  ///////////
  // V_TOPK //
  ///////////

  logic [3:0] rmask;
  logic       topk_reg;
  assign rmask    = word[R3_HI:R3_LO];
  assign topk_reg = start_topk && rmask == TOPK_REG_RMASK;
  for (genvar i = 0; i < int'(TOPK_HW_N); i++) begin : g_hw
    `MOE_COVER(TopkHardwired_C, start_topk && rmask == TOPK_HW_RMASK[i])
  end
  `MOE_COVER(TopkRegE1K1_C, topk_reg && topk_req.e == 16'd1 && topk_req.k == 16'd1)
  `MOE_COVER(TopkRegEVlenK1_C, topk_reg && topk_req.e == 16'(VLEN) && topk_req.k == 16'd1)
  if (MAX_TOPK_EXPERTS >= 255) begin : g_e255
    `MOE_COVER(TopkRegE255K1_C, topk_reg && topk_req.e == 16'd255 && topk_req.k == 16'd1)
    `MOE_COVER(TopkRegE255K255_C, topk_reg && topk_req.e == 16'd255 && topk_req.k == 16'd255)
  end
  if (MAX_TOPK_EXPERTS >= 256) begin : g_e256
    `MOE_COVER(TopkRegE256K1_C, topk_reg && topk_req.e == 16'd256 && topk_req.k == 16'd1)
    `MOE_COVER(TopkRegE256K255_C, topk_reg && topk_req.e == 16'd256 && topk_req.k == 16'd255)
  end
  if (MAX_TOPK_EXPERTS >= 512) begin : g_e512
    `MOE_COVER(TopkRegE512K1_C, topk_reg && topk_req.e == 16'd512 && topk_req.k == 16'd1)
    `MOE_COVER(TopkRegE512K255_C, topk_reg && topk_req.e == 16'd512 && topk_req.k == 16'd255)
  end
  `MOE_COVER(TopkRegKEqualsE_C, topk_reg && topk_req.k == topk_req.e)

  ////////////////////////////////////
  // Reset values read before write //
  ////////////////////////////////////

  logic [NUM_CTRL_REGS-1:0] written_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      written_q <= '0;
    end else if (ctrl_we) begin
      written_q[ctrl_sel] <= 1'b1;
    end
  end
  logic dma_issue, dma_seen, topk_reg_seen;
  assign dma_issue     = issue && dec_unit == UNIT_DMA;
  // An H_* issuing or trapping: with HBM_V_ROWS > 1, STRIDE at its reset value 1 misaligns row 1,
  // so an H_* that reads it unset traps at issue (the decoder read it to find that out).
  assign dma_seen      = (issue || trap) && dec_unit == UNIT_DMA;
  // V_TOPK with the register policy, issuing or trapping (an unset policy traps at issue).
  assign topk_reg_seen = (issue || trap) && word[OPCODE_HI:OPCODE_LO] == OP_V_TOPK &&
                         rmask == TOPK_REG_RMASK;
  `MOE_COVER(ResetReadScale_C, dma_issue && !written_q[CTRL_SCALE])
  // H_* with r3 = 1 address rows with STRIDE (moe_decoder h_stride).
  `MOE_COVER_LOW(ResetReadStride_C, dma_seen && rmask == 4'd1 && !written_q[CTRL_STRIDE])
  `MOE_COVER(ResetReadVMask_C, start_vec && vec_masked && !written_q[CTRL_V_MASK])
  `MOE_COVER_LOW(ResetReadTopkPolicy_C, topk_reg_seen && !written_q[CTRL_TOPK_POLICY])

  ////////////
  // Stages //
  ////////////

  `MOE_COVER(StageOther_C,                  issue && stage == STAGE_OTHER)
  `MOE_COVER(StageResidualSetup_C,          issue && stage == STAGE_RESIDUAL_SETUP)
  `MOE_COVER(StageRouterTopk_C,             issue && stage == STAGE_ROUTER_TOPK)
  `MOE_COVER(StageAccumulatorInit_C,        issue && stage == STAGE_ACCUMULATOR_INIT)
  `MOE_COVER(StageGather_C,                 issue && stage == STAGE_GATHER)
  `MOE_COVER(StageExpertWeightAddress_C,    issue && stage == STAGE_EXPERT_WEIGHT_ADDRESS)
  `MOE_COVER(StageExpertWeightPrefetch_C,   issue && stage == STAGE_EXPERT_WEIGHT_PREFETCH)
  `MOE_COVER(StageExpertProjection_C,       issue && stage == STAGE_EXPERT_PROJECTION)
  `MOE_COVER(StageExpertActivation_C,       issue && stage == STAGE_EXPERT_ACTIVATION)
  `MOE_COVER(StageExpertBias_C,             issue && stage == STAGE_EXPERT_BIAS)
  `MOE_COVER(StageExpertRouteWeight_C,      issue && stage == STAGE_EXPERT_ROUTE_WEIGHT)
  `MOE_COVER(StageScatterCombine_C,         issue && stage == STAGE_SCATTER_COMBINE)
  `MOE_COVER(StageSharedExpertProjection_C, issue && stage == STAGE_SHARED_EXPERT_PROJECTION)
  `MOE_COVER(StageSharedExpertActivation_C, issue && stage == STAGE_SHARED_EXPERT_ACTIVATION)
  `MOE_COVER(StageSharedExpertGate_C,       issue && stage == STAGE_SHARED_EXPERT_GATE)
  `MOE_COVER(StageNonMoe_C,                 issue && stage == STAGE_NON_MOE)

endmodule : moe_top_cov
