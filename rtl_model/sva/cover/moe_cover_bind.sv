// moesim RTL coverage: binds the lane probes of rtl_model/sva/cover into moe_top (docs/coverage.md), as moe_sva_bind.sv binds the assertions. Compiled
// into the coverage build's model only (rtl_model/coverage.cmake).

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
