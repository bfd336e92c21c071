; H_STORE_V reads 4 VRAM rows: from row 8188 fine (zeros -> codes 0, scale 0 since amax = 0 gives
; e = -127); from row 8189 it reaches row 8192 -> address_out_of_range.
S_LUI_INT gp1, 127
S_ADDI_INT gp1, gp1, 3840
S_ADDI_INT gp2, gp0, 4096
H_STORE_V gp1, gp2, a0, 0, 0
S_LUI_INT gp1, 127
S_ADDI_INT gp1, gp1, 3904
H_STORE_V gp1, gp2, a0, 0, 0
