// moesim RTL coverage: binds the cover properties and lane probes of rtl_model/sva/cover into
// moe_top and its units (docs/coverage.md), as moe_sva_bind.sv binds the assertions. Compiled
// into the coverage build's model only (rtl_model/coverage.cmake).

bind moe_top moe_top_cov #(
  .VLEN             (VLEN),
  .LOOP_DEPTH       (LOOP_DEPTH),
  .MAX_TOPK_EXPERTS (MAX_TOPK_EXPERTS)
) u_cov (
  .clk_i,
  .rst_ni,
  .word,
  .stage,
  .halted,
  .trapped_q    (u_fetch.trapped_q),
  .trap,
  .dec_cause,
  .stall,
  .stall_cause,
  .issue,
  .single,
  .dec_unit,
  .busy_q       (u_fetch.busy_q),
  .unit_q       (u_fetch.unit_q),
  .unit_busy    (unit_busy_o),
  .dma_queue_q,
  .dmaq_count,
  .dmaq_push,
  .dmaq_pop,
  .dmaq_start,
  .dmaq_op      (dmaq_req.op),
  .dma_done,
  .loop_depth,
  .ctl_req,
  .gp_rd,
  .loop_top_brk (u_fetch.loop_top_brk),
  .start_topk,
  .topk_req,
  .start_vec,
  .vec_masked   (vec_req.masked),
  .ctrl_we,
  .ctrl_sel
);

bind moe_scalar_unit moe_map_cov u_cov (
  .clk_i, .rst_ni, .start_i(map_start_i), .busy_q, .done_i(map_done_o));

bind moe_vector_unit moe_vector_unit_cov #(.VLEN(VLEN)) u_cov (
  .clk_i, .rst_ni, .start_i, .op_i, .masked_i, .use_scalar_i,
  .q_idle(state_q == StIdle), .q_row(state_q == StRow), .q_tree(state_q == StTree),
  .q_final(state_q == StFinal), .q_scan(state_q == StScan),
  .d_idle(state_d == StIdle), .d_row(state_d == StRow), .d_tree(state_d == StTree),
  .d_final(state_d == StFinal), .d_scan(state_d == StScan));

bind moe_topk_unit moe_topk_unit_cov u_cov (
  .clk_i, .rst_ni,
  .q_idle(state_q == StIdle), .q_scan(state_q == StScan), .q_exp(state_q == StExp),
  .q_wgt(state_q == StWgt),
  .d_idle(state_d == StIdle), .d_scan(state_d == StScan), .d_exp(state_d == StExp),
  .d_wgt(state_d == StWgt),
  .nan_logit(logit[14:7] == 8'hFF && logit[6:0] != 7'd0),
  .list_full(32'(list_cnt_q) == MaxK),
  .sum_bad);

bind moe_matrix_unit moe_matrix_unit_cov #(.BLEN(BLEN), .MX_BLOCK(MX_BLOCK), .HLEN(HLEN)) u_cov (
  .clk_i, .rst_ni, .start_i, .op_i,
  .q_idle(state_q == StIdle), .q_load(state_q == StLoad), .q_mac(state_q == StMac),
  .q_write(state_q == StWrite),
  .d_idle(state_d == StIdle), .d_load(state_d == StLoad), .d_mac(state_d == StMac),
  .d_write(state_d == StWrite),
  .acc_q,
  .vacc_q,
  .is_t_q, .is_h_q,
  .row_scales(scale_blk),
  .t_scales(ts_blk),
  .h_scales(h_scales_q[h_col]));

bind moe_dma_unit moe_dma_unit_cov #(.NSCALE(NScale)) u_cov (
  .clk_i, .rst_ni, .start_i, .op_i,
  .vram_we(vram_we_o), .mram_we(mram_we_o),
  .row_scales(row_view[8*LEN +: 8*NScale]),
  .scale_beat(hbm_req_valid_o && hbm_req_we_o && 32'(cur_beat) == CodeBeats),
  .enc_scales(enc_row[8*LEN +: 8*NScale]));

// Toggle coverage of the buses wider than --coverage-max-width, lane by lane (moe_lanes_cov):
// the VRAM ports (VLEN lanes of 16 bits), the BF16 ROM ports of the vector unit, the MRAM ports
// (MLEN code bytes and MLEN / MX_BLOCK scale bytes) and the HBM beats (bytes).
bind moe_top moe_lanes_cov #(.W(VramW), .LANE(16)) u_lanes_vram_a   (.bus_i(vram_a_rdata_q));
bind moe_top moe_lanes_cov #(.W(VramW), .LANE(16)) u_lanes_vram_b   (.bus_i(vram_b_rdata_q));
bind moe_top moe_lanes_cov #(.W(VramW), .LANE(16)) u_lanes_vram_c   (.bus_i(vram_c_rdata_q));
bind moe_top moe_lanes_cov #(.W(VramW), .LANE(16)) u_lanes_vec_wr   (.bus_i(vec_vram_wdata));
bind moe_top moe_lanes_cov #(.W(VramW), .LANE(16)) u_lanes_map_wr   (.bus_i(map_vram_wdata));
bind moe_top moe_lanes_cov #(.W(VramW), .LANE(16)) u_lanes_mm_wr    (.bus_i(mm_vram_wdata));
bind moe_top moe_lanes_cov #(.W(VramW), .LANE(16)) u_lanes_dma_wr   (.bus_i(dma_vram_wdata));
bind moe_top moe_lanes_cov #(.W(VramW), .LANE(16)) u_lanes_exp_addr (.bus_i(vec_exp_addr));
bind moe_top moe_lanes_cov #(.W(VramW), .LANE(16)) u_lanes_exp_data (.bus_i(exp_data));
bind moe_top moe_lanes_cov #(.W(VramW), .LANE(16)) u_lanes_reci_addr (.bus_i(vec_reci_addr));
bind moe_top moe_lanes_cov #(.W(VramW), .LANE(16)) u_lanes_reci_data (.bus_i(reci_data));
bind moe_top moe_lanes_cov #(.W(MramW), .LANE(8))  u_lanes_mram_rd  (.bus_i(mram_rdata_q));
bind moe_top moe_lanes_cov #(.W(MramW), .LANE(8))  u_lanes_mram_wr  (.bus_i(dma_mram_wdata));
bind moe_top moe_lanes_cov #(.W(HBM_BYTES_PER_CYCLE * 8), .LANE(8)) u_lanes_hbm_wr (
  .bus_i(hbm_req_wdata));
bind moe_top moe_lanes_cov #(.W(HBM_BYTES_PER_CYCLE * 8), .LANE(8)) u_lanes_hbm_rd (
  .bus_i(hbm_rsp_rdata));
