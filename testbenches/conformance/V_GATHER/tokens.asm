; V_GATHER: t = INT_SRAM[gp[rs2]]; VRAM row gp[rd] = VRAM row (gp[rs1] + t*VLEN).
; Base row 5 holds tokens 0..3 (token t element e = (-1)^t * e*(t+1)); gathers t = 3, 0, 2 (row copied bit-exact,
; including a NaN payload 0xFFC1 in token 2). Latency 2.
S_ADDI_INT gp1, gp0, 320
S_ADDI_INT gp2, gp0, 10
S_ADDI_INT gp3, gp0, 1280
V_GATHER gp3, gp1, gp2
S_ADDI_INT gp2, gp0, 11
S_ADDI_INT gp3, gp0, 1344
V_GATHER gp3, gp1, gp2
S_ADDI_INT gp2, gp0, 12
S_ADDI_INT gp3, gp0, 1408
V_GATHER gp3, gp1, gp2
