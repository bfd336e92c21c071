// moesim RTL assertions: binds the checkers of rtl_model/sva into moe_top and its units, so
// that the hardware files hold no verification code (docs/assertions.md).

bind moe_top moe_top_sva #(
  .MLEN           (MLEN),
  .VRAM_ROWS      (VRAM_ROWS),
  .FP_SRAM_WORDS  (FP_SRAM_WORDS),
  .INT_SRAM_WORDS (INT_SRAM_WORDS),
  .NBytesW        (NBytesW)
) u_sva (
  .clk_i,
  .rst_ni,
  .unit_busy_i    (unit_busy_o),
  .dma_queue_q,
  .dmaq_count,
  .dmaq_region,
  .dmaq_push,
  .dmaq_pop,
  .dmaq_running   (u_dmaq.running_q),
  .issue,
  .dec_unit,
  .footprint,
  .busy_q         (u_fetch.busy_q),
  .unit_q         (u_fetch.unit_q),
  .start_map,
  .start_vec,
  .start_topk,
  .start_mm,
  .start_dma,
  .map_done,
  .vec_done,
  .topk_done,
  .mm_done,
  .dma_done,
  .gp_we,
  .gp_waddr,
  .gp0_q          (u_regs.gp_q[0]),
  .mram_tiles_q,
  .hbm_bytes_q,
  .topk_vram_re,
  .topk_vram_row,
  .topk_int_we,
  .topk_int_waddr,
  .topk_fp_we,
  .topk_fp_waddr,
  .mm_vram_re,
  .mm_vram_row,
  .mm_vram_we,
  .mm_vram_wrow,
  .mm_mram_re,
  .mm_mram_row,
  .dma_mram_we,
  .dma_mram_wrow  (32'(dma_mram_wrow)),
  .hbm_req_valid,
  .hbm_req_addr,
  .hbm_req_nbytes
);

bind moe_scalar_unit moe_map_sva u_sva (
  .clk_i, .rst_ni, .start_i(map_start_i), .idle_i(!busy_q));
bind moe_vector_unit moe_vector_unit_sva u_sva (
  .clk_i, .rst_ni, .start_i, .idle_i(state_q == StIdle),
  .state_legal_i(state_q inside {StIdle, StRow, StTree, StFinal, StScan}));
bind moe_topk_unit moe_topk_unit_sva u_sva (.clk_i, .rst_ni, .start_i, .idle_i(state_q == StIdle));
bind moe_matrix_unit moe_matrix_unit_sva u_sva (
  .clk_i, .rst_ni, .start_i, .idle_i(state_q == StIdle));
bind moe_dma_unit moe_dma_unit_sva u_sva (.clk_i, .rst_ni, .start_i, .idle_i(!busy_q));
