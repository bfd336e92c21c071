// moesim RTL: internal types of the accelerator (unit selection and unit operations).

/**
 * Types shared by moe_top, moe_decoder and the execution units. ISA-level constants (opcodes,
 * field positions, trap and stage codes) come from the generated moesim_isa_pkg, never from here.
 *
 * The request structs (<unit>_req_t) are what moe_decoder, the only module that reads instruction
 * word fields, gives each unit for the instruction at issue. Memory row and word indices are
 * 32 bits wide (the memories' index widths are parameters of moe_top, so not known here); the
 * decoder's checks keep them inside the memory, and the consumer keeps the index bits.
 */
package moe_pkg;

  import moesim_isa_pkg::ctrl_reg_e;

  // Unit that executes an issued instruction. UNIT_CORE instructions take one cycle and are
  // completed by moe_top and moe_scalar_unit in their issue cycle.
  typedef enum logic [2:0] {
    UNIT_CORE   = 3'd0,
    UNIT_MAP    = 3'd1,
    UNIT_VECTOR = 3'd2,
    UNIT_TOPK   = 3'd3,
    UNIT_MATRIX = 3'd4,
    UNIT_DMA    = 3'd5
  } unit_e;

  // Vector unit operations.
  typedef enum logic [3:0] {
    VEC_ADD     = 4'd0,
    VEC_SUB     = 4'd1,
    VEC_MUL     = 4'd2,
    VEC_MAX     = 4'd3,
    VEC_MIN     = 4'd4,
    VEC_EXP     = 4'd5,
    VEC_RECI    = 4'd6,
    VEC_RED_SUM = 4'd7,
    VEC_COPY    = 4'd8,
    VEC_RSUB    = 4'd9,   // V_SUB_VF rorder 1: f - V
    VEC_RED_MAX = 4'd10,
    VEC_PS      = 4'd11,  // V_PS_V prefix sum
    VEC_SHIFT   = 4'd12   // V_SHFT_V
  } vec_op_e;

  // Matrix unit operations.
  typedef enum logic [3:0] {
    MM_MM     = 4'd0,
    MM_MM_WO  = 4'd1,
    MM_MV     = 4'd2,
    MM_TMV    = 4'd3,
    MM_MV_WO  = 4'd4,
    MM_TMM    = 4'd5,
    MM_BMV    = 4'd6,
    MM_BTMV   = 4'd7,
    MM_BMV_WO = 4'd8,
    MM_BMM    = 4'd9,
    MM_BTMM   = 4'd10,
    MM_BMM_WO = 4'd11
  } mm_op_e;

  // DMA unit operations.
  typedef enum logic [1:0] {
    DMA_PREFETCH_M = 2'd0,
    DMA_PREFETCH_V = 2'd1,
    DMA_STORE_V    = 2'd2
  } dma_op_e;

  // Register fields of the instruction word: read ports of the register files (gp, and fp / addr
  // with the low 3 bits; a field past 7 of those traps at issue) and the destination rd.
  typedef struct packed {
    logic [3:0] rd;
    logic [3:0] rs1;
    logic [3:0] rs2;
  } reg_idx_t;

  // One-cycle control instructions, executed by moe_top (moe_core_ctrl) in their issue cycle.
  typedef enum logic [2:0] {
    CTL_NONE       = 3'd0,  // not a control instruction
    CTL_SET_ADDR   = 3'd1,  // C_SET_ADDR_REG: a[rd] = {gp[rs1], gp[rs2]}
    CTL_SET_CTRL   = 3'd2,  // C_SET_<reg>_REG: control register ctrl_sel = gp[rd]
    CTL_LOOP_START = 3'd3,
    CTL_LOOP_END   = 3'd4,
    CTL_BREAK      = 3'd5
  } ctl_op_e;

  typedef struct packed {
    ctl_op_e     op;
    ctrl_reg_e   ctrl_sel;    // CTL_SET_CTRL
    logic [31:0] loop_count;  // CTL_LOOP_START: the imm22 count
  } ctl_req_t;

  // Scalar unit one-cycle operations.
  typedef enum logic [4:0] {
    SC_NONE     = 5'd0,  // not a scalar unit instruction
    SC_ADD_INT  = 5'd1,
    SC_ADDI_INT = 5'd2,
    SC_SUB_INT  = 5'd3,
    SC_MUL_INT  = 5'd4,
    SC_LUI_INT  = 5'd5,
    SC_LD_INT   = 5'd6,
    SC_ST_INT   = 5'd7,
    SC_LD_FP    = 5'd8,
    SC_ST_FP    = 5'd9,
    SC_ADD_FP   = 5'd10,
    SC_SUB_FP   = 5'd11,
    SC_MAX_FP   = 5'd12,
    SC_MUL_FP   = 5'd13,
    SC_EXP_FP   = 5'd14,
    SC_RECI_FP  = 5'd15,
    SC_SQRT_FP  = 5'd16
  } sc_op_e;

  typedef struct packed {
    sc_op_e      op;
    logic [3:0]  rd;        // destination register field (gp; fp: its low 3 bits)
    logic [31:0] imm;       // S_ADDI_INT: imm18; S_LUI_INT: imm22[19:0] << 12
    logic [31:0] ls_addr;   // gp[rs1] + imm18: S_LD/ST_FP, S_LD/ST_INT word, S_MAP_V_FP base
    logic [31:0] map_row;   // S_MAP_V_FP: VRAM row
  } scalar_req_t;

  typedef struct packed {
    vec_op_e     op;
    logic [31:0] dst_row;
    logic [31:0] a_row;
    logic [31:0] b_row;
    logic        use_scalar;  // the B operand is f[rs2] (V_*_VF)
    logic        masked;      // V_MASK applies
  } vec_req_t;

  typedef struct packed {
    logic [15:0] e;           // experts scanned
    logic [15:0] k;           // experts selected
    logic [31:0] row;         // first VRAM row of the logits
    logic [31:0] id_addr;     // INT SRAM word of the first id
    logic [31:0] w_addr;      // FP SRAM word of the first weight
  } topk_req_t;

  typedef struct packed {
    mm_op_e      op;
    logic [31:0] mat_row;     // MRAM global tile row of column c (M_T*: row 0)
    logic [31:0] mat_col;     // M_TMV / M_TMM: first tile column c; M_BTMV / M_BTMM: r0
    logic [31:0] act_row;     // first VRAM row of the activation block
    logic [31:0] wo_row;      // M_*_WO first VRAM row
    logic [31:0] wo_col;      // M_MM_WO / M_MV_WO element column in the row
    logic [31:0] wo_stride;   // M_MM_WO row step n (0 already mapped to 1)
  } mm_req_t;

  typedef struct packed {
    dma_op_e     op;
    logic [31:0] row;          // first VRAM row or MRAM tile row
    logic [63:0] code_addr;    // HBM byte address of row 0's codes
    logic [63:0] scale_addr;   // HBM byte address of row 0's scales
    logic [31:0] stride;       // code address step per row (bytes)
    logic [31:0] scale_stride; // scale address step per row (bytes)
  } dma_req_t;

  // Rows [lo, hi) of one memory operand (VRAM rows, or MRAM global tile rows); lo == hi: none.
  typedef struct packed {
    logic [31:0] lo;
    logic [31:0] hi;
  } rows_t;

  // The footprint of the instruction at issue (docs/overlap.md, section 3): per memory operand,
  // the rows its address_out_of_range check covers, with the operand's direction (a read_write
  // operand is in a read and in the write field). Empty for DMA, scalar and control
  // instructions (SRAMs and registers are never part of a transfer's region).
  typedef struct packed {
    rows_t vram_rd_a;  // VRAM rows read (first operand)
    rows_t vram_rd_b;  // VRAM rows read (second operand)
    rows_t vram_wr;    // VRAM rows written
    rows_t mram_rd;    // MRAM rows read
  } footprint_t;

  // The region of a pending transfer: the rows it writes (H_PREFETCH_M: MRAM, H_PREFETCH_V:
  // VRAM) or reads (H_STORE_V: VRAM).
  typedef struct packed {
    logic  mram;   // MRAM rows, else VRAM rows
    logic  write;  // the transfer writes the rows, else reads them
    rows_t rows;
  } region_t;

endpackage : moe_pkg
