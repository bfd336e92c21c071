// moesim RTL: matrix unit (M_MM / M_TMM / M_MV / M_TMV / M_BMV / M_BTMV / M_BMM / M_BTMM MX
// multiply-accumulate, M_MM_WO / M_MV_WO / M_BMV_WO / M_BMM_WO accumulator write-back).

/**
 * Matrix unit (isa.yaml M_* instructions; numerics: docs/numerics.md; the cycle-by-cycle
 * schedule of every instruction, which the latency formulas of isa.yaml describe: docs/rtl.md,
 * Matrix unit).
 *
 * State: the FP32 accumulators acc_q (BLEN x BLEN, M_MM / M_TMM, cleared by M_MM_WO), vacc_q (BLEN,
 * M_MV / M_TMV, cleared by M_MV_WO), hv_q (B x MLEN, M_BMV / M_BTMV) and the memory hm_q with its
 * row valid bits (B*MLEN x MLEN, M_BMM / M_BTMM), plus operand registers for the weight tile
 * rows, activation rows and head columns of the instruction in flight.
 *
 * Handshake: start_i is a one-cycle pulse while the unit is idle; start_i in a busy cycle is
 * ignored. busy_o is high from the start cycle to the done cycle inclusive; done_o is high in the
 * last of them (the retire cycle). Addresses are VRAM / MRAM row indices, already checked by the
 * core. Block dots are moe_mx_dot #(N = MX_BLOCK); K = MLEN = VLEN.
 */
module moe_matrix_unit
  import moesim_isa_pkg::*;
  import moe_pkg::*;
#(
  parameter int unsigned MLEN     = 64,
  parameter int unsigned VLEN     = 64,
  parameter int unsigned BLEN     = 4,
  parameter int unsigned HLEN     = 16,
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
  localparam int unsigned Heads     = MLEN / HLEN;
  localparam int unsigned HeadMacs  = Heads * MLEN;
  localparam int unsigned CntMax0   = (MLEN > TmmMacs) ? MLEN : TmmMacs;
  localparam int unsigned CntMax1   = (CntMax0 > HeadMacs) ? CntMax0 : HeadMacs;
  localparam int unsigned HmMacs    = HeadMacs * MLEN;  // M_BMM / M_BTMM MAC cycles, hm words
  localparam int unsigned CntMax    = (CntMax1 > HmMacs) ? CntMax1 : HmMacs;
  localparam int unsigned HmW       = $clog2(HmMacs);
  localparam int unsigned ColW      = $clog2(MLEN);
  localparam int unsigned HeadW     = (Heads > 1) ? $clog2(Heads) : 1;
  localparam int unsigned HvW       = $clog2(HeadMacs);
  localparam int unsigned CntW      = $clog2(CntMax + 1);
  localparam int unsigned ScaleW    = NumBlocks * 8;
  localparam int unsigned RowW      = (BLEN > 1) ? $clog2(BLEN) : 1;

  // Index of row `idx` of a BLEN-row array (act_q, acc_q): idx itself below BLEN, row 0 past it
  // (a counter value that selects no row), so a read never leaves the array.
  function automatic logic [RowW-1:0] row_sel(logic [CntW-1:0] idx);
    return (32'(idx) < BLEN) ? RowW'(idx) : '0;
  endfunction

  if (MLEN != VLEN || (MLEN % MX_BLOCK) != 0 || (VLEN % BLEN) != 0 || (MLEN % HLEN) != 0 ||
      (MX_BLOCK & (MX_BLOCK - 1)) != 0)
  begin : g_bad_shape
    $error("moe_matrix_unit: need MLEN == VLEN, MX_BLOCK = 2^n | MLEN, BLEN | VLEN, HLEN | MLEN");
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
  logic              is_h_q, is_h_d;        // M_BMV / M_BTMV in StLoad / StMac
  logic              is_ht_q, is_ht_d;      // M_BTMV
  logic              is_hwo_q, is_hwo_d;    // M_BMV_WO in StWrite
  logic              is_hm_q, is_hm_d;      // M_BMM / M_BTMM in StLoad / StMac (with is_h_q)
  logic              is_hmwo_q, is_hmwo_d;  // M_BMM_WO in StWrite
  logic [31:0]       mat_col_q, mat_col_d;

  state_e            state_q, state_d;
  logic [CntW-1:0]   cnt_q, cnt_d;          // Load: next row to read; Mac: block; Write: row
  logic [31:0]       mat_row_q, mat_row_d;
  logic [31:0]       act_row_q, act_row_d;
  logic [31:0]       wo_row_q, wo_row_d;    // VRAM row of the accumulator row written next
  logic [31:0]       wo_col_q, wo_col_d;
  logic [31:0]       wo_stride_q, wo_stride_d;

  // Operand registers: written in load cycles only, on clk_ld (operand_regs).
  logic [MLEN*8-1:0]  w_codes_q  [BLEN];
  logic [ScaleW-1:0]  w_scales_q [BLEN];
  logic [VLEN*16-1:0] act_q      [BLEN];
  // The accumulator is readable by harnesses (unit bench, debug), like the architectural memories.
  // acc_q and vacc_q are written only in the cycles that change them (acc_we, vacc_we), so that a
  // value a checkpoint restore writes between cycles is kept (moe_verilator.vlt).
  logic [31:0]        acc_q      [BLEN][BLEN] /*verilator public_flat_rd*/;
  logic [31:0]        acc_d      [BLEN][BLEN];
  logic [31:0]        vacc_q     [BLEN] /*verilator public_flat_rd*/;
  logic [31:0]        vacc_d     [BLEN];
  logic               acc_we, vacc_we;
  // M_TMV / M_TMM operands: tile row k's codes and scales of columns col+j (j at bits [8*j +: 8]).
  logic [BLEN*8-1:0]  t_codes_q  [MLEN];
  logic [BLEN*8-1:0]  t_scales_q [MLEN];

  // Datapath clocks. clk_i ticks in every busy cycle; each datapath reads operand registers
  // and a copy of cnt_q on clocks gated to the cycles that use it (moe_clock_gate), so that the
  // simulation evaluates the block dots only in M_MM / M_MV MAC cycles, the transposed dots in
  // M_TMV / M_TMM ones and the head dot in M_B* ones, plus the load cycles that change their
  // operands (docs/performance.md). In a MAC cycle of its datapath the copy equals cnt_q.
  logic             clk_ld, clk_dot, clk_t, clk_h, clk_hop;
  logic             en_dot, en_t, en_h, en_hop;
  logic [CntW-1:0]  dot_cnt_q, t_cnt_q, h_cnt_q;

  moe_clock_gate u_cg_ld  (.clk_i, .en_i(state_q == StLoad), .clk_o(clk_ld));
  moe_clock_gate u_cg_dot (.clk_i, .en_i(en_dot), .clk_o(clk_dot));
  moe_clock_gate u_cg_t   (.clk_i, .en_i(en_t),   .clk_o(clk_t));
  moe_clock_gate u_cg_h   (.clk_i, .en_i(en_h),   .clk_o(clk_h));
  moe_clock_gate u_cg_hop (.clk_i, .en_i(en_hop), .clk_o(clk_hop));

  // The next cycle is a MAC cycle of the datapath (is_*_q hold from the load to the last MAC).
  assign en_dot = (state_d == StMac) && !is_t_q && !is_h_q;
  assign en_t   = (state_d == StMac) && is_t_q && !is_h_q;
  assign en_h   = (state_d == StMac) && is_h_q;

  always_ff @(posedge clk_dot or negedge rst_ni) begin : dot_cnt_reg
    if (!rst_ni) dot_cnt_q <= '0;
    else dot_cnt_q <= cnt_d;
  end

  always_ff @(posedge clk_t or negedge rst_ni) begin : t_cnt_reg
    if (!rst_ni) t_cnt_q <= '0;
    else t_cnt_q <= cnt_d;
  end

  always_ff @(posedge clk_h or negedge rst_ni) begin : h_cnt_reg
    if (!rst_ni) h_cnt_q <= '0;
    else h_cnt_q <= cnt_d;
  end

  //////////////////
  // Datapath     //
  //////////////////

  // Block b = cnt_q of every operand row, then the BLEN x BLEN block dots and accumulations.
  // (M_MM's MAC phase has cnt_q < NumBlocks; M_TMM's cnt_q = row * NumBlocks + block.)
  logic [MX_BLOCK*16-1:0] act_blk   [BLEN];
  logic [MX_BLOCK*8-1:0]  w_blk     [BLEN];
  logic [7:0]             scale_blk [BLEN];
  logic [31:0]            dot       [BLEN][BLEN];
  logic [31:0]            acc_sum   [BLEN][BLEN];

  for (genvar r = 0; r < BLEN; r++) begin : g_blk_sel
    assign act_blk[r]   = act_q[r][32'(dot_cnt_q) * MX_BLOCK * 16 +: MX_BLOCK * 16];
    assign w_blk[r]     = w_codes_q[r][32'(dot_cnt_q) * MX_BLOCK * 8 +: MX_BLOCK * 8];
    assign scale_blk[r] = w_scales_q[r][32'(dot_cnt_q) * 8 +: 8];
  end

  // M_TMV / M_TMM: block b = t_blk is tile rows MX_BLOCK*b .. MX_BLOCK*(b+1)-1 of column col+j,
  // times activation row t_row's block b (M_TMV: row 0, b = cnt_q).
  logic [CntW-1:0]        t_row;           // of cnt_q (control)
  logic [CntW-1:0]        tt_blk, tt_row;  // of t_cnt_q (operand selection)
  logic [MX_BLOCK*16-1:0] tact_blk;
  logic [31:0]            tacc      [BLEN];
  logic [MX_BLOCK*8-1:0]  tw_blk    [BLEN];
  logic [MX_BLOCK*8-1:0]  ts_blk    [BLEN];
  logic [31:0]            tdot      [BLEN];
  logic [31:0]            vacc_sum  [BLEN];

  assign t_row  = CntW'(32'(cnt_q) / NumBlocks);
  assign tt_blk = CntW'(32'(t_cnt_q) % NumBlocks);
  assign tt_row = CntW'(32'(t_cnt_q) / NumBlocks);

  assign tact_blk = act_q[row_sel(tt_row)][32'(tt_blk) * MX_BLOCK * 16 +: MX_BLOCK * 16];
  assign tacc     = is_mm_q ? acc_q[row_sel(t_row)] : vacc_q;

  for (genvar j = 0; j < BLEN; j++) begin : g_tcol
    for (genvar t = 0; t < MX_BLOCK; t++) begin : g_trow
      assign tw_blk[j][8*t +: 8] = t_codes_q[32'(tt_blk) * MX_BLOCK + t][8*j +: 8];
      assign ts_blk[j][8*t +: 8] = t_scales_q[32'(tt_blk) * MX_BLOCK + t][8*j +: 8];
    end
    moe_mx_dot #(
      .N             (MX_BLOCK),
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
      moe_mx_dot #(
        .N(MX_BLOCK)
      ) u_dot (
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

  // Per-head ops (M_BMV / M_BTMV): operands written only while loading, the accumulator hv one
  // word per MAC cycle (memories, not operand registers copied every cycle).
  logic [HLEN*8-1:0]  h_codes_q  [MLEN];   // column c's code of K element d at [8*d +: 8]
  logic [HLEN*8-1:0]  h_scales_q [MLEN];   // ... and its E8M0 scale
  logic [HLEN*16-1:0] h_act_q    [Heads];  // head b's activation d at [16*d +: 16]
  logic [31:0]        hv_q       [HeadMacs] /*verilator public_flat_rd*/;  // hv[b][c] at b*MLEN+c
  logic [31:0]        h_dot, h_scaled, h_sum;
  logic [ColW-1:0]    h_col, hh_col;    // hh_*: the same of h_cnt_q, the operand selection
  logic [HeadW-1:0]   h_head, hh_head;
  logic [HvW-1:0]     h_idx;

  // M_BMM / M_BTMM: MAC cycle n = (m * B + b) * MLEN + c accumulates into hm[b*MLEN + m][c].
  logic [31:0]        hm_q       [HmMacs] /*verilator public_flat_rd*/;  // row i at i*MLEN
  logic [HeadMacs-1:0] hm_live_q /*verilator public_flat_rd*/;  // row i valid (else +0.0)
  logic [HvW-1:0]     hm_row;
  logic [HmW-1:0]     hm_idx;
  logic [31:0]        hm_old;
  logic [31:0]        h_act_m;   // activation row m of the MAC cycle

  assign h_act_m = 32'(cnt_q) / HeadMacs;
  assign hm_row  = HvW'(32'(h_head) * MLEN + h_act_m);
  assign hm_idx  = HmW'(32'(hm_row) * MLEN + 32'(h_col));
  assign hm_old  = hm_live_q[hm_row] ? hm_q[hm_idx] : 32'd0;

  assign h_col   = ColW'(32'(cnt_q) % MLEN);
  assign h_head  = HeadW'((32'(cnt_q) / MLEN) % Heads);
  assign h_idx   = HvW'(cnt_q);
  assign hh_col  = ColW'(32'(h_cnt_q) % MLEN);
  assign hh_head = HeadW'((32'(h_cnt_q) / MLEN) % Heads);

  moe_mx_dot #(
    .N             (HLEN),
    .PER_ELEM_SCALE(1'b1)
  ) u_hdot (
    .a_i    (h_act_q[hh_head]),
    .w_i    (h_codes_q[hh_col]),
    .scale_i(h_scales_q[hh_col]),
    .y_o    (h_dot)
  );
  moe_fp32_mul u_hscale (
    .a_i(h_dot),
    .b_i(FP32_BMM_SCALE),
    .y_o(h_scaled)
  );
  moe_fp32_add u_hacc (
    .a_i(is_hm_q ? hm_old : hv_q[h_idx]),
    .b_i(h_scaled),
    .y_o(h_sum)
  );

  // M_BMV_WO: head row h_wo_head (0 in the issue cycle) of hv, rounded to BF16; M_BMM_WO (StWrite
  // only, so the rounders' inputs are all flops): row h_wo_head of hm.
  logic              h_wo;
  logic [CntW-1:0]   h_wo_head;
  logic [VLEN*16-1:0] h_row_bf16;

  logic              h_wo_hm;  // M_BMM_WO: row h_wo_head of hm instead
  assign h_wo      = (state_q == StWrite) ? (is_hwo_q || is_hmwo_q) : (op_i == MM_BMV_WO);
  assign h_wo_hm   = (state_q == StWrite) && is_hmwo_q;
  assign h_wo_head = (state_q == StWrite) ? cnt_q : '0;

  for (genvar c = 0; c < MLEN; c++) begin : g_h_round
    logic [31:0] hm_word;
    assign hm_word = hm_live_q[HvW'(h_wo_head)] ? hm_q[HmW'(32'(h_wo_head) * MLEN + c)] : 32'd0;
    moe_bf16_round u_round (
      .f_i(h_wo_hm ? hm_word : hv_q[HvW'(32'(h_wo_head) * MLEN + c)]),
      .y_o(h_row_bf16[16*c +: 16])
    );
  end

  // Write-back row: accumulator row wr_idx (0 in the issue cycle), or vacc for M_MV_WO (issue
  // cycle only), rounded to BF16.
  logic [CntW-1:0]     wr_idx;
  logic [31:0]         wr_acc [BLEN];
  logic [BLEN*16-1:0]  wr_row_bf16;
  logic [31:0]         wr_col;

  assign wr_idx = (state_q == StWrite) ? cnt_q : '0;
  assign wr_col = (state_q == StWrite) ? wo_col_q : wo_col_i;

  assign wr_acc = (state_q == StIdle && op_i == MM_MV_WO) ? vacc_q : acc_q[row_sel(wr_idx)];

  for (genvar j = 0; j < BLEN; j++) begin : g_wo_round
    moe_bf16_round u_round (
      .f_i(wr_acc[j]),
      .y_o(wr_row_bf16[16*j +: 16])
    );
  end

  assign vram_wdata_o = h_wo ? h_row_bf16 : {(VLEN / BLEN){wr_row_bf16}};
  assign vram_wmask_o = h_wo ? {VLEN{1'b1}} : VLEN'({BLEN{1'b1}}) << wr_col;

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
    acc_d       = acc_q;
    vacc_d      = vacc_q;
    acc_we      = 1'b0;
    vacc_we     = 1'b0;
    is_mm_d     = is_mm_q;
    is_t_d      = is_t_q;
    is_h_d      = is_h_q;
    is_ht_d     = is_ht_q;
    is_hwo_d    = is_hwo_q;
    is_hm_d     = is_hm_q;
    is_hmwo_d   = is_hmwo_q;
    mat_col_d   = mat_col_q;

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
        if (start_i && (op_i == MM_MM || op_i == MM_TMM || op_i == MM_MV || op_i == MM_TMV ||
                        op_i == MM_BMV || op_i == MM_BTMV || op_i == MM_BMM ||
                        op_i == MM_BTMM)) begin
          mram_re_o  = 1'b1;
          mram_row_o = mat_row_i;
          vram_re_o  = 1'b1;
          vram_row_o = act_row_i;
          mat_row_d  = mat_row_i;
          mat_col_d  = mat_col_i;
          act_row_d  = act_row_i;
          is_mm_d    = (op_i == MM_MM || op_i == MM_TMM);
          is_t_d     = (op_i == MM_TMV || op_i == MM_TMM);
          is_h_d     = (op_i == MM_BMV || op_i == MM_BTMV || op_i == MM_BMM || op_i == MM_BTMM);
          is_ht_d    = (op_i == MM_BTMV || op_i == MM_BTMM);
          is_hm_d    = (op_i == MM_BMM || op_i == MM_BTMM);
          cnt_d      = CntW'(1);
          state_d    = StLoad;
        end else if (start_i && op_i == MM_MV_WO) begin
          vram_we_o   = 1'b1;
          vram_wrow_o = wo_row_i;
          done_o      = 1'b1;
          vacc_we     = 1'b1;
          vacc_d      = '{default: 32'd0};
        end else if (start_i && op_i == MM_BMV_WO) begin
          // Head rows 0 .. B-1 to consecutive VRAM rows; hv rows cleared in h_state.
          vram_we_o   = 1'b1;
          vram_wrow_o = wo_row_i;
          wo_row_d    = wo_row_i + 32'd1;
          wo_stride_d = 32'd1;
          cnt_d       = CntW'(1);
          is_hwo_d    = 1'b1;
          is_hmwo_d   = 1'b0;
          if (Heads == 1) begin
            done_o = 1'b1;
          end else begin
            state_d = StWrite;
          end
        end else if (start_i && op_i == MM_BMM_WO) begin
          // The issue cycle writes nothing; StWrite cycle i writes hm row i (read through cnt_q)
          // to VRAM row wo_row_i + i, i = 0 .. B*MLEN-1; valid bits cleared in h_state.
          wo_row_d    = wo_row_i;
          wo_stride_d = 32'd1;
          cnt_d       = '0;
          is_hwo_d    = 1'b0;
          is_hmwo_d   = 1'b1;
          state_d     = StWrite;
        end else if (start_i && op_i == MM_MM_WO) begin
          vram_we_o   = 1'b1;
          vram_wrow_o = wo_row_i;
          wo_row_d    = wo_row_i + wo_stride_i;
          wo_col_d    = wo_col_i;
          wo_stride_d = wo_stride_i;
          cnt_d       = CntW'(1);
          is_hwo_d    = 1'b0;
          is_hmwo_d   = 1'b0;
          if (BLEN == 1) begin
            done_o = 1'b1;
            acc_we = 1'b1;
            acc_d  = '{default: '{default: 32'd0}};
          end else begin
            state_d = StWrite;
          end
        end
      end

      StLoad: begin
        // Load: operand row cnt_q-1 (read last cycle) is captured in operand_regs; read row
        // cnt_q while < BLEN (M_MM, M_MV) or < MLEN (M_TMV, M_TMM). M_MM and M_TMM read BLEN
        // activation rows, in cycles 0 .. BLEN-1; M_MV and M_TMV one.
        if (32'(cnt_q) < (is_h_q ? (is_ht_q ? MLEN : HLEN) : (is_t_q ? MLEN : BLEN))) begin
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
        if (is_h_q) begin
          // hv_q[cnt_q] (M_BMM / M_BTMM: hm_q[hm_idx]) is written in h_state. M_BMM / M_BTMM
          // read activation row m+1 in the second-to-last MAC cycle of row m.
          if (is_hm_q && (32'(cnt_q) % HeadMacs) == HeadMacs - 2 && h_act_m < MLEN - 1) begin
            vram_re_o  = 1'b1;
            vram_row_o = act_row_q + h_act_m + 32'd1;
          end
        end else if (is_mm_q && !is_t_q) begin
          acc_we = 1'b1;
          acc_d  = acc_sum;
        end else if (is_mm_q) begin
          acc_we = 1'b1;
          for (int unsigned r = 0; r < BLEN; r++) begin
            if (32'(t_row) == r) begin
              acc_d[r] = vacc_sum;
            end
          end
        end else begin
          vacc_we = 1'b1;
          vacc_d  = vacc_sum;
        end
        cnt_d = cnt_q + CntW'(1);
        if (32'(cnt_q) == (is_h_q ? (is_hm_q ? HmMacs : HeadMacs) :
                           (is_mm_q && is_t_q) ? TmmMacs : NumBlocks) - 1) begin
          done_o  = 1'b1;
          cnt_d   = '0;
          state_d = StIdle;
        end
      end

      StWrite: begin
        // Write: accumulator row cnt_q (M_BMV_WO: head row) to VRAM row wo_row_q; the last row
        // retires and clears (M_BMV_WO: each hv row as it is written, in h_state).
        vram_we_o = 1'b1;
        wo_row_d  = wo_row_q + wo_stride_q;
        cnt_d     = cnt_q + CntW'(1);
        if (32'(cnt_q) == (is_hmwo_q ? HeadMacs : is_hwo_q ? Heads : BLEN) - 1) begin
          done_o  = 1'b1;
          if (!is_hwo_q && !is_hmwo_q) begin
            acc_we = 1'b1;
            acc_d  = '{default: '{default: 32'd0}};
          end
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
      is_h_q      <= 1'b0;
      is_ht_q     <= 1'b0;
      is_hwo_q    <= 1'b0;
      is_hm_q     <= 1'b0;
      is_hmwo_q   <= 1'b0;
      mat_col_q   <= '0;
      vacc_q      <= '{default: 32'd0};
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
      is_h_q      <= is_h_d;
      is_ht_q     <= is_ht_d;
      is_hwo_q    <= is_hwo_d;
      is_hm_q     <= is_hm_d;
      is_hmwo_q   <= is_hmwo_d;
      mat_col_q   <= mat_col_d;
      if (vacc_we) vacc_q <= vacc_d;
      if (acc_we) acc_q <= acc_d;
    end
  end

  // Operand registers, on clk_ld (load cycles): operand row cnt_q-1, read in the last cycle.
  always_ff @(posedge clk_ld or negedge rst_ni) begin : operand_regs
    if (!rst_ni) begin
      t_codes_q  <= '{default: '0};
      t_scales_q <= '{default: '0};
      w_codes_q  <= '{default: '0};
      w_scales_q <= '{default: '0};
      act_q      <= '{default: '0};
    end else begin
      for (int unsigned r = 0; r < BLEN; r++) begin
        if (32'(cnt_q) == r + 1 && (is_mm_q || r == 0)) begin
          act_q[r] <= vram_rdata_i;
        end
      end
      if (is_t_q) begin
        for (int unsigned k = 0; k < MLEN; k++) begin
          if (32'(cnt_q) == k + 1) begin
            for (int unsigned j = 0; j < BLEN; j++) begin
              t_codes_q[k][8*j +: 8]  <= mram_codes_i[8 * (mat_col_q + j) +: 8];
              t_scales_q[k][8*j +: 8] <= mram_scales_i[8 * ((mat_col_q + j) / MX_BLOCK) +: 8];
            end
          end
        end
      end else begin
        for (int unsigned r = 0; r < BLEN; r++) begin
          if (32'(cnt_q) == r + 1) begin
            w_codes_q[r]  <= mram_codes_i;
            w_scales_q[r] <= mram_scales_i;
          end
        end
      end
    end
  end

  // Per-head state, written a few words per cycle: operands while loading (M_BMV: tile row d of
  // every column in cycle d+1; M_BTMV: tile row c's HLEN codes from column mat_col_q in cycle
  // c+1; the activation row, split into heads, in cycle 1), hv_q[cnt_q] in each MAC cycle, and the
  // head row M_BMV_WO writes cleared in its cycle.
  logic h_load, h_mac, h_clear, h_act_next;
  assign h_load  = (state_q == StLoad) && is_h_q;
  assign h_mac   = (state_q == StMac) && is_h_q;
  assign h_clear = h_wo && vram_we_o;
  // M_BMM / M_BTMM: the last MAC cycle of row m captures row m+1 (read the cycle before).
  assign h_act_next = h_mac && is_hm_q && (32'(cnt_q) % HeadMacs) == HeadMacs - 1 &&
                      h_act_m < MLEN - 1;

  // The head operands, on clk_hop: the cycles that write them.
  assign en_hop = h_load || h_act_next;

  always_ff @(posedge clk_hop) begin : h_operands
    if ((h_load && cnt_q == CntW'(1)) || h_act_next) begin
      for (int unsigned b = 0; b < Heads; b++) begin
        for (int unsigned d = 0; d < HLEN; d++) begin
          h_act_q[b][16*d +: 16] <= is_ht_q ? vram_rdata_i[16*(b*HLEN + d) +: 16]
                                            : vram_rdata_i[16*(d*Heads + b) +: 16];
        end
      end
    end
    if (h_load && !is_ht_q && cnt_q != '0 && 32'(cnt_q) <= HLEN) begin
      for (int unsigned c = 0; c < MLEN; c++) begin
        h_codes_q[c][8*(32'(cnt_q) - 1) +: 8]  <= mram_codes_i[8*c +: 8];
        h_scales_q[c][8*(32'(cnt_q) - 1) +: 8] <= mram_scales_i[8*(c / MX_BLOCK) +: 8];
      end
    end
    if (h_load && is_ht_q && cnt_q != '0) begin
      h_codes_q[32'(cnt_q) - 1] <= mram_codes_i[8*mat_col_q +: HLEN*8];
      for (int unsigned d = 0; d < HLEN; d++) begin
        h_scales_q[32'(cnt_q) - 1][8*d +: 8] <= mram_scales_i[8*((mat_col_q + d) / MX_BLOCK) +: 8];
      end
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin : h_state
    if (!rst_ni) begin
      hv_q      <= '{default: 32'd0};
      hm_live_q <= '0;
    end else begin
      if (h_mac && !is_hm_q) begin
        hv_q[h_idx] <= h_sum;
      end
      if (h_mac && is_hm_q && 32'(h_col) == MLEN - 1) begin
        hm_live_q[hm_row] <= 1'b1;
      end
      if (h_clear && !h_wo_hm) begin
        for (int unsigned c = 0; c < MLEN; c++) begin
          hv_q[32'(h_wo_head) * MLEN + c] <= 32'd0;
        end
      end
      if (h_clear && h_wo_hm) begin
        hm_live_q[HvW'(h_wo_head)] <= 1'b0;
      end
    end
  end

  // hm words: a memory (no reset; hm_live_q says which rows hold data), one write per MAC cycle.
  always_ff @(posedge clk_i) begin : hm_mem
    if (h_mac && is_hm_q) begin
      hm_q[hm_idx] <= h_sum;
    end
  end

endmodule
