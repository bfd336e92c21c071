; S_LD_FP traps address_out_of_range for word gp[rs1] + imm = 4096 (FP_SRAM_WORDS = 4096).
S_ADDI_INT gp1, gp0, 4095
S_LD_FP f1, gp1, 0
S_LD_FP f2, gp1, 1
