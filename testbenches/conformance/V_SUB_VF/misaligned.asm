; V_SUB_VF with gp[rs1] = 96 (not a multiple of VLEN = 64) traps address_misaligned: no cycle, nothing written.
S_ADDI_INT gp1, gp0, 96
S_ADDI_INT gp2, gp0, 128
V_SUB_VF gp2, gp1, f0, 0, 1
