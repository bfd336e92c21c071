; M_BTMM reads MLEN = 64 VRAM rows from gp[rs2] = 8129 * 64: the last one, row 8192, is past
; VRAM_ROWS -> address_out_of_range.
S_LUI_INT gp2, 127
S_ADDI_INT gp2, gp2, 64
M_BTMM 0, gp0, gp2
