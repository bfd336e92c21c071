; V_PS_V with gp[rd] = 130 (not row-aligned) traps address_misaligned: no cycle, nothing written.
S_ADDI_INT gp1, gp0, 130
V_PS_V gp1, gp0
