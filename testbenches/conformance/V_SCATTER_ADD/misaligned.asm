; V_SCATTER_ADD with gp[rs1] = 136 (source not row-aligned) -> address_misaligned.
S_ADDI_INT gp1, gp0, 64
S_ADDI_INT gp2, gp0, 136
V_SCATTER_ADD gp1, gp2, gp0
