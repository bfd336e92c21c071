; M_TMV with column offset c = gp[rs1] mod MLEN^2 = 2: not a multiple of BLEN = 4 -> address_misaligned.
S_ADDI_INT gp1, gp0, 4098
S_ADDI_INT gp2, gp0, 256
M_TMV 0, gp1, gp2
