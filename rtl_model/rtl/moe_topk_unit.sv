// moesim RTL: router top-k unit (V_TOPK: selection by insertion sort, softmax over the k).

/**
 * Top-k unit of the moesim accelerator (isa.yaml V_TOPK).
 *
 * Latency E + 2 * k + 1 cycles, start cycle included:
 *   cycle 0                 read VRAM row logit_row_i (synchronous read port).
 *   cycles 1 .. E           scan: one logit per cycle in expert order e = 0 .. E-1 (element
 *                           e mod VLEN of row logit_row_i + e / VLEN; a row is taken straight
 *                           from the read port in the cycle it arrives and from a row buffer
 *                           after that; the next row is read in the cycle that consumes the last
 *                           element of the current one). Each logit is inserted into a sorted
 *                           list of MaxK = min(MAX_E, 255) entries {value, expert id} by a
 *                           parallel compare against every entry and a one-place shift; a new
 *                           logit goes behind every entry whose key is >= its own, so ties keep
 *                           the lower expert index first. A NaN logit is read as -inf (0xFF80);
 *                           the key orders BF16 values with -0 == +0.
 *   cycles E+1 .. E+k       exp pass, rank j = 0 .. k-1: d_j = bf16_rne(v_j - v_0) (moe_fp32_add
 *                           on the negated maximum), e_j = EXP[d_j] (exp ROM port),
 *                           s = fp32_add(s, e_j) from s = +0; INT_SRAM[id_addr_i + j] = id_j.
 *   cycles E+k+1 .. E+2k    weight pass, rank j = 0 .. k-1: e_j is looked up again as above,
 *                           r = RECI[bf16_rne(s)] (reciprocal ROM port, constant in this pass),
 *                           w_j = bf16_rne(fp32_mul(e_j, r)), or +0 for every j when
 *                           bf16_rne(s) is NaN, inf or not > 0; FP_SRAM[w_addr_i + j] = w_j.
 *                           The cycle writing w_{k-1} raises done_o.
 * v_j are the selected logits as read: a NaN logit is stored as -inf, so a selected NaN gives
 * e_j = +0 (or, when v_0 is -inf, d_j = NaN and every weight +0). Handshake as moe_matrix_unit: start_i is a one-cycle pulse while idle,
 * busy_o covers the start cycle to the done cycle, done_o marks the last one. E (1..MAX_E) and
 * k (1..min(E, 255)) are checked by the core.
 */
module moe_topk_unit #(
  parameter int unsigned VLEN  = 64,
  parameter int unsigned MAX_E = 256
) (
  input  logic               clk_i,
  input  logic               rst_ni,

  // Issue from the core
  input  logic               start_i,       // one-cycle pulse in the issue cycle
  input  logic [15:0]        e_i,           // experts E (1..MAX_E)
  input  logic [15:0]        k_i,           // selected k (1..E, <= 255)
  input  logic [31:0]        logit_row_i,   // VRAM row holding logits 0 .. VLEN-1
  input  logic [31:0]        id_addr_i,     // INT SRAM word address of id 0
  input  logic [31:0]        w_addr_i,      // FP SRAM word address of weight 0
  output logic               done_o,        // last busy cycle (retire)
  output logic               busy_o,

  // VRAM read port (synchronous: row in cycle t, data in t+1)
  output logic               vram_re_o,
  output logic [31:0]        vram_row_o,
  input  logic [VLEN*16-1:0] vram_rdata_i,

  // INT SRAM / FP SRAM write ports (take effect at the clock edge)
  output logic               int_we_o,
  output logic [31:0]        int_waddr_o,
  output logic [31:0]        int_wdata_o,
  output logic               fp_we_o,
  output logic [31:0]        fp_waddr_o,
  output logic [15:0]        fp_wdata_o,

  // Combinational BF16 ROM lookups (shared moe_bf16_rom ports)
  output logic [15:0]        exp_addr_o,
  input  logic [15:0]        exp_data_i,
  output logic [15:0]        reci_addr_o,
  input  logic [15:0]        reci_data_i
);

  localparam int unsigned MaxK = (MAX_E < 255) ? MAX_E : 255;
  localparam int unsigned IdW  = (MAX_E > 2) ? $clog2(MAX_E) : 1;
  localparam int unsigned ColW = (VLEN > 2) ? $clog2(VLEN) : 1;

  //////////////////
  // State        //
  //////////////////

  typedef enum logic [1:0] {
    StIdle,
    StScan,
    StExp,
    StWgt
  } state_e;

  state_e              state_q, state_d;
  logic [15:0]         num_e_q, num_e_d;      // E
  logic [15:0]         num_k_q, num_k_d;      // k
  logic [31:0]         row_q, row_d;          // next VRAM row to read
  logic [31:0]         id_addr_q, id_addr_d;
  logic [31:0]         w_addr_q, w_addr_d;
  logic [15:0]         idx_q, idx_d;          // Scan: expert e; Exp/Wgt: rank j
  logic [ColW-1:0]     col_q, col_d;          // Scan: element of the current row
  logic                rd_vld_q, rd_vld_d;    // VRAM data arrives this cycle
  logic [VLEN*16-1:0]  row_buf_q, row_buf_d;
  logic [15:0]         list_val_q [MaxK];
  logic [15:0]         list_val_d [MaxK];
  logic [IdW-1:0]      list_id_q  [MaxK];
  logic [IdW-1:0]      list_id_d  [MaxK];
  logic [15:0]         list_cnt_q, list_cnt_d;
  logic [31:0]         sum_q, sum_d;          // FP32 softmax denominator s

  //////////////////
  // Selection    //
  //////////////////

  // Order-preserving key of a non-NaN BF16 value: larger key = larger value; -0 == +0. (One
  // return: Verilator's line coverage never counts a branch arm that returns.)
  function automatic logic [15:0] sort_key(logic [15:0] v);
    logic [15:0] key;
    if (v[14:0] == 15'd0) begin
      key = 16'h8000;                  // key of +0
    end else if (v[15]) begin
      key = ~v;
    end else begin
      key = {1'b1, v[14:0]};
    end
    return key;
  endfunction

  logic [VLEN*16-1:0] row_data;
  logic [15:0]        logit, logit_rd, logit_key;
  logic [MaxK-1:0]    keep;           // entry p stays in place (valid and key >= new key)
  logic [MaxK-1:0]    keep_prev;      // keep of entry p-1 (1 for p = 0): the new logit lands at
                                      // the first p with keep_prev[p] && !keep[p]

  assign row_data  = rd_vld_q ? vram_rdata_i : row_buf_q;
  assign logit     = row_data[32'(col_q) * 16 +: 16];
  // A NaN logit is read as -inf, for the selection and the softmax alike (isa.yaml V_TOPK).
  assign logit_rd  = (logit[14:7] == 8'hFF && logit[6:0] != 7'd0) ? 16'hFF80 : logit;
  assign logit_key = sort_key(logit_rd);

  for (genvar p = 0; p < MaxK; p++) begin : g_cmp
    assign keep[p] = (32'(list_cnt_q) > p) && (sort_key(list_val_q[p]) >= logit_key);
  end
  if (MaxK > 1) begin : g_keep_prev
    assign keep_prev = {keep[MaxK-2:0], 1'b1};
  end else begin : g_keep_prev_single
    assign keep_prev = 1'b1;
  end

  //////////////////
  // Softmax      //
  //////////////////

  logic [15:0] v_j, v_max, d_j, sum_bf16, w_raw;
  logic [IdW-1:0] id_j;
  logic [31:0] diff_f32, sum_next, w_f32;
  logic        sum_bad;

  always_comb begin
    v_j  = list_val_q[0];
    id_j = list_id_q[0];
    for (int unsigned p = 1; p < MaxK; p++) begin
      if (32'(idx_q) == p) begin
        v_j  = list_val_q[p];
        id_j = list_id_q[p];
      end
    end
  end
  assign v_max = list_val_q[0];

  moe_fp32_add u_diff (
    .a_i({v_j, 16'd0}),
    .b_i({~v_max[15], v_max[14:0], 16'd0}),
    .y_o(diff_f32)
  );

  moe_bf16_round u_diff_round (
    .f_i(diff_f32),
    .y_o(d_j)
  );

  assign exp_addr_o = d_j;

  moe_fp32_add u_sum (
    .a_i(sum_q),
    .b_i({exp_data_i, 16'd0}),
    .y_o(sum_next)
  );

  moe_bf16_round u_sum_round (
    .f_i(sum_q),
    .y_o(sum_bf16)
  );

  assign reci_addr_o = sum_bf16;
  assign sum_bad     = sum_bf16[15] || (sum_bf16[14:0] == 15'd0) || (sum_bf16[14:7] == 8'hFF);

  moe_fp32_mul u_weight (
    .a_i({exp_data_i, 16'd0}),
    .b_i({reci_data_i, 16'd0}),
    .y_o(w_f32)
  );

  moe_bf16_round u_weight_round (
    .f_i(w_f32),
    .y_o(w_raw)
  );

  //////////////////
  // Control      //
  //////////////////

  always_comb begin
    state_d    = state_q;
    num_e_d    = num_e_q;
    num_k_d    = num_k_q;
    row_d      = row_q;
    id_addr_d  = id_addr_q;
    w_addr_d   = w_addr_q;
    idx_d      = idx_q;
    col_d      = col_q;
    row_buf_d  = rd_vld_q ? vram_rdata_i : row_buf_q;
    list_val_d = list_val_q;
    list_id_d  = list_id_q;
    list_cnt_d = list_cnt_q;
    sum_d      = sum_q;

    done_o      = 1'b0;
    vram_re_o   = 1'b0;
    vram_row_o  = row_q;
    int_we_o    = 1'b0;
    int_waddr_o = id_addr_q + 32'(idx_q);
    int_wdata_o = 32'(id_j);
    fp_we_o     = 1'b0;
    fp_waddr_o  = w_addr_q + 32'(idx_q);
    fp_wdata_o  = sum_bad ? 16'h0000 : w_raw;

    unique case (state_q)
      StIdle: begin
        // Idle: on start_i latch the operands and read the first logit row.
        if (start_i) begin
          vram_re_o  = 1'b1;
          vram_row_o = logit_row_i;
          row_d      = logit_row_i + 32'd1;
          num_e_d    = e_i;
          num_k_d    = k_i;
          id_addr_d  = id_addr_i;
          w_addr_d   = w_addr_i;
          idx_d      = '0;
          col_d      = '0;
          list_cnt_d = '0;
          state_d    = StScan;
        end
      end

      StScan: begin
        // Scan: insert logit idx_q (element col_q of the current row) into the sorted list.
        for (int unsigned p = 0; p < MaxK; p++) begin
          if (!keep[p] && keep_prev[p]) begin
            list_val_d[p] = logit_rd;
            list_id_d[p]  = IdW'(idx_q);
          end else if (!keep[p]) begin
            list_val_d[p] = list_val_q[p-1];
            list_id_d[p]  = list_id_q[p-1];
          end
        end
        if (32'(list_cnt_q) < MaxK) begin
          list_cnt_d = list_cnt_q + 16'd1;
        end
        idx_d = idx_q + 16'd1;
        col_d = col_q + ColW'(1);
        if (32'(col_q) == VLEN - 1) begin
          col_d = '0;
          if (idx_q + 16'd1 < num_e_q) begin
            vram_re_o = 1'b1;
            row_d     = row_q + 32'd1;
          end
        end
        if (idx_q + 16'd1 == num_e_q) begin
          idx_d   = '0;
          sum_d   = 32'd0;
          state_d = StExp;
        end
      end

      StExp: begin
        // Exp: rank idx_q; accumulate EXP[d_j] into s and write the expert id.
        int_we_o = 1'b1;
        sum_d    = sum_next;
        idx_d    = idx_q + 16'd1;
        if (idx_q + 16'd1 == num_k_q) begin
          idx_d   = '0;
          state_d = StWgt;
        end
      end

      StWgt: begin
        // Weight: rank idx_q; write w_j = EXP[d_j] * RECI[bf16(s)]; the last rank retires.
        fp_we_o = 1'b1;
        idx_d   = idx_q + 16'd1;
        if (idx_q + 16'd1 == num_k_q) begin
          done_o  = 1'b1;
          idx_d   = '0;
          state_d = StIdle;
        end
      end

      default: begin
        state_d = StIdle;
      end
    endcase
  end

  assign busy_o   = start_i || (state_q != StIdle);
  assign rd_vld_d = vram_re_o;

  //////////////////
  // Registers    //
  //////////////////

  always_ff @(posedge clk_i or negedge rst_ni) begin : update_regs
    if (!rst_ni) begin
      state_q    <= StIdle;
      num_e_q    <= '0;
      num_k_q    <= '0;
      row_q      <= '0;
      id_addr_q  <= '0;
      w_addr_q   <= '0;
      idx_q      <= '0;
      col_q      <= '0;
      rd_vld_q   <= 1'b0;
      row_buf_q  <= '0;
      list_val_q <= '{default: '0};
      list_id_q  <= '{default: '0};
      list_cnt_q <= '0;
      sum_q      <= '0;
    end else begin
      state_q    <= state_d;
      num_e_q    <= num_e_d;
      num_k_q    <= num_k_d;
      row_q      <= row_d;
      id_addr_q  <= id_addr_d;
      w_addr_q   <= w_addr_d;
      idx_q      <= idx_d;
      col_q      <= col_d;
      rd_vld_q   <= rd_vld_d;
      row_buf_q  <= row_buf_d;
      list_val_q <= list_val_d;
      list_id_q  <= list_id_d;
      list_cnt_q <= list_cnt_d;
      sum_q      <= sum_d;
    end
  end

endmodule
