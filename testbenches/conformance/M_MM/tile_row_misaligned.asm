; M_MM with gp[rs1] = 4100 (tile 1, not a tile-row address: 4100 mod MLEN != 0) -> address_misaligned.
S_ADDI_INT gp1, gp0, 4100
S_ADDI_INT gp2, gp0, 256
M_MM 0, gp1, gp2
