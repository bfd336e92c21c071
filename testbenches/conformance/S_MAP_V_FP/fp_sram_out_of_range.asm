; S_MAP_V_FP reads FP_SRAM[gp[rs1] + imm + e], e < VLEN = 64: start 4032 ends at the
; last word 4095 (fine); start 4033 reaches word 4096 -> address_out_of_range (FP SRAM word range).
S_ADDI_INT gp1, gp0, 64
S_ADDI_INT gp2, gp0, 4000
S_MAP_V_FP gp1, gp2, 32
S_MAP_V_FP gp1, gp2, 33
