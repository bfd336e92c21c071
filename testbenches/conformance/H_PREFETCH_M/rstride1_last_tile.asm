; H_PREFETCH_M rstride 1: STRIDE = 1024, o_i = 8 + 1024*i, scales at a4 + SCALE + o_i/8 = +1 + 128*i;
; into the last tile (gp[rd] = 15*4096: rows 960..1023 of MRAM_TILES*MLEN = 1024). Latency 152.
S_ADDI_INT gp13, gp0, 0
S_ADDI_INT gp14, gp0, 131072
C_SET_ADDR_REG a4, gp13, gp14
S_LUI_INT gp12, 256
C_SET_SCALE_REG gp12
S_ADDI_INT gp12, gp0, 1024
C_SET_STRIDE_REG gp12
S_ADDI_INT gp1, gp0, 61440
S_ADDI_INT gp2, gp0, 8
H_PREFETCH_M gp1, gp2, a4, 1, 0
