; M_BMM with a = gp[rs1] = 4096 + 64: r0 = 64 is not below MLEN -> address_misaligned.
S_ADDI_INT gp1, gp0, 4160
M_BMM 0, gp1, gp0
