; RMS norm constants: 1/HLEN and eps
S_ADDI_INT gp2, gp0, 256
S_LD_FP f2, gp2, 2
S_LD_FP f3, gp2, 3
S_ADDI_INT gp4, gp0, 3072
S_ADDI_INT gp5, gp0, 3136
; Square the row
V_MUL_VV gp5, gp4, gp4, 0
; Lane 0
S_ADDI_INT gp6, gp0, 1
C_SET_V_MASK_REG gp6
S_ADD_FP f1, f0, f0
V_RED_SUM f1, gp5, 1, 0
S_MUL_FP f1, f1, f2
S_ADD_FP f1, f1, f3
S_SQRT_FP f1, f1, 0
S_RECI_FP f1, f1, 0
V_MUL_VF gp4, gp4, f1, 1
V_MUL_VV gp5, gp4, gp4, 0
; Lane 1
S_ADDI_INT gp6, gp0, 2
C_SET_V_MASK_REG gp6
S_ADD_FP f1, f0, f0
V_RED_SUM f1, gp5, 1, 0
S_MUL_FP f1, f1, f2
S_ADD_FP f1, f1, f3
S_SQRT_FP f1, f1, 0
S_RECI_FP f1, f1, 0
V_MUL_VF gp4, gp4, f1, 1
V_MUL_VV gp5, gp4, gp4, 0
; Softmax of the normalised row
S_ADD_FP f4, f0, f0
V_RED_MAX f4, gp4, 0
V_SUB_VF gp4, gp4, f4, 0
V_EXP_V gp4, gp4, 0, 0
S_ADD_FP f5, f0, f0
V_RED_SUM f5, gp4, 0, 0
S_RECI_FP f5, f5, 0
V_MUL_VF gp4, gp4, f5, 0
S_EXP_FP f6, f4, 0
S_ADDI_INT gp2, gp0, 300
S_ST_FP f6, gp2, 0
; Shift the row by one head
S_ADDI_INT gp7, gp0, 16
V_SHIFT_V gp5, gp4, gp7
; K prefetch (K/V precision)
S_ADDI_INT gp8, gp0, 0
C_SET_ADDR_REG a0, gp0, gp8
S_ADDI_INT gp9, gp0, 8192
H_PREFETCH_M gp0, gp9, a0, 0, 1
