; V_TOPK rmask 0 (k = 4) with gp[rd] = 4093: FP SRAM words 4093..4096 -> address_out_of_range.
S_ADDI_INT gp1, gp0, 128
S_ADDI_INT gp2, gp0, 4093
S_ADDI_INT gp3, gp0, 200
V_TOPK gp2, gp1, gp3, 0
