; M_BTMV with a = gp[rs1] + gp[rd] = 4096 + 64: r0 = 64 is not below MLEN -> address_misaligned
; (gp[rd] is added: gp[rs1] alone is legal).
S_ADDI_INT gp1, gp0, 4096
S_ADDI_INT gp3, gp0, 64
M_BTMV gp3, gp1, gp0
