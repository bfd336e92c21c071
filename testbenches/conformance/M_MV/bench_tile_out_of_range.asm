; machine bench (MRAM_TILES = 32, a run-time size): tile 31 with c = 60 (gp[rs1] = 31*4096 + 60 =
; 127036) is the last legal place; tile 32 (gp[rs1] = 131072) traps address_out_of_range. On
; `default` (16 tiles) the first M_MV would trap. M_MV writes no register or memory.
S_ADDI_INT gp1, gp0, 127036
S_ADDI_INT gp2, gp0, 256
M_MV 0, gp1, gp2
S_ADDI_INT gp1, gp0, 131072
M_MV 0, gp1, gp2
