; H_PREFETCH_V writes 4 VRAM rows from gp[rd]: row 8188 fine, row 8189 reaches 8192 -> address_out_of_range.
S_LUI_INT gp1, 127
S_ADDI_INT gp1, gp1, 3840
H_PREFETCH_V gp1, gp0, a0, 0, 0
S_LUI_INT gp1, 127
S_ADDI_INT gp1, gp1, 3904
H_PREFETCH_V gp1, gp0, a0, 0, 0
