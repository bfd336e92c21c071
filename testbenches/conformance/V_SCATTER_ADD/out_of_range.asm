; V_SCATTER_ADD: target gp[rd] + t*VLEN with t from INT SRAM; base row 1, t = 8190 -> row
; 8191 fine; t = 8191 -> row 8192 -> address_out_of_range.
S_ADDI_INT gp1, gp0, 64
S_ADDI_INT gp2, gp0, 128
S_ADDI_INT gp3, gp0, 1
V_SCATTER_ADD gp1, gp2, gp0
V_SCATTER_ADD gp1, gp2, gp3
