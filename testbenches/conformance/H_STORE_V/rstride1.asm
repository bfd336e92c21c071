; H_STORE_V rstride 1: STRIDE = 128, o_i = 64 + 128*i: codes at a6 + o_i, scales at a6 + SCALE +
; o_i/8 = +8 + 16*i; the gaps between rows are not written. Latency 33.
S_ADDI_INT gp13, gp0, 0
S_ADDI_INT gp14, gp0, 16384
C_SET_ADDR_REG a6, gp13, gp14
S_ADDI_INT gp12, gp0, 4096
C_SET_SCALE_REG gp12
S_ADDI_INT gp12, gp0, 128
C_SET_STRIDE_REG gp12
S_ADDI_INT gp1, gp0, 1280
S_ADDI_INT gp2, gp0, 64
H_STORE_V gp1, gp2, a6, 1, 0
