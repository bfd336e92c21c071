; S_ST_INT traps address_out_of_range at word 4096 (INT_SRAM_WORDS = 4096) and writes nothing.
S_ADDI_INT gp1, gp0, 4000
S_ADDI_INT gp2, gp0, 77
S_ST_INT gp2, gp1, 95   ; word 4095: fine
S_ST_INT gp2, gp1, 96   ; word 4096
