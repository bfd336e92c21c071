; M_TMM with gp[rs1] = 257 (activation row address not row-aligned) -> address_misaligned.
S_ADDI_INT gp1, gp0, 257
M_TMM 0, gp1, gp0
