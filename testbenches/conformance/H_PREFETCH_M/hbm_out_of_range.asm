; H_PREFETCH_M with a0 = HBM_BYTES - 4096 + 64: the 64th row (o = 63*64) ends 64 bytes past
; HBM_BYTES -> address_out_of_range (byte ranges, no wrap-around).
S_ADDI_INT gp13, gp0, 0
S_LUI_INT gp14, 16383
S_ADDI_INT gp14, gp14, 64
C_SET_ADDR_REG a0, gp13, gp14
S_ADDI_INT gp1, gp0, 0
H_PREFETCH_M gp1, gp0, a0, 0, 0
