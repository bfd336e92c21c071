; C_BREAK inside a loop marks the innermost loop: the current iteration runs on to its C_LOOP_END,
; which then exits (gp[rd] = 0, pop, fall through) although gp1 = 5 > 1 (isa.yaml C_BREAK,
; C_LOOP_END). Every instruction here takes 1 cycle.
C_LOOP_START gp1, 5
S_ADDI_INT gp2, gp2, 1
C_BREAK
S_ADDI_INT gp3, gp3, 1   ; still runs: the iteration runs to its end
C_LOOP_END gp1           ; exits
S_ADDI_INT gp4, gp0, 7   ; after the loop
