; H_PREFETCH_M rstride 1 with STRIDE = 68: row 0 (o = 0) is aligned but row 1 (o = 68) is not a
; multiple of MX_BLOCK -> address_misaligned for the whole instruction (nothing written).
S_ADDI_INT gp12, gp0, 68
C_SET_STRIDE_REG gp12
S_ADDI_INT gp1, gp0, 0
H_PREFETCH_M gp1, gp0, a0, 1, 0
