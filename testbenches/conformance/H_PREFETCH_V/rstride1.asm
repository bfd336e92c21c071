; H_PREFETCH_V rstride 1: S = STRIDE = 200 bytes, o_i = 16 + 200*i (multiples of MX_BLOCK), codes at
; a2 + o_i, scales at a2 + SCALE + o_i/8 (2, 27, 52, 77 past a2 + SCALE). Latency 32.
S_ADDI_INT gp13, gp0, 0
S_ADDI_INT gp14, gp0, 65536
C_SET_ADDR_REG a2, gp13, gp14
S_ADDI_INT gp12, gp0, 4096
C_SET_SCALE_REG gp12
S_ADDI_INT gp12, gp0, 200
C_SET_STRIDE_REG gp12
S_ADDI_INT gp1, gp0, 640
S_ADDI_INT gp2, gp0, 16
H_PREFETCH_V gp1, gp2, a2, 1, 0
