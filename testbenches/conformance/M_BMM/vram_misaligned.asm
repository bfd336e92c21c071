; M_BMM with gp[rs2] = 257 (activation row address not row-aligned) -> address_misaligned.
S_ADDI_INT gp2, gp0, 257
M_BMM 0, gp0, gp2
