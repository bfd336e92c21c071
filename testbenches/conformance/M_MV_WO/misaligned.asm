; M_MV_WO with d = gp[rd] + imm = 640 + 2: element 2 is not a multiple of BLEN -> address_misaligned.
S_ADDI_INT gp5, gp0, 640
M_MV_WO gp5, 2
