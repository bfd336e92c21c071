// moesim RTL: matrix unit (M_MM MX multiply-accumulate, M_MM_WO accumulator write-back).

/**
 * Matrix unit of the moesim accelerator (isa.yaml M_MM, M_MM_WO; DESIGN.md §4).
 *
 * State: an FP32 accumulator of BLEN x BLEN (acc[i][j], activation row i, output column j),
 * kept across M_MMs and cleared to +0.0 by M_MM_WO; operand registers holding BLEN weight tile
 * rows (MLEN E4M3 codes + MLEN/MX_BLOCK E8M0 scales each) and BLEN activation rows.
 *
 * M_MM (latency BLEN + MLEN / MX_BLOCK + 1 cycles, start cycle included):
 *   cycles 0 .. BLEN-1        read MRAM row mat_row_i + t and VRAM row act_row_i + t (one
 *                             synchronous read port each);
 *   cycles 1 .. BLEN          capture the returning rows into operand register slot t-1;
 *   cycles BLEN+1 ..          one MX block per cycle, b = 0 .. MLEN/MX_BLOCK-1 in K order: the
 *     BLEN+MLEN/MX_BLOCK      BLEN x BLEN array of moe_mx_dot8 forms the block dots of every
 *                             (i, j) and BLEN x BLEN moe_fp32_add add them into acc[i][j]; the
 *                             last block's cycle raises done_o.
 * M_MM_WO (latency BLEN cycles): cycle i writes bf16_rne(acc[i][0..BLEN)) to VRAM row
 *   wo_row_i + i * wo_stride_i at elements [wo_col_i, wo_col_i + BLEN) (element enables set only
 *   there; the data word carries the BLEN values replicated in every BLEN-wide group); the last
 *   row's cycle raises done_o and clears the accumulator at its clock edge.
 *
 * Handshake: start_i is a one-cycle pulse while the unit is idle (the core issues one
 * instruction at a time); start_i in a busy cycle is ignored. busy_o is high from the start
 * cycle to the done cycle inclusive; done_o is high in the last of them (the retire cycle).
 * Addresses are VRAM / MRAM row indices, already checked by the core. The block arithmetic is
 * fixed at 8 elements (moe_mx_dot8), so MX_BLOCK must be 8; K = MLEN = VLEN.
 */
module moe_matrix_unit #(
  parameter int unsigned MLEN     = 64,
  parameter int unsigned VLEN     = 64,
  parameter int unsigned BLEN     = 4,
  parameter int unsigned MX_BLOCK = 8
) (
  input  logic                       clk_i,
  input  logic                       rst_ni,

  // Issue from the core
  input  logic                       start_i,        // one-cycle pulse in the issue cycle
  input  logic                       is_wo_i,        // 0: M_MM, 1: M_MM_WO
  input  logic [31:0]                mat_row_i,      // M_MM: MRAM row of output column c
  input  logic [31:0]                act_row_i,      // M_MM: VRAM row of activation row 0
  input  logic [31:0]                wo_row_i,       // M_MM_WO: VRAM row of accumulator row 0
  input  logic [31:0]                wo_col_i,       // M_MM_WO: first element (multiple of BLEN)
  input  logic [31:0]                wo_stride_i,    // M_MM_WO: VRAM rows between acc rows (>= 1)
  output logic                       done_o,         // last busy cycle (retire)
  output logic                       busy_o,

  // MRAM read port (synchronous: row in cycle t, data in t+1)
  output logic                       mram_re_o,
  output logic [31:0]                mram_row_o,
  input  logic [MLEN*8-1:0]          mram_codes_i,
  input  logic [MLEN/MX_BLOCK*8-1:0] mram_scales_i,

  // VRAM read port (synchronous)
  output logic                       vram_re_o,
  output logic [31:0]                vram_row_o,
  input  logic [VLEN*16-1:0]         vram_rdata_i,

  // VRAM write port (takes effect at the clock edge)
  output logic                       vram_we_o,
  output logic [31:0]                vram_wrow_o,
  output logic [VLEN*16-1:0]         vram_wdata_o,
  output logic [VLEN-1:0]            vram_wmask_o
);

  localparam int unsigned NumBlocks = MLEN / MX_BLOCK;
  localparam int unsigned CntMax    = (NumBlocks > BLEN) ? NumBlocks : BLEN;
  localparam int unsigned CntW      = $clog2(CntMax + 1);
  localparam int unsigned ScaleW    = NumBlocks * 8;

  if (MX_BLOCK != 8) begin : g_bad_block
    $error("moe_matrix_unit: MX_BLOCK must be 8 (moe_mx_dot8), got %0d", MX_BLOCK);
  end
  if (MLEN != VLEN || (MLEN % MX_BLOCK) != 0 || (VLEN % BLEN) != 0) begin : g_bad_shape
    $error("moe_matrix_unit: need MLEN == VLEN, MX_BLOCK | MLEN and BLEN | VLEN");
  end

  //////////////////
  // State        //
  //////////////////

  typedef enum logic [1:0] {
    StIdle,
    StLoad,
    StMac,
    StWrite
  } state_e;

  state_e            state_q, state_d;
  logic [CntW-1:0]   cnt_q, cnt_d;          // Load: next row to read; Mac: block; Write: row
  logic [31:0]       mat_row_q, mat_row_d;
  logic [31:0]       act_row_q, act_row_d;
  logic [31:0]       wo_row_q, wo_row_d;    // VRAM row of the accumulator row written next
  logic [31:0]       wo_col_q, wo_col_d;
  logic [31:0]       wo_stride_q, wo_stride_d;

  logic [MLEN*8-1:0]  w_codes_q  [BLEN];
  logic [MLEN*8-1:0]  w_codes_d  [BLEN];
  logic [ScaleW-1:0]  w_scales_q [BLEN];
  logic [ScaleW-1:0]  w_scales_d [BLEN];
  logic [VLEN*16-1:0] act_q      [BLEN];
  logic [VLEN*16-1:0] act_d      [BLEN];
  // The accumulator is readable by harnesses (unit bench, debug), like the architectural memories.
  logic [31:0]        acc_q      [BLEN][BLEN] /*verilator public_flat_rd*/;
  logic [31:0]        acc_d      [BLEN][BLEN];

  //////////////////
  // Datapath     //
  //////////////////

  // Block b = cnt_q of every operand row, then the BLEN x BLEN block dots and accumulations.
  logic [8*16-1:0] act_blk   [BLEN];
  logic [8*8-1:0]  w_blk     [BLEN];
  logic [7:0]      scale_blk [BLEN];
  logic [31:0]     dot       [BLEN][BLEN];
  logic [31:0]     acc_sum   [BLEN][BLEN];

  for (genvar r = 0; r < BLEN; r++) begin : g_blk_sel
    assign act_blk[r]   = act_q[r][32'(cnt_q) * 128 +: 128];
    assign w_blk[r]     = w_codes_q[r][32'(cnt_q) * 64 +: 64];
    assign scale_blk[r] = w_scales_q[r][32'(cnt_q) * 8 +: 8];
  end

  for (genvar i = 0; i < BLEN; i++) begin : g_row
    for (genvar j = 0; j < BLEN; j++) begin : g_col
      moe_mx_dot8 u_dot (
        .a_i    (act_blk[i]),
        .w_i    (w_blk[j]),
        .scale_i(scale_blk[j]),
        .y_o    (dot[i][j])
      );
      moe_fp32_add u_acc (
        .a_i(acc_q[i][j]),
        .b_i(dot[i][j]),
        .y_o(acc_sum[i][j])
      );
    end
  end

  // Write-back row: accumulator row wr_idx (0 in the issue cycle) rounded to BF16.
  logic [CntW-1:0]     wr_idx;
  logic [31:0]         wr_acc [BLEN];
  logic [BLEN*16-1:0]  wr_row_bf16;
  logic [31:0]         wr_col;

  assign wr_idx = (state_q == StWrite) ? cnt_q : '0;
  assign wr_col = (state_q == StWrite) ? wo_col_q : wo_col_i;

  always_comb begin
    wr_acc = acc_q[0];
    for (int unsigned r = 1; r < BLEN; r++) begin
      if (32'(wr_idx) == r) begin
        wr_acc = acc_q[r];
      end
    end
  end

  for (genvar j = 0; j < BLEN; j++) begin : g_wo_round
    moe_bf16_round u_round (
      .f_i(wr_acc[j]),
      .y_o(wr_row_bf16[16*j +: 16])
    );
  end

  assign vram_wdata_o = {(VLEN / BLEN){wr_row_bf16}};
  assign vram_wmask_o = VLEN'({BLEN{1'b1}}) << wr_col;

  //////////////////
  // Control      //
  //////////////////

  always_comb begin
    state_d     = state_q;
    cnt_d       = cnt_q;
    mat_row_d   = mat_row_q;
    act_row_d   = act_row_q;
    wo_row_d    = wo_row_q;
    wo_col_d    = wo_col_q;
    wo_stride_d = wo_stride_q;
    w_codes_d   = w_codes_q;
    w_scales_d  = w_scales_q;
    act_d       = act_q;
    acc_d       = acc_q;

    done_o      = 1'b0;
    mram_re_o   = 1'b0;
    mram_row_o  = mat_row_q + 32'(cnt_q);
    vram_re_o   = 1'b0;
    vram_row_o  = act_row_q + 32'(cnt_q);
    vram_we_o   = 1'b0;
    vram_wrow_o = wo_row_q;

    unique case (state_q)
      StIdle: begin
        // Idle: wait for start_i; the issue cycle already reads row 0 / writes row 0.
        if (start_i && !is_wo_i) begin
          mram_re_o  = 1'b1;
          mram_row_o = mat_row_i;
          vram_re_o  = 1'b1;
          vram_row_o = act_row_i;
          mat_row_d  = mat_row_i;
          act_row_d  = act_row_i;
          cnt_d      = CntW'(1);
          state_d    = StLoad;
        end else if (start_i && is_wo_i) begin
          vram_we_o   = 1'b1;
          vram_wrow_o = wo_row_i;
          wo_row_d    = wo_row_i + wo_stride_i;
          wo_col_d    = wo_col_i;
          wo_stride_d = wo_stride_i;
          cnt_d       = CntW'(1);
          if (BLEN == 1) begin
            done_o = 1'b1;
            acc_d  = '{default: '{default: 32'd0}};
          end else begin
            state_d = StWrite;
          end
        end
      end

      StLoad: begin
        // Load: capture operand row cnt_q-1 (read last cycle), read row cnt_q while < BLEN.
        for (int unsigned r = 0; r < BLEN; r++) begin
          if (32'(cnt_q) == r + 1) begin
            w_codes_d[r]  = mram_codes_i;
            w_scales_d[r] = mram_scales_i;
            act_d[r]      = vram_rdata_i;
          end
        end
        if (32'(cnt_q) < BLEN) begin
          mram_re_o = 1'b1;
          vram_re_o = 1'b1;
          cnt_d     = cnt_q + CntW'(1);
        end else begin
          cnt_d   = '0;
          state_d = StMac;
        end
      end

      StMac: begin
        // Mac: accumulate the dots of block cnt_q; the last block retires the M_MM.
        acc_d = acc_sum;
        cnt_d = cnt_q + CntW'(1);
        if (32'(cnt_q) == NumBlocks - 1) begin
          done_o  = 1'b1;
          cnt_d   = '0;
          state_d = StIdle;
        end
      end

      StWrite: begin
        // Write: accumulator row cnt_q to VRAM row wo_row_q; the last row retires and clears.
        vram_we_o = 1'b1;
        wo_row_d  = wo_row_q + wo_stride_q;
        cnt_d     = cnt_q + CntW'(1);
        if (32'(cnt_q) == BLEN - 1) begin
          done_o  = 1'b1;
          acc_d   = '{default: '{default: 32'd0}};
          cnt_d   = '0;
          state_d = StIdle;
        end
      end

      default: begin
        state_d = StIdle;
      end
    endcase
  end

  assign busy_o = start_i || (state_q != StIdle);

  //////////////////
  // Registers    //
  //////////////////

  always_ff @(posedge clk_i or negedge rst_ni) begin : update_regs
    if (!rst_ni) begin
      state_q     <= StIdle;
      cnt_q       <= '0;
      mat_row_q   <= '0;
      act_row_q   <= '0;
      wo_row_q    <= '0;
      wo_col_q    <= '0;
      wo_stride_q <= '0;
      w_codes_q   <= '{default: '0};
      w_scales_q  <= '{default: '0};
      act_q       <= '{default: '0};
      acc_q       <= '{default: '{default: 32'd0}};
    end else begin
      state_q     <= state_d;
      cnt_q       <= cnt_d;
      mat_row_q   <= mat_row_d;
      act_row_q   <= act_row_d;
      wo_row_q    <= wo_row_d;
      wo_col_q    <= wo_col_d;
      wo_stride_q <= wo_stride_d;
      w_codes_q   <= w_codes_d;
      w_scales_q  <= w_scales_d;
      act_q       <= act_d;
      acc_q       <= acc_d;
    end
  end

endmodule
