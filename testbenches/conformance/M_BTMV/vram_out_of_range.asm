; M_BTMV reads the one VRAM row at gp[rs2]: row 8191 (gp[rs2] = 524224) is fine, row 8192 traps.
S_LUI_INT gp2, 127
S_ADDI_INT gp2, gp2, 4032
M_BTMV gp0, gp0, gp2
S_ADDI_INT gp2, gp2, 64
M_BTMV gp0, gp0, gp2
