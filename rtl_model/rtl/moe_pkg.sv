// moesim RTL: internal types of the accelerator (unit selection and unit operations).

/**
 * Types shared by moe_top, moe_decoder and the execution units. ISA-level constants (opcodes,
 * field positions, trap and stage codes) come from the generated moesim_isa_pkg, never from here.
 */
package moe_pkg;

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

endpackage : moe_pkg
