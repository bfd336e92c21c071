; V_RED_MAX with gp[rs1] = 65 (not row-aligned) traps address_misaligned; f1 is not written.
S_ADDI_INT gp1, gp0, 65
V_RED_MAX f1, gp1
