; M_MM_WO with d = gp[rd] + imm = 640 + 2: col 2 is not a multiple of BLEN -> address_misaligned.
S_ADDI_INT gp1, gp0, 640
S_ADDI_INT gp2, gp0, 1
M_MM_WO gp1, gp2, 2
