; V_SUB_VF: rd = row 8192 (element address 524288, VRAM_ROWS = 8192) traps address_out_of_range.
S_LUI_INT gp1, 128
V_SUB_VF gp1, gp0, f0
