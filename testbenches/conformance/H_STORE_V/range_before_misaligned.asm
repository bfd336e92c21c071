; Trap priority: H_STORE_V with gp[rd] = 8190*64 + 1 (rows to 8193: out of range, and misaligned):
; traps list order gives address_out_of_range.
S_LUI_INT gp1, 127
S_ADDI_INT gp1, gp1, 3969
H_STORE_V gp1, gp0, a0, 0, 0
