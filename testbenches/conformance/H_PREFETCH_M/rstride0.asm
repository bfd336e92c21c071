; H_PREFETCH_M rstride 0, prec 0: HBM_M_ROWS = 64 rows into MRAM from tile-row address gp[rd] = 8192
; (tile 2, global rows 128..191); row i: o = i*MLEN, 64 codes from a3 + o, 8 scales from a3 + SCALE + o/8,
; stored as they are. Latency 24 + 64*(1 + 1) = 152.
S_ADDI_INT gp13, gp0, 0
S_ADDI_INT gp14, gp0, 4096
C_SET_ADDR_REG a3, gp13, gp14
S_ADDI_INT gp12, gp0, 32768
C_SET_SCALE_REG gp12
S_ADDI_INT gp1, gp0, 8192
H_PREFETCH_M gp1, gp0, a3, 0, 0
