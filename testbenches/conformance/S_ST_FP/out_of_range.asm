; S_ST_FP traps address_out_of_range at word 4096 and writes nothing.
S_LD_FP f1, gp0, 0
S_ADDI_INT gp1, gp0, 4096
S_ST_FP f1, gp0, 4095   ; last word: fine
S_ST_FP f1, gp1, 0   ; word 4096
