; C_LOOP_START with imm = 0 traps loop_count_zero; it writes nothing (gp1 keeps 9).
S_ADDI_INT gp1, gp0, 9
C_LOOP_START gp1, 0
C_LOOP_END gp1
