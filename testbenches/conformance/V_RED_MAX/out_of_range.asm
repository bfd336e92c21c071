; V_RED_MAX on row 8192 (VRAM_ROWS = 8192) traps address_out_of_range.
S_LUI_INT gp1, 128
V_RED_MAX f1, gp1, 3
