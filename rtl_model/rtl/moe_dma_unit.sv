// moesim RTL: DMA unit (H_PREFETCH_M, H_PREFETCH_V, H_STORE_V) with MX decode and encode.

/**
 * Moves rows between HBM and VRAM/MRAM beat by beat. A row is LEN E4M3 code bytes followed by
 * LEN/MX_BLOCK E8M0 scale bytes; in HBM the codes of row i sit at code_addr + i*stride and the
 * scales at scale_addr + i*scale_stride. Each row takes CodeBeats = ceil(LEN/BPC) code beats and
 * ScaleBeats = ceil(LEN/MX_BLOCK/BPC) scale beats, one HBM beat request per cycle, rows back to
 * back; moe_hbm answers each beat HBM_LATENCY cycles after its request.
 *
 * Prefetch (M and V): beat requests go out in cycles 0 .. B-1 (B = rows * RowBeats; cycle 0 is
 * the issue cycle); responses arrive in cycles HBM_LATENCY .. HBM_LATENCY+B-1 and are merged
 * into a row buffer. The response of a row's last beat completes the row, which is written in
 * the same cycle: raw to MRAM (H_PREFETCH_M), or through LEN moe_mx_dequant lanes to VRAM
 * (H_PREFETCH_V). The last response is the last cycle: latency HBM_LATENCY + B.
 *
 * Store (H_STORE_V): cycle 0 reads VRAM row 0; MX_BLOCK-element blocks of the row are encoded
 * by LEN/MX_BLOCK moe_mx_quant_block instances; write beats go out in cycles 1 .. B, the next
 * row being read in the cycle of the previous row's last beat. The last write acknowledge is the
 * last cycle: latency HBM_LATENCY + B + 1.
 *
 * busy_o is high from the start cycle to the done cycle inclusive; done_o marks the last one.
 */
module moe_dma_unit
  import moe_pkg::*;
#(
  parameter int unsigned LEN        = 64,   // VLEN = MLEN
  parameter int unsigned MX_BLOCK   = 8,
  parameter int unsigned BPC        = 64,   // HBM_BYTES_PER_CYCLE
  parameter int unsigned HBM_V_ROWS = 4,
  parameter int unsigned HBM_M_ROWS = 64,
  parameter int unsigned VramRowW   = 13,
  parameter int unsigned MramRowW   = 10,
  localparam int unsigned NScale    = LEN / MX_BLOCK,
  localparam int unsigned RowBytes  = LEN + NScale,
  localparam int unsigned RowW      = 8 * RowBytes,
  localparam int unsigned NBytesW   = $clog2(BPC + 1)
) (
  input  logic                clk_i,
  input  logic                rst_ni,

  // Issue
  input  logic                start_i,
  input  dma_op_e             op_i,
  input  logic [31:0]         row_i,           // first VRAM row / MRAM tile row
  input  logic [63:0]         code_addr_i,
  input  logic [63:0]         scale_addr_i,
  input  logic [31:0]         stride_i,
  input  logic [31:0]         scale_stride_i,
  output logic                done_o,
  output logic                busy_o,

  // HBM beat interface
  output logic                hbm_req_valid_o,
  output logic                hbm_req_we_o,
  output logic [63:0]         hbm_req_addr_o,
  output logic [NBytesW-1:0]  hbm_req_nbytes_o,
  output logic [BPC*8-1:0]    hbm_req_wdata_o,
  input  logic                hbm_rsp_valid_i,
  input  logic [BPC*8-1:0]    hbm_rsp_rdata_i,

  // VRAM (store reads, H_PREFETCH_V writes)
  output logic                vram_re_o,
  output logic [VramRowW-1:0] vram_row_o,
  input  logic [LEN*16-1:0]   vram_rdata_i,
  output logic                vram_we_o,
  output logic [VramRowW-1:0] vram_wrow_o,
  output logic [LEN*16-1:0]   vram_wdata_o,

  // MRAM (H_PREFETCH_M writes): codes in bytes [0, LEN), scales in [LEN, RowBytes)
  output logic                mram_we_o,
  output logic [MramRowW-1:0] mram_wrow_o,
  output logic [RowW-1:0]     mram_wdata_o
);

  localparam int unsigned CodeBeats  = (LEN + BPC - 1) / BPC;
  localparam int unsigned ScaleBeats = (NScale + BPC - 1) / BPC;
  localparam int unsigned RowBeats   = CodeBeats + ScaleBeats;
  localparam int unsigned BeatW      = (RowBeats > 1) ? $clog2(RowBeats) : 1;
  localparam int unsigned MaxRows    = (HBM_M_ROWS > HBM_V_ROWS) ? HBM_M_ROWS : HBM_V_ROWS;
  localparam int unsigned RowCntW    = $clog2(MaxRows + 1);
  localparam int unsigned PosW       = $clog2(RowBytes + 1);
  // Beats are shifted into / out of the row at byte granularity in this common width.
  localparam int unsigned WideBytes  = (RowBytes > BPC) ? RowBytes : BPC;

  ////////////////////
  // Beat geometry  //
  ////////////////////

  // Byte position of beat j inside the row, and its length. (These functions end in one return:
  // a branch arm that returns is never counted by Verilator's line coverage.)
  function automatic logic [PosW-1:0] beat_pos(logic [BeatW-1:0] j);
    logic [PosW-1:0] pos;
    if (32'(j) < CodeBeats) pos = PosW'(32'(j) * BPC);
    else pos = PosW'(LEN + (32'(j) - CodeBeats) * BPC);
    return pos;
  endfunction

  function automatic logic [NBytesW-1:0] beat_len(logic [BeatW-1:0] j);
    int unsigned rest;
    if (32'(j) < CodeBeats) rest = LEN - 32'(j) * BPC;
    else rest = NScale - (32'(j) - CodeBeats) * BPC;
    return NBytesW'((rest < BPC) ? rest : BPC);
  endfunction

  function automatic logic [63:0] beat_addr(logic [BeatW-1:0] j, logic [63:0] code,
                                            logic [63:0] scale);
    logic [31:0] off;
    logic [63:0] addr;
    if (32'(j) < CodeBeats) begin
      off  = 32'(j) * BPC;
      addr = code + 64'(off);
    end else begin
      off  = (32'(j) - CodeBeats) * BPC;
      addr = scale + 64'(off);
    end
    return addr;
  endfunction

  function automatic logic [RowCntW-1:0] rows_of(dma_op_e op);
    return (op == DMA_PREFETCH_M) ? RowCntW'(HBM_M_ROWS) : RowCntW'(HBM_V_ROWS);
  endfunction

  ////////////////////
  // Request side   //
  ////////////////////

  dma_op_e            op_q;
  logic [31:0]        row_base_q;
  logic [31:0]        stride_q, scale_stride_q;
  logic [RowCntW-1:0] rows_q;

  logic               req_busy_q, req_busy_d;
  logic [BeatW-1:0]   req_beat_q, req_beat_d;
  logic [RowCntW-1:0] req_row_q, req_row_d;
  logic [63:0]        req_code_q, req_code_d, req_scale_q, req_scale_d;

  logic               is_store;
  logic               issue;
  logic [BeatW-1:0]   cur_beat;
  logic [RowCntW-1:0] cur_row, cur_rows;
  logic [63:0]        cur_code, cur_scale;
  logic [31:0]        cur_stride, cur_scale_stride;
  logic               cur_row_last_beat, cur_last_row;

  assign is_store          = start_i ? (op_i == DMA_STORE_V) : (op_q == DMA_STORE_V);
  assign issue             = start_i ? !is_store : req_busy_q;
  assign cur_beat          = start_i ? '0 : req_beat_q;
  assign cur_row           = start_i ? '0 : req_row_q;
  assign cur_rows          = start_i ? rows_of(op_i) : rows_q;
  assign cur_code          = start_i ? code_addr_i : req_code_q;
  assign cur_scale         = start_i ? scale_addr_i : req_scale_q;
  assign cur_stride        = start_i ? stride_i : stride_q;
  assign cur_scale_stride  = start_i ? scale_stride_i : scale_stride_q;
  assign cur_row_last_beat = (32'(cur_beat) == RowBeats - 1);
  assign cur_last_row      = (cur_row == cur_rows - RowCntW'(1));

  always_comb begin
    req_busy_d  = start_i ? 1'b1 : req_busy_q;
    req_beat_d  = cur_beat;
    req_row_d   = cur_row;
    req_code_d  = cur_code;
    req_scale_d = cur_scale;
    if (issue) begin
      if (cur_row_last_beat) begin
        req_beat_d  = '0;
        req_row_d   = cur_row + RowCntW'(1);
        req_code_d  = cur_code + 64'(cur_stride);
        req_scale_d = cur_scale + 64'(cur_scale_stride);
        if (cur_last_row) req_busy_d = 1'b0;
      end else begin
        req_beat_d = cur_beat + BeatW'(1);
      end
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin : req_regs
    if (!rst_ni) begin
      op_q           <= DMA_PREFETCH_V;
      row_base_q     <= '0;
      stride_q       <= '0;
      scale_stride_q <= '0;
      rows_q         <= '0;
      req_busy_q     <= 1'b0;
      req_beat_q     <= '0;
      req_row_q      <= '0;
      req_code_q     <= '0;
      req_scale_q    <= '0;
    end else begin
      if (start_i) begin
        op_q           <= op_i;
        row_base_q     <= row_i;
        stride_q       <= stride_i;
        scale_stride_q <= scale_stride_i;
        rows_q         <= rows_of(op_i);
      end
      req_busy_q  <= req_busy_d;
      req_beat_q  <= req_beat_d;
      req_row_q   <= req_row_d;
      req_code_q  <= req_code_d;
      req_scale_q <= req_scale_d;
    end
  end

  // Store: VRAM row 0 is read in the issue cycle, row r+1 in the cycle of row r's last beat.
  assign vram_re_o  = (start_i && is_store) || (is_store && issue && cur_row_last_beat &&
                                                !cur_last_row);
  assign vram_row_o = start_i ? VramRowW'(row_i) :
                                VramRowW'(row_base_q + 32'(cur_row) + 32'd1);

  // MX encode of the row held on the VRAM read port.
  logic [RowW-1:0]        enc_row;
  logic [8*WideBytes-1:0] enc_wide;
  for (genvar b = 0; b < NScale; b++) begin : g_quant
    moe_mx_quant_block #(
      .N (MX_BLOCK)
    ) u_quant (
      .x_i     (vram_rdata_i[b*MX_BLOCK*16 +: MX_BLOCK*16]),
      .scale_o (enc_row[8*(LEN+b) +: 8]),
      .codes_o (enc_row[b*MX_BLOCK*8 +: MX_BLOCK*8])
    );
  end

  assign hbm_req_valid_o  = issue;
  assign hbm_req_we_o     = is_store;
  assign hbm_req_addr_o   = beat_addr(cur_beat, cur_code, cur_scale);
  assign hbm_req_nbytes_o = beat_len(cur_beat);
  assign enc_wide         = (8*WideBytes)'(enc_row);
  assign hbm_req_wdata_o  = (BPC*8)'(enc_wide >> (8 * 32'(beat_pos(cur_beat))));

  ////////////////////
  // Response side  //
  ////////////////////

  logic [BeatW-1:0]   rsp_beat_q, rsp_beat_d;
  logic [RowCntW-1:0] rsp_row_q, rsp_row_d;
  logic [RowW-1:0]    rowbuf_q, row_view;
  logic               rsp_row_last_beat, rsp_last_row;

  assign rsp_row_last_beat = (32'(rsp_beat_q) == RowBeats - 1);
  assign rsp_last_row      = (rsp_row_q == rows_q - RowCntW'(1));

  // Merge the response beat into the row buffer at its byte position: beat_mask has the bits
  // of the beat's beat_len bytes set, from byte beat_pos on (whole-vector masks rather than a
  // select per byte, which Verilator evaluates as one shift and compare per byte).
  logic [8*WideBytes-1:0] beat_bits, beat_mask;
  always_comb begin
    logic [8*BPC-1:0] len_bits;
    len_bits  = {(8*BPC){1'b1}} >> (8 * (BPC - 32'(beat_len(rsp_beat_q))));
    beat_mask = (8*WideBytes)'(len_bits) << (8 * 32'(beat_pos(rsp_beat_q)));
    beat_bits = (8*WideBytes)'(hbm_rsp_rdata_i) << (8 * 32'(beat_pos(rsp_beat_q)));
    row_view  = RowW'((beat_bits & beat_mask) | ((8*WideBytes)'(rowbuf_q) & ~beat_mask));
  end

  // A beat wider than the row (BPC > RowBytes) never reaches past the row's last byte.
  if (WideBytes > RowBytes) begin : g_wide_beat
    logic unused_beat;
    assign unused_beat = ^{beat_mask[8*WideBytes-1:RowW], beat_bits[8*WideBytes-1:RowW]};
  end

  logic row_done;
  assign row_done = hbm_rsp_valid_i && rsp_row_last_beat;
  assign done_o   = row_done && rsp_last_row;

  always_comb begin
    rsp_beat_d = rsp_beat_q;
    rsp_row_d  = rsp_row_q;
    if (hbm_rsp_valid_i) begin
      if (rsp_row_last_beat) begin
        rsp_beat_d = '0;
        rsp_row_d  = rsp_last_row ? '0 : rsp_row_q + RowCntW'(1);
      end else begin
        rsp_beat_d = rsp_beat_q + BeatW'(1);
      end
    end
  end

  // Busy from the start cycle through the done cycle: requests and responses in flight.
  logic busy_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin : busy_reg
    if (!rst_ni) begin
      busy_q <= 1'b0;
    end else begin
      busy_q <= (start_i || busy_q) && !done_o;
    end
  end
  assign busy_o = start_i || busy_q;

  always_ff @(posedge clk_i or negedge rst_ni) begin : rsp_regs
    if (!rst_ni) begin
      rsp_beat_q <= '0;
      rsp_row_q  <= '0;
    end else begin
      rsp_beat_q <= rsp_beat_d;
      rsp_row_q  <= rsp_row_d;
    end
  end

  always_ff @(posedge clk_i) begin : rowbuf_reg
    if (hbm_rsp_valid_i) rowbuf_q <= row_view;
  end

  // Completed rows: MRAM takes the raw row, VRAM the MX-decoded elements.
  for (genvar e = 0; e < LEN; e++) begin : g_dequant
    moe_mx_dequant u_dequant (
      .code_i  (row_view[8*e +: 8]),
      .scale_i (row_view[8*(LEN + e/MX_BLOCK) +: 8]),
      .y_o     (vram_wdata_o[16*e +: 16])
    );
  end

  assign vram_we_o    = row_done && (op_q == DMA_PREFETCH_V);
  assign vram_wrow_o  = VramRowW'(row_base_q + 32'(rsp_row_q));
  assign mram_we_o    = row_done && (op_q == DMA_PREFETCH_M);
  assign mram_wrow_o  = MramRowW'(row_base_q + 32'(rsp_row_q));
  assign mram_wdata_o = row_view;

endmodule : moe_dma_unit
