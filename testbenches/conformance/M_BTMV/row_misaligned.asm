; M_BTMV with a = gp[rs1] + gp[rd] = 4096 + 8: row offset r0 = 8, not a multiple of HLEN = 16
; -> address_misaligned.
S_ADDI_INT gp1, gp0, 4096
S_ADDI_INT gp3, gp0, 8
M_BTMV gp3, gp1, gp0
