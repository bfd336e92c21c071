; M_BTMM with a = 16*4096 + 48: tile 16 is past MRAM_TILES = 16 -> address_out_of_range.
S_ADDI_INT gp1, gp0, 65584
M_BTMM 0, gp1, gp0
