; M_TMM reads all MLEN rows of tile T = floor(gp[rs2]/MLEN^2): tile 15 with c = 60 (gp[rs2] =
; 15*4096 + 60*64 = 65280) is the last legal place; tile 16 (gp[rs2] = 65536, MRAM_TILES = 16) traps
; address_out_of_range. M_TMM writes no register or memory (acc is internal).
S_ADDI_INT gp1, gp0, 256
S_ADDI_INT gp2, gp0, 65280
M_TMM 0, gp1, gp2
S_ADDI_INT gp2, gp0, 65536
M_TMM 0, gp1, gp2
