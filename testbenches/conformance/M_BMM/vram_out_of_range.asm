; M_BMM reads MLEN = 64 VRAM rows from gp[rs2]: rows 8128..8191 (gp[rs2] = 127 << 12 = 520192)
; are fine, rows 8129..8192 trap address_out_of_range.
S_LUI_INT gp2, 127
M_BMM 0, gp0, gp2
S_ADDI_INT gp2, gp2, 64
M_BMM 0, gp0, gp2
