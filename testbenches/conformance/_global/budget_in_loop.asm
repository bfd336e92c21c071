; Retired instructions are counted across loop iterations: with INSTRUCTION_BUDGET = 7 the
; sequence C_LOOP_START, (S_ADDI_INT, C_LOOP_END) x 3 retires 7 instructions, then the fourth
; S_ADDI_INT (pc 1) traps. The loop counter gp2 went 10 -> 9 -> 8 -> 7.
C_LOOP_START gp2, 10
S_ADDI_INT gp1, gp1, 1
C_LOOP_END gp2
