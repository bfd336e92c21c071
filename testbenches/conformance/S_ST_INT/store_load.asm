; S_ST_INT: INT_SRAM[gp[rs1] + imm] = gp[rs]; S_LD_INT reads it back; word 4095 is the last
; valid INT SRAM word (INT_SRAM_WORDS = 4096). Latency 1 each.
S_LUI_INT gp1, 912091
S_ADDI_INT gp1, gp1, 3823
S_ADDI_INT gp2, gp0, 4000
S_ST_INT gp1, gp2, 95   ; INT_SRAM[4095]
S_ST_INT gp0, gp0, 7   ; INT_SRAM[7] = 0 (gp0 reads 0)
S_ST_INT gp2, gp0, 0   ; INT_SRAM[0] = 4000
S_LD_INT gp3, gp2, 95
S_LD_INT gp4, gp0, 7
