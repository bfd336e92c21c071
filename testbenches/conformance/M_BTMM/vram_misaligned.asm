; M_BTMM with gp[rs2] = 193 (activation row address not row-aligned) -> address_misaligned.
S_ADDI_INT gp2, gp0, 193
M_BTMM 0, gp0, gp2
