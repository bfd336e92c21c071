; H_PREFETCH_V: the scale bytes are checked too: SCALE = HBM_BYTES - 16, a0 = 0: row 2 scales at
; HBM_BYTES + 0 .. +8 -> address_out_of_range (codes are in range).
S_LUI_INT gp12, 16383
S_ADDI_INT gp12, gp12, 4080
C_SET_SCALE_REG gp12
S_ADDI_INT gp1, gp0, 64
H_PREFETCH_V gp1, gp0, a0, 0, 0
