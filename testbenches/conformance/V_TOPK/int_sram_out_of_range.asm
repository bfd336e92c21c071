; V_TOPK rmask 0 (k = 4) with gp[rs2] = 4093: INT SRAM words 4093..4096 -> address_out_of_range.
S_ADDI_INT gp1, gp0, 128
S_ADDI_INT gp2, gp0, 100
S_ADDI_INT gp3, gp0, 4093
V_TOPK gp2, gp1, gp3, 0
