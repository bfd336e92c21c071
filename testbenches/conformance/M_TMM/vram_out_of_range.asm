; M_TMM reads BLEN = 4 VRAM rows from gp[rs1]: row 8188 is fine (rows 8188..8191); row 8189
; touches row 8192 -> address_out_of_range.
S_LUI_INT gp1, 127
S_ADDI_INT gp1, gp1, 3840
M_TMM 0, gp1, gp0
S_ADDI_INT gp1, gp1, 64
M_TMM 0, gp1, gp0
