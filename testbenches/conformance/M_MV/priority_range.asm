; M_MV with gp[rs1] = 16*4096 + 2 (tile 16 out of range AND c = 2 misaligned): the traps list order
; gives address_out_of_range.
S_ADDI_INT gp1, gp0, 65538
M_MV 0, gp1, gp0
