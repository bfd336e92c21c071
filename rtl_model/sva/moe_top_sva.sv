// moesim RTL assertions: the core checker, bound into moe_top (docs/assertions.md).

`include "moe_assert.svh"

// `disable iff (!rst_ni)` reads the asynchronous reset as a synchronous condition; the
// SYNCASYNCNET lint reports that on the design's rst_ni net: waived for the checker only.
/* verilator lint_off SYNCASYNCNET */

/**
 * moe_top: the core's view, on the free-running clock (a unit's own clock is gated by its busy
 * output, so a done without busy would not be seen on it).
 *
 * - TopOneUnitBusy_A: at most one unit works in a cycle (in-order execution, unit_busy_o); with a
 *   DMA queue (dma_queue_q > 0), at most one besides the DMA engine.
 * - TopUnitLegal_A: unit_q, the unit the core waits on, is a unit_e code.
 * - <Unit>DoneOwner_A: a unit raises done only while the core waits on it (busy_q and unit_q
 *   naming it) or in its own start cycle (one-cycle M_MV_WO / M_BMV_WO / M_MM_WO cases); the
 *   DMA engine with a queue only while a queued transfer runs on it (u_dmaq.running_q).
 * - DMA queue (docs/overlap.md): DmaqPushFull_A, a transfer is queued only while fewer than
 *   dma_queue_q are pending; DmaqPopEmpty_A, one completes only while one is pending;
 *   TopIssueHazard_A, no instruction issues with a hazard: recomputed here from the pending
 *   transfers' regions and the decoder's footprint (RAW, WAW, WAR; queue_full for a DMA
 *   instruction).
 * - TopGp0Port_A: the register-file write port never writes gp0; TopGp0Zero_A: gp0 holds 0.
 * - Memory accesses in range, on the full-width addresses the units compute before moe_top
 *   keeps the low bits: VRAM rows < VRAM_ROWS, MRAM rows < MLEN * MRAM_TILES (run-time size),
 *   FP / INT SRAM words < FP_SRAM_WORDS / INT_SRAM_WORDS, HBM beats inside HBM_BYTES
 *   (run-time size). The other addresses are already VramRowW / FpAddrW / IntAddrW bits wide,
 *   which every machine.yaml preset's power-of-two sizes bound.
 */
module moe_top_sva
  import moesim_isa_pkg::*;
  import moe_pkg::*;
#(
  parameter int unsigned MLEN           = 64,
  parameter int unsigned VRAM_ROWS      = 8192,
  parameter int unsigned FP_SRAM_WORDS  = 4096,
  parameter int unsigned INT_SRAM_WORDS = 4096,
  parameter int unsigned NBytesW        = 7,
  localparam int unsigned DmaqDepth     = (1 << DMA_QUEUE_BITS) - 1
) (
  input logic                       clk_i,
  input logic                       rst_ni,
  input logic [NUM_UNITS-1:0]       unit_busy_i,
  input logic [DMA_QUEUE_BITS-1:0]  dma_queue_q,
  input logic [DMA_QUEUE_BITS-1:0]  dmaq_count,
  input region_t [DmaqDepth-1:0]    dmaq_region,
  input logic                       dmaq_push, dmaq_pop, dmaq_running,
  input logic                       issue,
  input unit_e                      dec_unit,
  input footprint_t                 footprint,
  input logic                       busy_q,
  input unit_e                      unit_q,
  input logic                       start_map, start_vec, start_topk, start_mm, start_dma,
  input logic                       map_done, vec_done, topk_done, mm_done, dma_done,
  input logic                       gp_we,
  input logic [3:0]                 gp_waddr,
  input logic [31:0]                gp0_q,
  input logic [MRAM_TILES_BITS-1:0] mram_tiles_q,
  input logic [HBM_BYTES_BITS-1:0]  hbm_bytes_q,
  input logic                       topk_vram_re,
  input logic [31:0]                topk_vram_row,
  input logic                       topk_int_we,
  input logic [31:0]                topk_int_waddr,
  input logic                       topk_fp_we,
  input logic [31:0]                topk_fp_waddr,
  input logic                       mm_vram_re,
  input logic [31:0]                mm_vram_row,
  input logic                       mm_vram_we,
  input logic [31:0]                mm_vram_wrow,
  input logic                       mm_mram_re,
  input logic [31:0]                mm_mram_row,
  input logic                       dma_mram_we,
  input logic [31:0]                dma_mram_wrow,
  input logic                       hbm_req_valid,
  input logic [63:0]                hbm_req_addr,
  input logic [NBytesW-1:0]         hbm_req_nbytes
);

  logic [63:0] mram_rows;
  assign mram_rows = 64'(MLEN) * 64'(mram_tiles_q);

  logic queued;
  logic [NUM_UNITS-1:0] core_busy;
  assign queued    = (dma_queue_q != '0);
  assign core_busy = queued ? (unit_busy_i & ~(NUM_UNITS'(1) << UNIT_IDX_DMA)) : unit_busy_i;

  `MOE_ASSERT(TopOneUnitBusy_A, $onehot0(core_busy),
              "moe_top: more than one unit busy in one cycle (execution is in order)")
  `MOE_ASSERT(TopUnitLegal_A, unit_q inside {UNIT_CORE, UNIT_MAP, UNIT_VECTOR, UNIT_TOPK,
                                             UNIT_MATRIX, UNIT_DMA},
              "moe_top: unit_q holds no unit_e code")

  `MOE_ASSERT(MapDoneOwner_A, map_done |-> (busy_q && unit_q == UNIT_MAP) || start_map,
              "moe_scalar_unit: S_MAP_V_FP done while the core does not wait on it")
  `MOE_ASSERT(VecDoneOwner_A, vec_done |-> (busy_q && unit_q == UNIT_VECTOR) || start_vec,
              "moe_vector_unit: done while the core does not wait on it")
  `MOE_ASSERT(TopkDoneOwner_A, topk_done |-> (busy_q && unit_q == UNIT_TOPK) || start_topk,
              "moe_topk_unit: done while the core does not wait on it")
  `MOE_ASSERT(MatrixDoneOwner_A, mm_done |-> (busy_q && unit_q == UNIT_MATRIX) || start_mm,
              "moe_matrix_unit: done while the core does not wait on it")
  `MOE_ASSERT(DmaDoneOwner_A,
              dma_done |-> queued ? dmaq_running : ((busy_q && unit_q == UNIT_DMA) || start_dma),
              "moe_dma_unit: done while the core does not wait on it (nor runs a queued transfer)")

  // The scoreboard, recomputed: does the issuing instruction's footprint meet a pending region?
  function automatic logic overlaps(rows_t a, rows_t b);
    return (a.lo < b.hi) && (b.lo < a.hi);
  endfunction
  logic hazard;
  always_comb begin
    hazard = (dec_unit == UNIT_DMA) && queued && (dmaq_count >= dma_queue_q);
    for (int i = 0; i < int'(DmaqDepth); i++) begin
      if ((i < int'(dmaq_count)) && (dec_unit != UNIT_DMA)) begin
        if (dmaq_region[i].mram) begin
          hazard |= overlaps(footprint.mram_rd, dmaq_region[i].rows);  // RAW (MRAM)
        end else begin
          hazard |= overlaps(footprint.vram_wr, dmaq_region[i].rows);  // WAW, WAR
          hazard |= dmaq_region[i].write &&
                    (overlaps(footprint.vram_rd_a, dmaq_region[i].rows) ||
                     overlaps(footprint.vram_rd_b, dmaq_region[i].rows));  // RAW (VRAM)
        end
      end
    end
  end

  `MOE_ASSERT(DmaqPushFull_A, dmaq_push |-> dmaq_count < dma_queue_q,
              "moe_dma_queue: transfer queued while DMA_QUEUE transfers are pending")
  `MOE_ASSERT(DmaqPopEmpty_A, dmaq_pop |-> dmaq_count != '0,
              "moe_dma_queue: transfer completed while none is pending")
  `MOE_ASSERT_NEVER(TopIssueHazard_A, issue && hazard,
                    "moe_fetch_ctrl: instruction issued with a hazard on a pending transfer")

  `MOE_ASSERT_NEVER(TopGp0Port_A, gp_we && gp_waddr == 4'd0,
                    "moe_top: register-file write port writes gp0")
  `MOE_ASSERT(TopGp0Zero_A, gp0_q == 32'd0, "moe_top: gp0 holds a value other than 0")

  `MOE_ASSERT(TopkVramRow_A, topk_vram_re |-> 64'(topk_vram_row) < 64'(VRAM_ROWS),
              "moe_topk_unit: VRAM row read out of range")
  `MOE_ASSERT(TopkIntAddr_A, topk_int_we |-> 64'(topk_int_waddr) < 64'(INT_SRAM_WORDS),
              "moe_topk_unit: INT SRAM word written out of range")
  `MOE_ASSERT(TopkFpAddr_A, topk_fp_we |-> 64'(topk_fp_waddr) < 64'(FP_SRAM_WORDS),
              "moe_topk_unit: FP SRAM word written out of range")
  `MOE_ASSERT(MatrixVramRow_A, mm_vram_re |-> 64'(mm_vram_row) < 64'(VRAM_ROWS),
              "moe_matrix_unit: VRAM row read out of range")
  `MOE_ASSERT(MatrixVramWrow_A, mm_vram_we |-> 64'(mm_vram_wrow) < 64'(VRAM_ROWS),
              "moe_matrix_unit: VRAM row written out of range")
  `MOE_ASSERT(MatrixMramRow_A, mm_mram_re |-> 64'(mm_mram_row) < mram_rows,
              "moe_matrix_unit: MRAM row read past MRAM_TILES tiles")
  `MOE_ASSERT(DmaMramRow_A, dma_mram_we |-> 64'(dma_mram_wrow) < mram_rows,
              "moe_dma_unit: MRAM row written past MRAM_TILES tiles")
  `MOE_ASSERT(DmaHbmRange_A,
              hbm_req_valid |-> 65'(hbm_req_addr) + 65'(hbm_req_nbytes) <= 65'(hbm_bytes_q),
              "moe_dma_unit: HBM beat past HBM_BYTES")

endmodule : moe_top_sva
