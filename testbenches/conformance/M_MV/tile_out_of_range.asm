; M_MV: tile 15 with c = 60 (gp[rs1] = 15*4096 + 60 = 61500) is the last legal place; tile 16
; (gp[rs1] = 65536, MRAM_TILES = 16) traps address_out_of_range. M_MV writes no register or memory.
S_ADDI_INT gp1, gp0, 61500
S_ADDI_INT gp2, gp0, 256
M_MV 0, gp1, gp2
S_ADDI_INT gp1, gp0, 65536
M_MV 0, gp1, gp2
