; S_LD_INT traps when gp[rs1] + imm is past INT SRAM (INT_SRAM_WORDS = 4096 on default).
S_ADDI_INT gp1, gp0, 4095
S_LD_INT gp2, gp1, 0            ; last word: fine
S_LD_INT gp3, gp1, 1            ; word 4096: address_out_of_range, writes nothing
S_ADDI_INT gp4, gp0, 1          ; never runs
