; H_PREFETCH_V with o = gp[rs1] = 4: not a multiple of MX_BLOCK = 8 -> address_misaligned.
S_ADDI_INT gp1, gp0, 64
S_ADDI_INT gp2, gp0, 4
H_PREFETCH_V gp1, gp2, a0, 0, 0
