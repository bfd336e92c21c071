; M_BMM_WO with d = gp[rd] + imm = 640 + 4, not a multiple of VLEN -> address_misaligned.
S_ADDI_INT gp4, gp0, 640
M_BMM_WO gp4, 4
