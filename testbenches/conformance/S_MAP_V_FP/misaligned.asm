; S_MAP_V_FP with gp[rd] = 96 (not a multiple of VLEN) traps address_misaligned, writes nothing.
S_ADDI_INT gp1, gp0, 96
S_MAP_V_FP gp1, gp0, 0
