; M_MM: tile 15, c = 60 (gp[rs1] = 65280) is the last valid place; tile 16 (gp[rs1] = 65536,
; MRAM_TILES = 16) traps address_out_of_range. M_MM writes no register or memory.
S_ADDI_INT gp1, gp0, 65280
S_ADDI_INT gp2, gp0, 256
M_MM 0, gp1, gp2
S_ADDI_INT gp1, gp0, 65536
M_MM 0, gp1, gp2
