; M_BMM: tile 15 with r0 = 48 (a = 15*4096 + 48 = 61488) is the last legal place; tile 16
; (a = 65536, MRAM_TILES = 16) traps address_out_of_range. hm is internal: nothing is written.
S_ADDI_INT gp1, gp0, 61488
M_BMM 0, gp1, gp0
S_ADDI_INT gp1, gp0, 65536
M_BMM 0, gp1, gp0
