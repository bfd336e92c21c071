; V_TOPK rmask 1 (E = 128: two rows) at row 8191 touches row 8192 -> address_out_of_range.
S_LUI_INT gp1, 127
S_ADDI_INT gp1, gp1, 4032
S_ADDI_INT gp2, gp0, 100
S_ADDI_INT gp3, gp0, 200
V_TOPK gp2, gp1, gp3, 1
