; M_TMM with gp[rs2] = 4360 (tile 1, not a tile-row address: 4360 mod MLEN = 8) -> address_misaligned.
S_ADDI_INT gp1, gp0, 256
S_ADDI_INT gp2, gp0, 4360
M_TMM 0, gp1, gp2
