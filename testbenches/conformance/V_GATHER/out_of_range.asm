; V_GATHER checks the source row gp[rs1] + t*VLEN with t read from INT SRAM at issue:
; base row 2, t = 8189 -> row 8191 fine; t = 8190 -> row 8192 -> address_out_of_range.
S_ADDI_INT gp1, gp0, 128
S_ADDI_INT gp3, gp0, 640
V_GATHER gp3, gp1, gp0
S_ADDI_INT gp2, gp0, 1
V_GATHER gp3, gp1, gp2
