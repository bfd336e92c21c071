; M_TMM with gp[rs2] = 16*4096 + 2*64 (tile 16 out of range AND c = 2 misaligned): the traps list
; order gives address_out_of_range.
S_ADDI_INT gp2, gp0, 65664
M_TMM 0, gp0, gp2
