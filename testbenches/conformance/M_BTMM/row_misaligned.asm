; M_BTMM with a = gp[rs1] = 4096 + 40: row offset r0 = 40, not a multiple of HLEN = 16
; -> address_misaligned.
S_ADDI_INT gp1, gp0, 4136
M_BTMM 0, gp1, gp0
