// moesim RTL: instruction decoder and issue-time trap checker.

/**
 * Combinational decoder of the issue stage. It decodes the instruction word, selects the unit
 * that executes it, forms that unit's operands (VRAM/MRAM row indices, SRAM word addresses, HBM
 * byte addresses) from the register values read at issue, and performs every trap check of
 * isa.yaml before the instruction occupies a cycle.
 *
 * Trap priority (isa.yaml): instruction budget first, then illegal_instruction (undefined
 * opcode, reserved field value, or an fp/addr register field past 7), then the order of each
 * instruction's `traps:` list (topk_policy_unset, topk_policy_invalid, address_out_of_range,
 * address_misaligned; loop_count_zero before loop_depth_overflow).
 *
 * Address checks: VRAM and MRAM accesses are checked on row indices (the row of an element
 * address a is floor(a / VLEN) resp. floor(a / MLEN)); SRAM accesses as word intervals and HBM
 * accesses as byte intervals. An access is out of range when its rows / words / bytes are not
 * all inside the memory. MRAM's size (mram_tiles_i) and HBM's (hbm_bytes_i) are run-time inputs
 * (machine.yaml `runtime`); the other sizes are parameters. All sums are exact (no 32-bit wrap): gp values are zero-extended to 64
 * bits, HBM addresses to 72 bits.
 *
 * V_GATHER and V_SCATTER_ADD need their token index INT_SRAM[gp[rs2]] for the range check of
 * the row it selects, so the INT SRAM has an asynchronous read port owned by this stage
 * (int_raddr_o / int_rdata_i); S_LD_INT uses the same port.
 *
 * Footprint (footprint_o, docs/overlap.md section 3): the VRAM rows the instruction reads and
 * writes and the MRAM rows it reads, each the interval of rows its address_out_of_range check
 * covers (a strided M_MM_WO: from its first to its last row; an MRAM tile operand: the whole
 * tile), for moe_fetch_ctrl's scoreboard. Meaningful for an instruction that does not trap.
 *
 * This is the only module that reads fields of the instruction word: the register fields go to
 * moe_top's register file read ports (reg_idx_o), everything a unit needs goes into its request
 * struct (moe_pkg <unit>_req_t), valid in the issue cycle.
 */
module moe_decoder
  import moesim_isa_pkg::*;
  import moe_pkg::*;
#(
  parameter int unsigned MLEN               = 64,
  parameter int unsigned VLEN               = 64,
  parameter int unsigned BLEN               = 4,
  parameter int unsigned HLEN               = 16,
  parameter int unsigned MX_BLOCK           = 8,
  parameter int unsigned VRAM_ROWS          = 8192,
  parameter int unsigned FP_SRAM_WORDS      = 4096,
  parameter int unsigned INT_SRAM_WORDS     = 4096,
  parameter int unsigned HBM_V_ROWS         = 4,
  parameter int unsigned HBM_M_ROWS         = 64,
  parameter int unsigned LOOP_DEPTH         = 4,
  parameter int unsigned MAX_TOPK_EXPERTS   = 256,
  localparam int unsigned VramRowW          = $clog2(VRAM_ROWS),
  localparam int unsigned FpAddrW           = $clog2(FP_SRAM_WORDS),
  localparam int unsigned IntAddrW          = $clog2(INT_SRAM_WORDS),
  localparam int unsigned LoopDepthW        = $clog2(LOOP_DEPTH + 1)
) (
  // Instruction and architectural state read at issue
  input  logic [31:0]           word_i,
  input  logic [31:0]           gp_rd_i,        // gp[rd field]  (gp0 reads 0)
  input  logic [31:0]           gp_rs1_i,       // gp[rs1 field]
  input  logic [31:0]           gp_rs2_i,       // gp[rs2 field]
  input  logic [63:0]           areg_i,         // a[rs2 field] (H_* base address)
  input  logic [31:0]           scale_i,
  input  logic [31:0]           stride_i,
  input  logic [31:0]           topk_policy_i,
  input  logic                  topk_valid_i,
  input  logic [LoopDepthW-1:0] loop_depth_i,   // active loops
  input  logic [31:0]           retired_i,      // instructions retired so far
  input  logic [INSTRUCTION_BUDGET_BITS-1:0] budget_i,  // INSTRUCTION_BUDGET of this run
  input  logic [MRAM_TILES_BITS-1:0] mram_tiles_i,      // MRAM_TILES of this run
  input  logic [HBM_BYTES_BITS-1:0]  hbm_bytes_i,       // HBM_BYTES of this run

  // Asynchronous INT SRAM read port (token index, S_LD_INT)
  output logic [IntAddrW-1:0]   int_raddr_o,
  input  logic [31:0]           int_rdata_i,

  // Issue decision
  output logic                  trap_o,
  output trap_e                 trap_cause_o,
  output unit_e                 unit_o,
  output footprint_t            footprint_o,

  // Register fields (register file read ports, destinations) and the requests of the units
  output reg_idx_t              reg_idx_o,
  output ctl_req_t              ctl_req_o,
  output scalar_req_t           sc_req_o,
  output vec_req_t              vec_req_o,
  output topk_req_t             topk_req_o,
  output mm_req_t               mm_req_o,
  output dma_req_t              dma_req_o
);

  ////////////////
  // Constants  //
  ////////////////

  localparam logic [63:0] VramRows  = 64'(VRAM_ROWS);
  localparam logic [63:0] FpWords   = 64'(FP_SRAM_WORDS);
  localparam logic [63:0] IntWords  = 64'(INT_SRAM_WORDS);
  localparam logic [63:0] Vlen64    = 64'(VLEN);
  localparam logic [63:0] Mlen64    = 64'(MLEN);
  localparam logic [63:0] Blen64    = 64'(BLEN);
  localparam logic [63:0] Hlen64    = 64'(HLEN);
  localparam logic [63:0] Heads64   = 64'(MLEN) / 64'(HLEN);

  // Run-time sizes.
  logic [63:0] mram_tiles, mram_rows;
  logic [71:0] hbm_bytes;
  assign mram_tiles = 64'(mram_tiles_i);
  assign mram_rows  = mram_tiles * Mlen64;
  assign hbm_bytes  = 72'(hbm_bytes_i);

  ///////////////////
  // Word fields   //
  ///////////////////

  logic [5:0]  opcode;
  logic [3:0]  f_r3, f_funct;
  logic [17:0] imm18;
  logic [21:0] imm22;
  assign opcode  = word_i[OPCODE_HI:OPCODE_LO];
  assign f_r3    = word_i[R3_HI:R3_LO];
  assign f_funct = word_i[FUNCT_HI:FUNCT_LO];
  assign imm18   = word_i[IMM18_HI:IMM18_LO];
  assign imm22   = word_i[IMM22_HI:IMM22_LO];

  // Register fields, read by moe_top's register files. An fp (f0..f7) or addr (a0..a7) register
  // field names a register past its file when its top bit is set.
  assign reg_idx_o = '{rd:  word_i[RD_HI:RD_LO],
                       rs1: word_i[RS1_HI:RS1_LO],
                       rs2: word_i[RS2_HI:RS2_LO]};
  logic rd_past, rs1_past, rs2_past;
  assign rd_past  = reg_idx_o.rd[3];
  assign rs1_past = reg_idx_o.rs1[3];
  assign rs2_past = reg_idx_o.rs2[3];

  logic [63:0] rd_v, rs1_v, rs2_v, imm_v, ls_addr;
  assign rd_v    = 64'(gp_rd_i);
  assign rs1_v   = 64'(gp_rs1_i);
  assign rs2_v   = 64'(gp_rs2_i);
  assign imm_v   = 64'(imm18);
  assign ls_addr = rs1_v + imm_v;

  // Token index of V_GATHER / V_SCATTER_ADD, and the row address it selects.
  logic [63:0] tok_v, tok_off;
  assign tok_v   = 64'(int_rdata_i);
  assign tok_off = tok_v * Vlen64;

  ////////////////////////////
  // Address check helpers  //
  ////////////////////////////

  // [base, base + len) not inside [0, size). Operands stay below 2^48, so the sum is exact.
  function automatic logic outside(logic [63:0] base, logic [63:0] len, logic [63:0] size);
    return (base + len) > size;
  endfunction

  // n VRAM rows from the row of element address a.
  function automatic logic vrows_oob(logic [63:0] a, logic [63:0] n);
    return outside(a / Vlen64, n, VramRows);
  endfunction

  function automatic logic vrow_oob(logic [63:0] a);
    return vrows_oob(a, 64'd1);
  endfunction

  function automatic logic vrow_mis(logic [63:0] a);
    return (a % Vlen64) != 64'd0;
  endfunction

  function automatic logic [VramRowW-1:0] vrow(logic [63:0] a);
    return VramRowW'(a / Vlen64);
  endfunction

  ////////////////////////
  // H_* address forms  //
  ////////////////////////

  // Rows i < nrows start at o_i = gp[rs1] + i*S; o_i grows with i, so the last row bounds the
  // transfer. Codes: [a + o_i, +len); scales: [a + SCALE + o_i/MX_BLOCK, +len/MX_BLOCK).
  logic        h_is_m;
  logic [63:0] h_len, h_rows, h_stride, h_span, h_nscale, rs1_blk;
  logic [71:0] h_base, h_o_last, h_code_end, h_scale_end;
  assign h_is_m      = (opcode == OP_H_PREFETCH_M);
  assign h_len       = h_is_m ? Mlen64 : Vlen64;
  assign h_rows      = h_is_m ? 64'(HBM_M_ROWS) : 64'(HBM_V_ROWS);
  assign h_stride    = (f_r3 == 4'd1) ? 64'(stride_i) : h_len;
  assign h_base      = 72'(areg_i);
  assign h_span      = (h_rows - 64'd1) * h_stride;
  assign h_nscale    = h_len / 64'(MX_BLOCK);
  assign rs1_blk     = rs1_v / 64'(MX_BLOCK);
  assign h_o_last    = 72'(rs1_v) + 72'(h_span);
  assign h_code_end  = h_base + h_o_last + 72'(h_len);
  assign h_scale_end = h_base + 72'(scale_i) + h_o_last / 72'(MX_BLOCK) + 72'(h_nscale);

  logic h_hbm_oob, h_o_mis;
  assign h_hbm_oob = (h_code_end > hbm_bytes) || (h_scale_end > hbm_bytes);
  assign h_o_mis   = ((rs1_v % 64'(MX_BLOCK)) != 64'd0) ||
                     ((h_rows > 64'd1) && ((h_stride % 64'(MX_BLOCK)) != 64'd0));

  ///////////////////////
  // V_TOPK policy     //
  ///////////////////////

  // (E, k) of rmask f_r3 (moesim_isa_pkg, from isa.yaml topk_policies): a hardwired pair, else
  // the fields E and k of TOPK_POLICY. An rmask with no policy is illegal (operands_allowed).
  logic [63:0] tk_e, tk_k;
  always_comb begin
    tk_e = 64'(topk_policy_e(topk_policy_i));
    tk_k = 64'(topk_policy_k(topk_policy_i));
    for (int unsigned i = 0; i < TOPK_HW_N; i++) begin
      if (f_r3 == TOPK_HW_RMASK[i]) begin
        tk_e = 64'(TOPK_HW_E[i]);
        tk_k = 64'(TOPK_HW_K[i]);
      end
    end
  end

  // Reserved operand values (isa.yaml `allowed:` lists and V_TOPK's topk_policies).
  logic ops_ok;
  assign ops_ok = operands_allowed(word_i);

  ///////////////////////
  // M_MM_WO geometry  //
  ///////////////////////

  logic [63:0] wo_d, wo_n;
  assign wo_d = rd_v + imm_v;
  assign wo_n = (rs1_v == 64'd0) ? 64'd1 : rs1_v;

  ///////////////////////////
  // M_MV / M_TMV geometry //
  ///////////////////////////

  // Tile T = gp[rs1] / MLEN^2 and its element-granular column offset c = gp[rs1] mod MLEN^2.
  logic [63:0] mv_tile, mv_col;
  assign mv_tile = rs1_v / (Mlen64 * Mlen64);
  assign mv_col  = rs1_v % (Mlen64 * Mlen64);

  // M_TMM: tile T = gp[rs2] / MLEN^2, column offset c = (gp[rs2] mod MLEN^2) / MLEN.
  logic [63:0] tmm_tile, tmm_col;
  assign tmm_tile = rs2_v / (Mlen64 * Mlen64);
  assign tmm_col  = (rs2_v % (Mlen64 * Mlen64)) / Mlen64;

  // M_BMV / M_BTMV: a = gp[rs1] + gp[rd]; M_BMM / M_BTMM: a = gp[rs1] (rd a zero field);
  // tile T = a / MLEN^2, row offset r0 = a mod MLEN^2.
  logic [63:0] bm_a, bm_tile, bm_r0;
  assign bm_a    = rs1_v + ((opcode == OP_M_BMM || opcode == OP_M_BTMM) ? 64'd0 : rd_v);
  assign bm_tile = bm_a / (Mlen64 * Mlen64);
  assign bm_r0   = bm_a % (Mlen64 * Mlen64);

  //////////////
  // Decode   //
  //////////////

  logic ill, illegal, oor, mis, tk_unset, tk_invalid, loop_zero, loop_ovf, loop_under, budget;
  vec_op_e             vec_op;
  logic [VramRowW-1:0] vec_dst_row, vec_a_row, vec_b_row;
  logic                vec_use_scalar, vec_masked;
  dma_op_e             dma_op;

  assign budget  = (retired_i >= budget_i);
  assign illegal = ill || !ops_ok;

  always_comb begin
    unit_o           = UNIT_CORE;
    ill              = 1'b0;
    oor              = 1'b0;
    mis              = 1'b0;
    tk_unset         = 1'b0;
    tk_invalid       = 1'b0;
    loop_zero        = 1'b0;
    loop_ovf         = 1'b0;
    loop_under       = 1'b0;
    int_raddr_o      = IntAddrW'(ls_addr);
    vec_op           = VEC_ADD;
    vec_dst_row      = vrow(rd_v);
    vec_a_row        = vrow(rs1_v);
    vec_b_row        = vrow(rs2_v);
    vec_use_scalar   = 1'b0;
    vec_masked       = (f_r3 != 4'd0);
    dma_op           = DMA_PREFETCH_V;

    unique case (opcode)
      ////////////////////
      // Matrix unit    //
      ////////////////////
      OP_M_MM: begin
        unit_o = UNIT_MATRIX;
        oor    = outside(rs1_v / Mlen64, Blen64, mram_rows) || vrows_oob(rs2_v, Blen64);
        mis    = ((rs1_v % Mlen64) != 64'd0) ||
                 ((((rs1_v % (Mlen64 * Mlen64)) / Mlen64) % Blen64) != 64'd0) ||
                 vrow_mis(rs2_v);
      end
      OP_M_TMM: begin
        unit_o = UNIT_MATRIX;
        oor    = (tmm_tile >= mram_tiles) || vrows_oob(rs1_v, Blen64);
        mis    = ((rs2_v % Mlen64) != 64'd0) || ((tmm_col % Blen64) != 64'd0) || vrow_mis(rs1_v);
      end
      OP_M_MM_WO: begin
        unit_o = UNIT_MATRIX;
        oor    = outside(wo_d / Vlen64, (Blen64 - 64'd1) * wo_n + 64'd1, VramRows);
        mis    = ((wo_d % Vlen64) % Blen64) != 64'd0;
      end
      OP_M_MV, OP_M_TMV: begin
        unit_o = UNIT_MATRIX;
        oor    = (mv_tile >= mram_tiles) || vrow_oob(rs2_v);
        mis    = (mv_col >= Mlen64) || ((mv_col % Blen64) != 64'd0) || vrow_mis(rs2_v);
      end
      OP_M_MV_WO: begin
        unit_o = UNIT_MATRIX;
        oor    = vrow_oob(wo_d);
        mis    = ((wo_d % Vlen64) % Blen64) != 64'd0;
      end
      OP_M_BMV, OP_M_BTMV: begin
        unit_o = UNIT_MATRIX;
        oor    = (bm_tile >= mram_tiles) || vrow_oob(rs2_v);
        mis    = (bm_r0 >= Mlen64) || ((bm_r0 % Hlen64) != 64'd0) || vrow_mis(rs2_v);
      end
      OP_M_BMV_WO: begin
        unit_o = UNIT_MATRIX;
        oor    = vrows_oob(wo_d, Heads64);
        mis    = vrow_mis(wo_d);
      end
      OP_M_BMM, OP_M_BTMM: begin
        unit_o = UNIT_MATRIX;
        oor    = (bm_tile >= mram_tiles) || vrows_oob(rs2_v, Mlen64);
        mis    = (bm_r0 >= Mlen64) || ((bm_r0 % Hlen64) != 64'd0) || vrow_mis(rs2_v);
      end
      OP_M_BMM_WO: begin
        unit_o = UNIT_MATRIX;
        oor    = vrows_oob(wo_d, Heads64 * Mlen64);
        mis    = vrow_mis(wo_d);
      end

      ////////////////////
      // Vector unit    //
      ////////////////////
      OP_V_ADD_VV, OP_V_SUB_VV, OP_V_MUL_VV: begin
        unit_o   = UNIT_VECTOR;
        vec_op   = (opcode == OP_V_ADD_VV) ? VEC_ADD :
                   (opcode == OP_V_SUB_VV) ? VEC_SUB : VEC_MUL;
        oor      = vrow_oob(rd_v) || vrow_oob(rs1_v) || vrow_oob(rs2_v);
        mis      = vrow_mis(rd_v) || vrow_mis(rs1_v) || vrow_mis(rs2_v);
      end
      OP_V_ADD_VF, OP_V_SUB_VF, OP_V_MUL_VF, OP_V_MAX_VF, OP_V_MIN_VF: begin
        unit_o           = UNIT_VECTOR;
        vec_use_scalar   = 1'b1;
        vec_op           = (opcode == OP_V_ADD_VF) ? VEC_ADD :
                           (opcode == OP_V_SUB_VF) ? ((f_funct == 4'd1) ? VEC_RSUB : VEC_SUB) :
                           (opcode == OP_V_MUL_VF) ? VEC_MUL :
                           (opcode == OP_V_MAX_VF) ? VEC_MAX : VEC_MIN;
        ill              = rs2_past;
        oor              = vrow_oob(rd_v) || vrow_oob(rs1_v);
        mis              = vrow_mis(rd_v) || vrow_mis(rs1_v);
      end
      OP_V_EXP_V, OP_V_RECI_V: begin
        unit_o   = UNIT_VECTOR;
        vec_op   = (opcode == OP_V_EXP_V) ? VEC_EXP : VEC_RECI;
        oor      = vrow_oob(rd_v) || vrow_oob(rs1_v);
        mis      = vrow_mis(rd_v) || vrow_mis(rs1_v);
      end
      OP_V_RED_SUM, OP_V_RED_MAX: begin
        unit_o   = UNIT_VECTOR;
        vec_op   = (opcode == OP_V_RED_SUM) ? VEC_RED_SUM : VEC_RED_MAX;
        ill      = rd_past;
        oor      = vrow_oob(rs1_v);
        mis      = vrow_mis(rs1_v);
      end
      OP_V_PS_V, OP_V_SHFT_V: begin
        // No rmask operand: bits [21:18] are reserved and ignored. V_SHFT_V's shift amount is
        // gp[rs2], read by moe_top.
        unit_o       = UNIT_VECTOR;
        vec_op       = (opcode == OP_V_PS_V) ? VEC_PS : VEC_SHIFT;
        vec_masked   = 1'b0;
        oor          = vrow_oob(rd_v) || vrow_oob(rs1_v);
        mis          = vrow_mis(rd_v) || vrow_mis(rs1_v);
      end
      OP_V_GATHER: begin
        // VRAM row gp[rd] = VRAM row (gp[rs1] + t*VLEN), t = INT_SRAM[gp[rs2]]
        unit_o       = UNIT_VECTOR;
        vec_op       = VEC_COPY;
        vec_masked   = 1'b0;
        int_raddr_o  = IntAddrW'(rs2_v);
        vec_a_row    = vrow(rs1_v + tok_off);
        oor          = outside(rs2_v, 64'd1, IntWords) || vrow_oob(rs1_v + tok_off) ||
                       vrow_oob(rd_v);
        mis          = vrow_mis(rs1_v) || vrow_mis(rd_v);
      end
      OP_V_SCATTER_ADD: begin
        // VRAM row a = V[a] + V[gp[rs1]], a = gp[rd] + t*VLEN: an unmasked V_ADD_VV a, a, rs1
        unit_o        = UNIT_VECTOR;
        vec_op        = VEC_ADD;
        vec_masked    = 1'b0;
        int_raddr_o   = IntAddrW'(rs2_v);
        vec_dst_row   = vrow(rd_v + tok_off);
        vec_a_row     = vrow(rd_v + tok_off);
        vec_b_row     = vrow(rs1_v);
        oor           = outside(rs2_v, 64'd1, IntWords) || vrow_oob(rd_v + tok_off) ||
                        vrow_oob(rs1_v);
        mis           = vrow_mis(rd_v) || vrow_mis(rs1_v);
      end

      ////////////////////
      // Top-k unit     //
      ////////////////////
      OP_V_TOPK: begin
        unit_o     = UNIT_TOPK;
        tk_unset   = (f_r3 == TOPK_REG_RMASK) && !topk_valid_i;
        tk_invalid = (f_r3 == TOPK_REG_RMASK) &&
                     ((tk_k == 64'd0) || (tk_k > tk_e) || (tk_e > 64'(MAX_TOPK_EXPERTS)));
        oor        = vrows_oob(rs1_v, (tk_e + Vlen64 - 64'd1) / Vlen64) ||
                     outside(rs2_v, tk_k, IntWords) || outside(rd_v, tk_k, FpWords);
        mis        = vrow_mis(rs1_v);
      end

      ////////////////////
      // Scalar unit    //
      ////////////////////
      OP_S_LD_FP, OP_S_ST_FP: begin
        ill = rd_past;
        oor = outside(ls_addr, 64'd1, FpWords);
      end
      OP_S_LD_INT, OP_S_ST_INT: begin
        oor = outside(ls_addr, 64'd1, IntWords);
      end
      OP_S_MAP_V_FP: begin
        unit_o = UNIT_MAP;
        oor    = outside(ls_addr, Vlen64, FpWords) || vrow_oob(rd_v);
        mis    = vrow_mis(rd_v);
      end
      OP_S_ADD_INT, OP_S_ADDI_INT, OP_S_SUB_INT, OP_S_MUL_INT, OP_S_LUI_INT: begin
        unit_o = UNIT_CORE;
      end
      OP_S_ADD_FP, OP_S_SUB_FP, OP_S_MAX_FP, OP_S_MUL_FP: begin
        ill = rd_past || rs1_past || rs2_past;
      end
      OP_S_EXP_FP, OP_S_RECI_FP, OP_S_SQRT_FP: begin
        ill = rd_past || rs1_past;
      end

      ////////////////////
      // DMA unit       //
      ////////////////////
      OP_H_PREFETCH_M: begin
        unit_o   = UNIT_DMA;
        dma_op   = DMA_PREFETCH_M;
        ill      = rs2_past;
        oor      = h_hbm_oob || outside(rd_v / Mlen64, h_rows, mram_rows);
        mis      = ((rd_v % Mlen64) != 64'd0) || h_o_mis;
      end
      OP_H_PREFETCH_V, OP_H_STORE_V: begin
        unit_o   = UNIT_DMA;
        dma_op   = (opcode == OP_H_STORE_V) ? DMA_STORE_V : DMA_PREFETCH_V;
        ill      = rs2_past;
        oor      = h_hbm_oob || vrows_oob(rd_v, h_rows);
        mis      = vrow_mis(rd_v) || h_o_mis;
      end

      ////////////////////
      // Control        //
      ////////////////////
      OP_C_SET_ADDR_REG: begin
        ill = rd_past;
      end
      OP_C_SET_SCALE_REG, OP_C_SET_STRIDE_REG, OP_C_SET_V_MASK_REG, OP_C_SET_TOPK_REG: begin
        unit_o = UNIT_CORE;
      end
      OP_C_LOOP_START: begin
        loop_zero = (imm22 == 22'd0);
        loop_ovf  = (32'(loop_depth_i) >= LOOP_DEPTH);
      end
      OP_C_LOOP_END: begin
        loop_under = (loop_depth_i == '0);
      end
      OP_C_BREAK: begin
        unit_o = UNIT_CORE;
      end
      OP_C_HADAMARD_TRANSFORM: begin
        ill = 1'b1;  // declared in isa.yaml, never implemented
      end

      default: begin
        ill = 1'b1;
      end
    endcase
  end

  ///////////////////
  // Footprint     //
  ///////////////////

  // n rows from row `first` (32-bit: a non-trapping instruction's rows are inside the memory).
  function automatic rows_t rows(logic [63:0] first, logic [63:0] n);
    return '{lo: 32'(first), hi: 32'(first + n)};
  endfunction

  // n VRAM rows from the row of element address a; the MRAM rows of tile t.
  function automatic rows_t vrows(logic [63:0] a, logic [63:0] n);
    return rows(a / Vlen64, n);
  endfunction

  function automatic rows_t tile_rows(logic [63:0] t);
    return rows(t * Mlen64, Mlen64);
  endfunction

  always_comb begin
    footprint_o = '0;
    unique case (opcode)
      OP_M_MM: begin
        footprint_o.mram_rd   = rows(rs1_v / Mlen64, Blen64);
        footprint_o.vram_rd_a = vrows(rs2_v, Blen64);
      end
      OP_M_TMM: begin
        footprint_o.mram_rd   = tile_rows(tmm_tile);
        footprint_o.vram_rd_a = vrows(rs1_v, Blen64);
      end
      OP_M_MM_WO:  footprint_o.vram_wr = vrows(wo_d, (Blen64 - 64'd1) * wo_n + 64'd1);
      OP_M_MV, OP_M_TMV: begin
        footprint_o.mram_rd   = tile_rows(mv_tile);
        footprint_o.vram_rd_a = vrows(rs2_v, 64'd1);
      end
      OP_M_MV_WO:  footprint_o.vram_wr = vrows(wo_d, 64'd1);
      OP_M_BMV, OP_M_BTMV: begin
        footprint_o.mram_rd   = tile_rows(bm_tile);
        footprint_o.vram_rd_a = vrows(rs2_v, 64'd1);
      end
      OP_M_BMV_WO: footprint_o.vram_wr = vrows(wo_d, Heads64);
      OP_M_BMM, OP_M_BTMM: begin
        footprint_o.mram_rd   = tile_rows(bm_tile);
        footprint_o.vram_rd_a = vrows(rs2_v, Mlen64);
      end
      OP_M_BMM_WO: footprint_o.vram_wr = vrows(wo_d, Heads64 * Mlen64);
      OP_V_ADD_VV, OP_V_SUB_VV, OP_V_MUL_VV: begin
        footprint_o.vram_rd_a = vrows(rs1_v, 64'd1);
        footprint_o.vram_rd_b = vrows(rs2_v, 64'd1);
        footprint_o.vram_wr   = vrows(rd_v, 64'd1);
      end
      OP_V_ADD_VF, OP_V_SUB_VF, OP_V_MUL_VF, OP_V_MAX_VF, OP_V_MIN_VF, OP_V_EXP_V, OP_V_RECI_V,
      OP_V_PS_V, OP_V_SHFT_V: begin
        footprint_o.vram_rd_a = vrows(rs1_v, 64'd1);
        footprint_o.vram_wr   = vrows(rd_v, 64'd1);
      end
      OP_V_RED_SUM, OP_V_RED_MAX: footprint_o.vram_rd_a = vrows(rs1_v, 64'd1);
      OP_V_GATHER: begin
        footprint_o.vram_rd_a = vrows(rs1_v + tok_off, 64'd1);
        footprint_o.vram_wr   = vrows(rd_v, 64'd1);
      end
      OP_V_SCATTER_ADD: begin
        footprint_o.vram_rd_a = vrows(rd_v + tok_off, 64'd1);
        footprint_o.vram_rd_b = vrows(rs1_v, 64'd1);
        footprint_o.vram_wr   = vrows(rd_v + tok_off, 64'd1);
      end
      OP_V_TOPK:     footprint_o.vram_rd_a = vrows(rs1_v, (tk_e + Vlen64 - 64'd1) / Vlen64);
      OP_S_MAP_V_FP: footprint_o.vram_wr = vrows(rd_v, 64'd1);
      default: ;
    endcase
  end

  //////////////////////
  // Trap priority    //
  //////////////////////

  always_comb begin
    trap_o = 1'b1;
    if (budget)          trap_cause_o = TRAP_INSTRUCTION_BUDGET_EXCEEDED;
    else if (illegal)    trap_cause_o = TRAP_ILLEGAL_INSTRUCTION;
    else if (tk_unset)   trap_cause_o = TRAP_TOPK_POLICY_UNSET;
    else if (tk_invalid) trap_cause_o = TRAP_TOPK_POLICY_INVALID;
    else if (oor)        trap_cause_o = TRAP_ADDRESS_OUT_OF_RANGE;
    else if (mis)        trap_cause_o = TRAP_ADDRESS_MISALIGNED;
    else if (loop_zero)  trap_cause_o = TRAP_LOOP_COUNT_ZERO;
    else if (loop_ovf)   trap_cause_o = TRAP_LOOP_DEPTH_OVERFLOW;
    else if (loop_under) trap_cause_o = TRAP_LOOP_UNDERFLOW;
    else begin
      trap_o       = 1'b0;
      trap_cause_o = TRAP_NONE;
    end
  end

  /////////////////////////
  // Unit requests       //
  /////////////////////////

  // One-cycle control and scalar instructions (UNIT_CORE; S_MAP_V_FP is UNIT_MAP).
  ctl_op_e   ctl_op;
  ctrl_reg_e ctrl_sel;
  sc_op_e    sc_op;
  always_comb begin
    ctl_op   = CTL_NONE;
    ctrl_sel = CTRL_SCALE;
    sc_op    = SC_NONE;
    unique case (opcode)
      OP_C_SET_ADDR_REG:   ctl_op = CTL_SET_ADDR;
      OP_C_SET_SCALE_REG:  begin ctl_op = CTL_SET_CTRL; ctrl_sel = CTRL_SCALE;       end
      OP_C_SET_STRIDE_REG: begin ctl_op = CTL_SET_CTRL; ctrl_sel = CTRL_STRIDE;      end
      OP_C_SET_V_MASK_REG: begin ctl_op = CTL_SET_CTRL; ctrl_sel = CTRL_V_MASK;      end
      OP_C_SET_TOPK_REG:   begin ctl_op = CTL_SET_CTRL; ctrl_sel = CTRL_TOPK_POLICY; end
      OP_C_LOOP_START:     ctl_op = CTL_LOOP_START;
      OP_C_LOOP_END:       ctl_op = CTL_LOOP_END;
      OP_C_BREAK:          ctl_op = CTL_BREAK;
      OP_S_ADD_INT:        sc_op = SC_ADD_INT;
      OP_S_ADDI_INT:       sc_op = SC_ADDI_INT;
      OP_S_SUB_INT:        sc_op = SC_SUB_INT;
      OP_S_MUL_INT:        sc_op = SC_MUL_INT;
      OP_S_LUI_INT:        sc_op = SC_LUI_INT;
      OP_S_LD_INT:         sc_op = SC_LD_INT;
      OP_S_ST_INT:         sc_op = SC_ST_INT;
      OP_S_LD_FP:          sc_op = SC_LD_FP;
      OP_S_ST_FP:          sc_op = SC_ST_FP;
      OP_S_ADD_FP:         sc_op = SC_ADD_FP;
      OP_S_SUB_FP:         sc_op = SC_SUB_FP;
      OP_S_MAX_FP:         sc_op = SC_MAX_FP;
      OP_S_MUL_FP:         sc_op = SC_MUL_FP;
      OP_S_EXP_FP:         sc_op = SC_EXP_FP;
      OP_S_RECI_FP:        sc_op = SC_RECI_FP;
      OP_S_SQRT_FP:        sc_op = SC_SQRT_FP;
      default: ;
    endcase
  end

  assign ctl_req_o = '{op:         ctl_op,
                       ctrl_sel:   ctrl_sel,
                       loop_count: 32'(imm22)};

  // S_LUI_INT keeps imm[19:0] (imm << 12 mod 2^32).
  assign sc_req_o = '{op:      sc_op,
                      rd:      reg_idx_o.rd,
                      imm:     (opcode == OP_S_LUI_INT) ? {imm22[19:0], 12'h000} : 32'(imm18),
                      ls_addr: 32'(ls_addr),
                      map_row: 32'(vrow(rd_v))};

  assign vec_req_o = '{op:         vec_op,
                       dst_row:    32'(vec_dst_row),
                       a_row:      32'(vec_a_row),
                       b_row:      32'(vec_b_row),
                       use_scalar: vec_use_scalar,
                       masked:     vec_masked};

  assign topk_req_o = '{e:       16'(tk_e),
                        k:       16'(tk_k),
                        row:     32'(vrow(rs1_v)),
                        id_addr: 32'(IntAddrW'(rs2_v)),
                        w_addr:  32'(FpAddrW'(rd_v))};

  logic bm_op, btm_op;  // M_BMV / M_BMM (tile rows r0 ..), M_BTMV / M_BTMM (tile transposed)
  assign bm_op  = (opcode == OP_M_BMV) || (opcode == OP_M_BMM);
  assign btm_op = (opcode == OP_M_BTMV) || (opcode == OP_M_BTMM);
  assign mm_req_o.op        = (opcode == OP_M_MM_WO) ? MM_MM_WO :
                              (opcode == OP_M_MV)    ? MM_MV :
                              (opcode == OP_M_TMV)   ? MM_TMV :
                              (opcode == OP_M_MV_WO) ? MM_MV_WO :
                              (opcode == OP_M_TMM)   ? MM_TMM :
                              (opcode == OP_M_BMV)   ? MM_BMV :
                              (opcode == OP_M_BTMV)  ? MM_BTMV :
                              (opcode == OP_M_BMV_WO) ? MM_BMV_WO :
                              (opcode == OP_M_BMM)   ? MM_BMM :
                              (opcode == OP_M_BTMM)  ? MM_BTMM :
                              (opcode == OP_M_BMM_WO) ? MM_BMM_WO : MM_MM;
  assign mm_req_o.mat_row   = (opcode == OP_M_MV)  ? 32'(mv_tile * Mlen64 + mv_col) :
                              (opcode == OP_M_TMV) ? 32'(mv_tile * Mlen64) :
                              (opcode == OP_M_TMM) ? 32'(tmm_tile * Mlen64) :
                              bm_op                ? 32'(bm_tile * Mlen64 + bm_r0) :
                              btm_op               ? 32'(bm_tile * Mlen64) : 32'(rs1_v / Mlen64);
  assign mm_req_o.mat_col   = (opcode == OP_M_TMM)  ? 32'(tmm_col) :
                              btm_op                ? 32'(bm_r0) : 32'(mv_col);
  assign mm_req_o.act_row   = (opcode == OP_M_TMM) ? 32'(rs1_v / Vlen64) : 32'(rs2_v / Vlen64);
  assign mm_req_o.wo_row    = 32'(wo_d / Vlen64);
  assign mm_req_o.wo_col    = 32'(wo_d % Vlen64);
  assign mm_req_o.wo_stride = 32'(wo_n);

  assign dma_req_o = '{op:           dma_op,
                       row:          32'(rd_v / h_len),
                       code_addr:    areg_i + rs1_v,
                       scale_addr:   areg_i + 64'(scale_i) + rs1_blk,
                       stride:       32'(h_stride),
                       scale_stride: 32'(h_stride / 64'(MX_BLOCK))};

endmodule : moe_decoder
