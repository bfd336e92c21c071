// moesim RTL: vector unit (element-wise ops, EXP/RECI lookups, reduction trees, prefix sum,
// shift, gather/scatter).

/**
 * VLEN lanes, each with one moe_fp32_add, moe_fp32_mul, moe_fp32_minmax and moe_bf16_round; the
 * EXP/RECI ROMs are shared with the top-k unit and reached through the exp/reci ports.
 *
 * Cycle 0 (issue, `start_i`): the operand rows are read on VRAM ports A and B (synchronous).
 * Element-wise operations: cycle 1 converts the BF16 elements to FP32, operates, rounds, merges
 * the mask (rmask != 0: element e is selected by V_MASK bit e / HLEN; unselected elements keep
 * the A value), writes the row and is the last cycle (latency 2). VEC_COPY (V_GATHER) writes the
 * A row. V_SCATTER_ADD is issued as an unmasked VEC_ADD with A = destination row.
 *
 * VEC_SUB subtracts f[fs] (or row B) from A; VEC_RSUB (V_SUB_VF rorder 1) computes f[fs] - A.
 * VEC_SHIFT (V_SHFT_V) writes row A shifted toward higher element indices by the amount read at
 * issue (gp[rs2]), zero filled; an amount >= VLEN gives a zero row (latency 2).
 *
 * V_RED_SUM / V_RED_MAX: cycle 1 combines element pairs (2i, 2i+1) (unselected elements enter as
 * +0.0 for the sum, -inf for the max) into VLEN/2 partial results with the lane adders resp. the
 * lane max units; each following cycle combines neighbouring partial results (one tree level per
 * cycle) until one result S remains after log2(VLEN) levels; the next cycle combines S with
 * f[fd] in lane 0 (f[fd] + S, or max(f[fd], S)), rounds to BF16 and writes fd (latency
 * log2(VLEN) + 2).
 *
 * V_PS_V: cycles 1 .. VLEN add one element each in lane 0's adder: the FP32 accumulator starts
 * at -0.0 (so the first sum is x_0 exactly, -0 included) and cycle 1+e forms acc + x_e and
 * stores bf16_rne of it as element e of an output row register; cycle VLEN writes the row
 * (latency VLEN + 1).
 *
 * busy_o is high from the start cycle to the done cycle inclusive; done_o marks the last one.
 */
module moe_vector_unit
  import moe_pkg::*;
#(
  parameter int unsigned VLEN     = 64,
  parameter int unsigned HLEN     = 16,
  parameter int unsigned VramRowW = 13
) (
  input  logic                 clk_i,
  input  logic                 rst_ni,

  // Issue
  input  logic                 start_i,
  input  vec_op_e              op_i,
  input  logic [VramRowW-1:0]  dst_row_i,
  input  logic [VramRowW-1:0]  a_row_i,
  input  logic [VramRowW-1:0]  b_row_i,
  input  logic                 use_scalar_i,   // operand B is f[fs] broadcast
  input  logic [15:0]          scalar_i,       // f[fs]
  input  logic [31:0]          shift_i,        // V_SHFT_V amount gp[rs2]
  input  logic                 masked_i,       // rmask != 0
  input  logic [31:0]          v_mask_i,       // V_MASK
  input  logic [2:0]           fd_i,           // V_RED_SUM destination register
  input  logic [15:0]          fd_val_i,       // f[fd]
  output logic                 done_o,
  output logic                 busy_o,

  // VRAM: two synchronous read ports and the write port
  output logic                 vram_a_re_o,
  output logic [VramRowW-1:0]  vram_a_row_o,
  input  logic [VLEN*16-1:0]   vram_a_rdata_i,
  output logic                 vram_b_re_o,
  output logic [VramRowW-1:0]  vram_b_row_o,
  input  logic [VLEN*16-1:0]   vram_b_rdata_i,
  output logic                 vram_we_o,
  output logic [VramRowW-1:0]  vram_wrow_o,
  output logic [VLEN*16-1:0]   vram_wdata_o,

  // FP register write (V_RED_SUM)
  output logic                 fp_we_o,
  output logic [2:0]           fp_waddr_o,
  output logic [15:0]          fp_wdata_o,

  // Shared BF16 ROMs (combinational)
  output logic [VLEN*16-1:0]   exp_addr_o,
  input  logic [VLEN*16-1:0]   exp_data_i,
  output logic [VLEN*16-1:0]   reci_addr_o,
  input  logic [VLEN*16-1:0]   reci_data_i
);

  localparam int unsigned Levels = $clog2(VLEN);
  localparam int unsigned LevelW = (Levels > 1) ? $clog2(Levels) : 1;
  localparam int unsigned Half   = VLEN / 2;
  localparam int unsigned ElemW  = $clog2(VLEN);

  localparam logic [31:0] NegInf  = 32'hFF80_0000;
  localparam logic [31:0] NegZero = 32'h8000_0000;

  ////////////
  // FSM    //
  ////////////

  typedef enum logic [2:0] {
    StIdle,   // waiting for start_i; the operand rows are read in the start cycle
    StRow,    // operand rows available: element-wise result, or tree level 0
    StTree,   // V_RED_* tree levels 1 .. Levels-1
    StFinal,  // V_RED_* f[fd] combined with S
    StScan    // V_PS_V: one element per cycle
  } state_e;

  state_e              state_q, state_d;
  vec_op_e             op_q;
  logic [VramRowW-1:0] dst_row_q;
  logic                use_scalar_q;
  logic [VLEN-1:0]     sel_q, sel_d;  // element selection of masked operations (V_MASK)
  logic [15:0]         scalar_q, fd_val_q;
  logic [2:0]          fd_q;
  logic [31:0]         shift_q;
  logic [LevelW-1:0]   level_q, level_d;
  logic [ElemW-1:0]    elem_q, elem_d;
  logic [31:0]         acc_q, acc_d;
  logic [VLEN*16-1:0]  scan_q, scan_d;
  logic [31:0]         psum_q [Half];
  logic [31:0]         psum_d [Half];

  logic is_red, is_max;
  assign is_red = (op_q == VEC_RED_SUM) || (op_q == VEC_RED_MAX);
  assign is_max = (op_q == VEC_RED_MAX) || (op_q == VEC_MAX);

  always_comb begin
    state_d = state_q;
    level_d = level_q;
    elem_d  = elem_q;
    done_o  = 1'b0;
    unique case (state_q)
      // StIdle: the start cycle reads the operand rows.
      StIdle: begin
        if (start_i) begin
          state_d = (op_i == VEC_PS) ? StScan : StRow;
          elem_d  = '0;
        end
      end
      // StScan: element elem_q of the prefix sum; the last one writes the row.
      StScan: begin
        elem_d = elem_q + ElemW'(1);
        if (32'(elem_q) == VLEN - 1) begin
          done_o  = 1'b1;
          state_d = StIdle;
        end
      end
      // StRow: element-wise operations finish; V_RED_SUM computes tree level 0.
      StRow: begin
        if (!is_red) begin
          done_o  = 1'b1;
          state_d = StIdle;
        end else if (Levels > 1) begin
          state_d = StTree;
          level_d = LevelW'(1);
        end else begin
          state_d = StFinal;
        end
      end
      // StTree: one tree level per cycle.
      StTree: begin
        level_d = level_q + LevelW'(1);
        if (32'(level_q) == Levels - 1) state_d = StFinal;
      end
      // StFinal: f[fd] + S, rounded, written to fd.
      StFinal: begin
        done_o  = 1'b1;
        state_d = StIdle;
      end
      default: state_d = StIdle;
    endcase
  end

  assign busy_o = start_i || (state_q != StIdle);

  always_ff @(posedge clk_i or negedge rst_ni) begin : fsm_regs
    if (!rst_ni) begin
      state_q <= StIdle;
      level_q <= '0;
      elem_q  <= '0;
    end else begin
      state_q <= state_d;
      level_q <= level_d;
      elem_q  <= elem_d;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin : op_regs
    if (!rst_ni) begin
      op_q         <= VEC_ADD;
      dst_row_q    <= '0;
      use_scalar_q <= 1'b0;
      sel_q        <= '1;
      scalar_q     <= '0;
      fd_q         <= '0;
      fd_val_q     <= '0;
      shift_q      <= '0;
    end else if (start_i) begin
      op_q         <= op_i;
      dst_row_q    <= dst_row_i;
      use_scalar_q <= use_scalar_i;
      sel_q        <= sel_d;
      scalar_q     <= scalar_i;
      fd_q         <= fd_i;
      fd_val_q     <= fd_val_i;
      shift_q      <= shift_i;
    end
  end

  always_ff @(posedge clk_i) begin : psum_regs
    psum_q <= psum_d;
    acc_q  <= acc_d;
    scan_q <= scan_d;
  end

  //////////////////
  // VRAM reads   //
  //////////////////

  assign vram_a_re_o  = start_i;
  assign vram_a_row_o = a_row_i;
  assign vram_b_re_o  = start_i;
  assign vram_b_row_o = b_row_i;

  //////////////
  // Lanes    //
  //////////////

  // V_SHFT_V: element e moves to e + shift (toward higher indices); zeros enter at element 0.
  logic [VLEN*16-1:0] shifted;
  assign shifted = (shift_q >= VLEN) ? '0 : (vram_a_rdata_i << (32'd16 * shift_q));

  function automatic logic [31:0] bf16_to_fp32(logic [15:0] b);
    return {b, 16'h0000};
  endfunction

  // Element selection of masked operations, registered at issue with the operation (V_MASK
  // cannot change while the unit works: the core runs one instruction at a time). The lanes
  // then depend on the unit's own registers only, not on the V_MASK register, which the
  // harness may write (checkpoint restore) and which Verilator therefore evaluates the logic
  // of at every eval (docs/performance.md).
  logic [VLEN-1:0] sel;
  for (genvar e = 0; e < VLEN; e++) begin : g_sel
    assign sel_d[e] = !masked_i || v_mask_i[e / HLEN];
  end
  assign sel = sel_q;

  logic [31:0] add_a [VLEN];
  logic [31:0] add_b [VLEN];
  logic [31:0] add_y [VLEN];
  logic [31:0] mul_y [VLEN];
  logic [31:0] mm_y  [VLEN];
  logic [31:0] rnd_in [VLEN];
  logic [15:0] rnd_y [VLEN];

  for (genvar i = 0; i < VLEN; i++) begin : g_lane
    logic [15:0] a_e, b_e;
    logic [31:0] a_f, b_f;
    assign a_e = vram_a_rdata_i[16*i +: 16];
    assign b_e = use_scalar_q ? scalar_q : vram_b_rdata_i[16*i +: 16];
    assign a_f = bf16_to_fp32(a_e);
    assign b_f = bf16_to_fp32(b_e);

    // Adder / max operands: element-wise (SUB negates B, RSUB computes B - A), tree level 0 on
    // row pairs (unselected elements: +0.0 for the sum, -inf for the max), tree levels on
    // partial results, f[fd] with S in lane 0, and the prefix-sum step acc + x_e in lane 0.
    logic [31:0] ident;
    assign ident = (op_q == VEC_RED_MAX) ? NegInf : 32'h0;
    always_comb begin
      add_a[i] = a_f;
      add_b[i] = (op_q == VEC_SUB) ? {~b_f[31], b_f[30:0]} : b_f;
      if (op_q == VEC_RSUB) begin
        add_a[i] = b_f;
        add_b[i] = {~a_f[31], a_f[30:0]};
      end
      if (op_q == VEC_PS) begin
        add_a[i] = (i == 0) ? acc_q : 32'h0;
        add_b[i] = (i == 0) ? bf16_to_fp32(vram_a_rdata_i[16*32'(elem_q) +: 16]) : 32'h0;
      end
      if (is_red) begin
        add_a[i] = 32'h0;
        add_b[i] = 32'h0;
        unique case (state_q)
          StRow: begin
            if (i < Half) begin
              add_a[i] = sel[(2*i) % VLEN]     ? bf16_to_fp32(vram_a_rdata_i[16*((2*i) % VLEN) +: 16])     : ident;
              add_b[i] = sel[(2*i + 1) % VLEN] ? bf16_to_fp32(vram_a_rdata_i[16*((2*i + 1) % VLEN) +: 16]) : ident;
            end
          end
          StTree: begin
            if (2 * i + 1 < Half) begin
              add_a[i] = psum_q[(2*i) % Half];
              add_b[i] = psum_q[(2*i + 1) % Half];
            end
          end
          StFinal: begin
            if (i == 0) begin
              add_a[i] = bf16_to_fp32(fd_val_q);
              add_b[i] = psum_q[0];
            end
          end
          default: ;
        endcase
      end
    end

    moe_fp32_add u_add (
      .a_i (add_a[i]),
      .b_i (add_b[i]),
      .y_o (add_y[i])
    );

    moe_fp32_mul u_mul (
      .a_i (a_f),
      .b_i (b_f),
      .y_o (mul_y[i])
    );

    moe_fp32_minmax u_minmax (
      .a_i   (add_a[i]),
      .b_i   (add_b[i]),
      .max_i (is_max),
      .y_o   (mm_y[i])
    );

    always_comb begin
      unique case (op_q)
        VEC_MUL:                       rnd_in[i] = mul_y[i];
        VEC_MAX, VEC_MIN, VEC_RED_MAX: rnd_in[i] = mm_y[i];
        default:                       rnd_in[i] = add_y[i];
      endcase
    end

    moe_bf16_round u_round (
      .f_i (rnd_in[i]),
      .y_o (rnd_y[i])
    );

    // Element result and mask merge.
    logic [15:0] res;
    always_comb begin
      unique case (op_q)
        VEC_EXP:  res = exp_data_i[16*i +: 16];
        VEC_RECI: res = reci_data_i[16*i +: 16];
        VEC_COPY:  res = a_e;
        VEC_SHIFT: res = shifted[16*i +: 16];
        VEC_PS:    res = scan_d[16*i +: 16];
        default:   res = rnd_y[i];
      endcase
    end
    assign vram_wdata_o[16*i +: 16] = sel[i] ? res : a_e;

    // Tree register: level outputs of the active lanes.
    if (i < Half) begin : g_psum
      assign psum_d[i] = !(is_red && (state_q inside {StRow, StTree})) ? psum_q[i] :
                         (op_q == VEC_RED_MAX) ? mm_y[i] : add_y[i];
    end
  end

  // V_PS_V: accumulator and output row.
  always_comb begin
    acc_d  = acc_q;
    scan_d = scan_q;
    if (start_i) begin
      acc_d = NegZero;
    end else if (state_q == StScan) begin
      acc_d                          = add_y[0];
      scan_d[16*32'(elem_q) +: 16]   = rnd_y[0];
    end
  end

  assign exp_addr_o  = vram_a_rdata_i;
  assign reci_addr_o = vram_a_rdata_i;

  //////////////
  // Writes   //
  //////////////

  assign vram_we_o   = ((state_q == StRow) && !is_red) || ((state_q == StScan) && done_o);
  assign vram_wrow_o = dst_row_q;

  assign fp_we_o    = (state_q == StFinal) && (fd_q != 3'd0);
  assign fp_waddr_o = fd_q;
  assign fp_wdata_o = rnd_y[0];

endmodule : moe_vector_unit
