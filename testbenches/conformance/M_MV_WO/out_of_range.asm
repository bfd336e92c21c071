; M_MV_WO d = gp[rd] + imm: row 8191 elements 60..63 (gp5 = 524224, imm 60) is the last legal slot
; (writes bf16(+0.0) x 4: vacc is clear at reset); imm 64 reaches row 8192 -> address_out_of_range.
S_LUI_INT gp5, 127
S_ADDI_INT gp5, gp5, 4032
M_MV_WO gp5, 60
M_MV_WO gp5, 64
