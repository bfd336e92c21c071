; V_PS_V: rs1 = row 8192 (VRAM_ROWS = 8192) traps address_out_of_range.
S_LUI_INT gp1, 128
V_PS_V gp0, gp1
