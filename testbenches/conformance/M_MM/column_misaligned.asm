; M_MM with column offset c = 2 (gp[rs1] = 128): not a multiple of BLEN = 4 -> address_misaligned.
S_ADDI_INT gp1, gp0, 128
S_ADDI_INT gp2, gp0, 256
M_MM 0, gp1, gp2
