; M_BMM with a = 16*4096 + 8 (tile 16 out of range AND r0 = 8 misaligned): the traps list order
; gives address_out_of_range.
S_ADDI_INT gp1, gp0, 65544
M_BMM 0, gp1, gp0
