; M_TMM with gp[rs2] = 4096 + 2*64: column offset c = 2, not a multiple of BLEN = 4 -> address_misaligned.
S_ADDI_INT gp1, gp0, 256
S_ADDI_INT gp2, gp0, 4224
M_TMM 0, gp1, gp2
