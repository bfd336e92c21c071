; V_RED_SUM with gp[rs1] = 65 (not row-aligned) traps address_misaligned.
S_ADDI_INT gp1, gp0, 65
V_RED_SUM f1, gp1
