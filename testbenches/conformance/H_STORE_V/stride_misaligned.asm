; H_STORE_V rstride 1 with STRIDE = 12: o_1 = 12 is not a multiple of MX_BLOCK -> address_misaligned;
; nothing is written (row 0 included).
S_ADDI_INT gp12, gp0, 12
C_SET_STRIDE_REG gp12
S_ADDI_INT gp1, gp0, 64
H_STORE_V gp1, gp0, a0, 1, 0
