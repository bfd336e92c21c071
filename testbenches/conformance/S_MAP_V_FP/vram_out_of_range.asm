; S_MAP_V_FP to VRAM row 8192 (element address 524288) traps address_out_of_range; row 8191 is fine.
S_LUI_INT gp1, 127
S_ADDI_INT gp1, gp1, 4032
S_LUI_INT gp2, 128
S_MAP_V_FP gp1, gp0, 0
S_MAP_V_FP gp2, gp0, 0
