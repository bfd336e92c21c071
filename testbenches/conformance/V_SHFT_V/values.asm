; V_SHFT_V rd, rs1, rs2: element e of row gp[rd] = V[gp[rs1]][e - gp[rs2]] for e >= gp[rs2], else +0.0
; (shift toward higher indices, zero fill from element 0; PLENA's emulator direction); a shift >= VLEN
; gives a zero row (isa.yaml V_SHFT_V). Row 1 holds 1.0 .. 64.0. Latency 2.
S_ADDI_INT gp1, gp0, 64
S_ADDI_INT gp3, gp0, 640
V_SHFT_V gp3, gp1, gp0   ; shift 0: row 10 = row 1
S_ADDI_INT gp2, gp0, 3
S_ADDI_INT gp3, gp0, 704
V_SHFT_V gp3, gp1, gp2   ; shift 3: row 11
S_ADDI_INT gp2, gp0, 63
S_ADDI_INT gp3, gp0, 768
V_SHFT_V gp3, gp1, gp2   ; shift 63: row 12
S_ADDI_INT gp2, gp0, 64
S_ADDI_INT gp3, gp0, 832
V_SHFT_V gp3, gp1, gp2   ; shift 64 = VLEN: zeros
S_LUI_INT gp2, 1048575
S_ADDI_INT gp2, gp2, 4095
S_ADDI_INT gp3, gp0, 896
V_SHFT_V gp3, gp1, gp2   ; shift 2^32-1: zeros
S_ADDI_INT gp2, gp0, 1
V_SHFT_V gp1, gp1, gp2   ; in place by 1
