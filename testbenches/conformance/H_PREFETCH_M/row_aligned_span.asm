; H_PREFETCH_M needs gp[rd] to be a multiple of MLEN (a tile-row address), not of MLEN^2:
; gp[rd] = 130*64 loads rows 130..193, across tiles 2 and 3. Row i codes from a1 + i*64, scales from
; a1 + SCALE + i*8 (SCALE = 4096). Latency 152.
S_ADDI_INT gp13, gp0, 0
S_LUI_INT gp14, 768
C_SET_ADDR_REG a1, gp13, gp14
S_ADDI_INT gp12, gp0, 4096
C_SET_SCALE_REG gp12
S_ADDI_INT gp1, gp0, 8320
H_PREFETCH_M gp1, gp0, a1, 0, 0
