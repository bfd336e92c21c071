; M_MM with gp[rs1] = 16*4096 + 2*64 (tile 16: out of range AND c = 2 misaligned): traps list order
; gives address_out_of_range.
S_ADDI_INT gp1, gp0, 65664
S_ADDI_INT gp2, gp0, 256
M_MM 0, gp1, gp2
