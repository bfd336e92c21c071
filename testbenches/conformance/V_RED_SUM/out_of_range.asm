; V_RED_SUM on row 8191 is fine; row 8192 traps address_out_of_range (f2 not written).
S_LUI_INT gp1, 127
S_ADDI_INT gp1, gp1, 4032
S_LUI_INT gp2, 128
V_RED_SUM f1, gp1
V_RED_SUM f2, gp2
