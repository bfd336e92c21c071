; V_SHFT_V with gp[rs1] = 1 (not row-aligned) traps address_misaligned.
S_ADDI_INT gp1, gp0, 1
V_SHFT_V gp0, gp1, gp1
