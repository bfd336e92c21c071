; M_MM reads BLEN = 4 VRAM rows from gp[rs2]: row 8188 is fine (rows 8188..8191); row 8189
; touches row 8192 -> address_out_of_range.
S_ADDI_INT gp1, gp0, 0
S_LUI_INT gp2, 127
S_ADDI_INT gp2, gp2, 3840
M_MM 0, gp1, gp2
S_LUI_INT gp2, 127
S_ADDI_INT gp2, gp2, 3904
M_MM 0, gp1, gp2
