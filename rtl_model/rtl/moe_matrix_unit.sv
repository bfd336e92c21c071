// moesim RTL: matrix unit (M_MM / M_TMM / M_MV / M_TMV MX multiply-accumulate, M_MM_WO / M_MV_WO
// accumulator write-back).

/**
 * Matrix unit of the moesim accelerator (isa.yaml M_MM, M_TMM, M_MM_WO, M_MV, M_TMV, M_MV_WO;
 * DESIGN.md §4).
 *
 * State: an FP32 accumulator of BLEN x BLEN (acc[i][j], activation row i, output column j),
 * kept across M_MM / M_TMM and cleared to +0.0 by M_MM_WO; an FP32 vector accumulator of BLEN (vacc[j])
 * kept across M_MV / M_TMV and cleared by M_MV_WO; operand registers holding BLEN weight tile
 * rows (MLEN E4M3 codes + MLEN/MX_BLOCK E8M0 scales each), BLEN activation rows, and for M_TMV
 * / M_TMM the BLEN codes and scales of columns [col, col+BLEN) of all MLEN tile rows.
 *
 * M_MM (latency BLEN + MLEN / MX_BLOCK + 1 cycles, start cycle included):
 *   cycles 0 .. BLEN-1        read MRAM row mat_row_i + t and VRAM row act_row_i + t (one
 *                             synchronous read port each);
 *   cycles 1 .. BLEN          capture the returning rows into operand register slot t-1;
 *   cycles BLEN+1 ..          one MX block per cycle, b = 0 .. MLEN/MX_BLOCK-1 in K order: the
 *     BLEN+MLEN/MX_BLOCK      BLEN x BLEN array of moe_mx_dot8 forms the block dots of every
 *                             (i, j) and BLEN x BLEN moe_fp32_add add them into acc[i][j]; the
 *                             last block's cycle raises done_o.
 * M_MV (latency BLEN + MLEN / MX_BLOCK + 1): as M_MM with one activation row (VRAM read in the
 *   start cycle only); the MAC cycles use row 0 of the dot array and accumulate into vacc.
 * M_TMV (latency MLEN + MLEN / MX_BLOCK + 1):
 *   cycles 0 .. MLEN-1        read MRAM tile row mat_row_i + t (VRAM activation row in cycle 0);
 *   cycles 1 .. MLEN          capture codes [mat_col_i, +BLEN) of the returning row and the
 *                             scale of each of those columns;
 *   cycles MLEN+1 ..          one K block of 8 tile rows per cycle, b in order: BLEN
 *     MLEN+MLEN/MX_BLOCK      moe_mx_dot8 #(PER_ELEM_SCALE) (each product scaled by its own row's
 *                             scale) and BLEN moe_fp32_add into vacc[j]; the last raises done_o.
 * M_TMM (latency MLEN + BLEN * MLEN / MX_BLOCK + 1): M_TMV's load, which also reads VRAM rows
 *   act_row_i + t in cycles 0 .. BLEN-1 (captured in 1 .. BLEN); then cycles MLEN+1 .. are
 *   BLEN * MLEN/MX_BLOCK MAC cycles, activation row i = n / (MLEN/MX_BLOCK) and K block
 *   b = n mod (MLEN/MX_BLOCK) in cycle MLEN+1+n: M_TMV's BLEN column dots of row i added into
 *   acc[i][j] (the same adders, their first operand switched from vacc to acc row i).
 * M_MV_WO (latency 1): the start cycle writes bf16_rne(vacc) to VRAM row wo_row_i elements
 *   [wo_col_i, +BLEN), raises done_o and clears vacc at its clock edge.
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
module moe_matrix_unit
  import moe_pkg::*;
#(
  parameter int unsigned MLEN     = 64,
  parameter int unsigned VLEN     = 64,
  parameter int unsigned BLEN     = 4,
  parameter int unsigned MX_BLOCK = 8
) (
  input  logic                       clk_i,
  input  logic                       rst_ni,

  // Issue from the core
  input  logic                       start_i,        // one-cycle pulse in the issue cycle
  input  mm_op_e                     op_i,
  input  logic [31:0]                mat_row_i,      // M_MM/M_MV: MRAM row of output column c;
                                                     // M_TMV: MRAM row of tile row 0
  input  logic [31:0]                mat_col_i,      // M_TMV: first tile column c (< MLEN)
  input  logic [31:0]                act_row_i,      // VRAM row of activation row 0
  input  logic [31:0]                wo_row_i,       // M_*_WO: VRAM row of accumulator row 0
  input  logic [31:0]                wo_col_i,       // M_*_WO: first element (multiple of BLEN)
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
  // MLEN >= NumBlocks and MLEN >= BLEN (BLEN divides VLEN = MLEN): the M_TMV load and the M_TMM
  // MAC phase bound cnt.
  localparam int unsigned TmmMacs   = BLEN * NumBlocks;
  localparam int unsigned CntMax    = (MLEN > TmmMacs) ? MLEN : TmmMacs;
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

  logic              is_mm_q, is_mm_d;      // M_MM / M_TMM in StLoad / StMac (else M_MV / M_TMV)
  logic              is_t_q, is_t_d;        // M_TMV / M_TMM (tile read transposed)
  logic [31:0]       mat_col_q, mat_col_d;

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
  logic [31:0]        vacc_q     [BLEN] /*verilator public_flat_rd*/;
  logic [31:0]        vacc_d     [BLEN];
  // M_TMV / M_TMM operands: tile row k's codes and scales of columns col+j (j at bits [8*j +: 8]).
  logic [BLEN*8-1:0]  t_codes_q  [MLEN];
  logic [BLEN*8-1:0]  t_codes_d  [MLEN];
  logic [BLEN*8-1:0]  t_scales_q [MLEN];
  logic [BLEN*8-1:0]  t_scales_d [MLEN];

  //////////////////
  // Datapath     //
  //////////////////

  // Block b = cnt_q of every operand row, then the BLEN x BLEN block dots and accumulations.
  // (M_MM's MAC phase has cnt_q < NumBlocks; M_TMM's cnt_q = row * NumBlocks + block.)
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

  // M_TMV / M_TMM: block b = t_blk is tile rows 8b .. 8b+7 of column col+j, times activation row
  // t_row's block b (M_TMV: row 0, b = cnt_q).
  logic [CntW-1:0] t_blk, t_row;
  logic [8*16-1:0] tact_blk;
  logic [31:0]     tacc      [BLEN];
  logic [8*8-1:0]  tw_blk    [BLEN];
  logic [8*8-1:0]  ts_blk    [BLEN];
  logic [31:0]     tdot      [BLEN];
  logic [31:0]     vacc_sum  [BLEN];

  assign t_blk = CntW'(32'(cnt_q) % NumBlocks);
  assign t_row = CntW'(32'(cnt_q) / NumBlocks);

  always_comb begin
    tact_blk = act_q[0][32'(t_blk) * 128 +: 128];
    tacc     = vacc_q;
    for (int unsigned r = 1; r < BLEN; r++) begin
      if (32'(t_row) == r) begin
        tact_blk = act_q[r][32'(t_blk) * 128 +: 128];
      end
    end
    if (is_mm_q) begin
      tacc = acc_q[0];
      for (int unsigned r = 1; r < BLEN; r++) begin
        if (32'(t_row) == r) begin
          tacc = acc_q[r];
        end
      end
    end
  end

  for (genvar j = 0; j < BLEN; j++) begin : g_tcol
    for (genvar t = 0; t < 8; t++) begin : g_trow
      assign tw_blk[j][8*t +: 8] = t_codes_q[32'(t_blk) * 8 + t][8*j +: 8];
      assign ts_blk[j][8*t +: 8] = t_scales_q[32'(t_blk) * 8 + t][8*j +: 8];
    end
    moe_mx_dot8 #(
      .PER_ELEM_SCALE(1'b1)
    ) u_tdot (
      .a_i    (tact_blk),
      .w_i    (tw_blk[j]),
      .scale_i(ts_blk[j]),
      .y_o    (tdot[j])
    );
    moe_fp32_add u_vacc (
      .a_i(tacc[j]),
      .b_i(is_t_q ? tdot[j] : dot[0][j]),
      .y_o(vacc_sum[j])
    );
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

  // Write-back row: accumulator row wr_idx (0 in the issue cycle), or vacc for M_MV_WO (issue
  // cycle only), rounded to BF16.
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
    if (state_q == StIdle && op_i == MM_MV_WO) begin
      wr_acc = vacc_q;
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
    vacc_d      = vacc_q;
    is_mm_d     = is_mm_q;
    is_t_d      = is_t_q;
    mat_col_d   = mat_col_q;
    t_codes_d   = t_codes_q;
    t_scales_d  = t_scales_q;

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
        if (start_i && (op_i == MM_MM || op_i == MM_TMM || op_i == MM_MV || op_i == MM_TMV)) begin
          mram_re_o  = 1'b1;
          mram_row_o = mat_row_i;
          vram_re_o  = 1'b1;
          vram_row_o = act_row_i;
          mat_row_d  = mat_row_i;
          mat_col_d  = mat_col_i;
          act_row_d  = act_row_i;
          is_mm_d    = (op_i == MM_MM || op_i == MM_TMM);
          is_t_d     = (op_i == MM_TMV || op_i == MM_TMM);
          cnt_d      = CntW'(1);
          state_d    = StLoad;
        end else if (start_i && op_i == MM_MV_WO) begin
          vram_we_o   = 1'b1;
          vram_wrow_o = wo_row_i;
          done_o      = 1'b1;
          vacc_d      = '{default: 32'd0};
        end else if (start_i && op_i == MM_MM_WO) begin
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
        // Load: capture operand row cnt_q-1 (read last cycle), read row cnt_q while < BLEN
        // (M_MM, M_MV) or < MLEN (M_TMV, M_TMM). M_MM and M_TMM read BLEN activation rows, in
        // cycles 0 .. BLEN-1; M_MV and M_TMV one.
        for (int unsigned r = 0; r < BLEN; r++) begin
          if (32'(cnt_q) == r + 1 && (is_mm_q || r == 0)) begin
            act_d[r] = vram_rdata_i;
          end
        end
        if (is_t_q) begin
          for (int unsigned k = 0; k < MLEN; k++) begin
            if (32'(cnt_q) == k + 1) begin
              for (int unsigned j = 0; j < BLEN; j++) begin
                t_codes_d[k][8*j +: 8]  = mram_codes_i[8 * (mat_col_q + j) +: 8];
                t_scales_d[k][8*j +: 8] = mram_scales_i[8 * ((mat_col_q + j) / MX_BLOCK) +: 8];
              end
            end
          end
        end else begin
          for (int unsigned r = 0; r < BLEN; r++) begin
            if (32'(cnt_q) == r + 1) begin
              w_codes_d[r]  = mram_codes_i;
              w_scales_d[r] = mram_scales_i;
            end
          end
        end
        if (32'(cnt_q) < (is_t_q ? MLEN : BLEN)) begin
          mram_re_o = 1'b1;
          vram_re_o = is_mm_q && (32'(cnt_q) < BLEN);
          cnt_d     = cnt_q + CntW'(1);
        end else begin
          cnt_d   = '0;
          state_d = StMac;
        end
      end

      StMac: begin
        // Mac: accumulate the dots of block cnt_q (M_TMM: row t_row, block t_blk); the last
        // retires the instruction.
        if (is_mm_q && !is_t_q) begin
          acc_d = acc_sum;
        end else if (is_mm_q) begin
          for (int unsigned r = 0; r < BLEN; r++) begin
            if (32'(t_row) == r) begin
              acc_d[r] = vacc_sum;
            end
          end
        end else begin
          vacc_d = vacc_sum;
        end
        cnt_d = cnt_q + CntW'(1);
        if (32'(cnt_q) == ((is_mm_q && is_t_q) ? TmmMacs : NumBlocks) - 1) begin
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
      is_mm_q     <= 1'b0;
      is_t_q      <= 1'b0;
      mat_col_q   <= '0;
      vacc_q      <= '{default: 32'd0};
      t_codes_q   <= '{default: '0};
      t_scales_q  <= '{default: '0};
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
      is_mm_q     <= is_mm_d;
      is_t_q      <= is_t_d;
      mat_col_q   <= mat_col_d;
      vacc_q      <= vacc_d;
      t_codes_q   <= t_codes_d;
      t_scales_q  <= t_scales_d;
      w_codes_q   <= w_codes_d;
      w_scales_q  <= w_scales_d;
      act_q       <= act_d;
      acc_q       <= acc_d;
    end
  end

endmodule
