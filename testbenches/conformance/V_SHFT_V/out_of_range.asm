; V_SHFT_V: rd = row 8192 (VRAM_ROWS = 8192) traps address_out_of_range.
S_LUI_INT gp1, 128
V_SHFT_V gp1, gp0, gp0
