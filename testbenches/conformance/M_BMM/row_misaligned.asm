; M_BMM with a = gp[rs1] = 4096 + 8: row offset r0 = 8, not a multiple of HLEN = 16
; -> address_misaligned.
S_ADDI_INT gp1, gp0, 4104
M_BMM 0, gp1, gp0
