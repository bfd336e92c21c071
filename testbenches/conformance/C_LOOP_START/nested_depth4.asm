; Four nested loops (LOOP_DEPTH = 4) are allowed: counts 2,2,2,3, innermost body
; runs 24 times. Retired: 1 + 2*(1 + 2*(1 + 2*(1 + 3*2 + 1) + 1) + 1) = 75; gp5 = 24.
C_LOOP_START gp1, 2
C_LOOP_START gp2, 2
C_LOOP_START gp3, 2
C_LOOP_START gp4, 3
S_ADDI_INT gp5, gp5, 1
C_LOOP_END gp4
C_LOOP_END gp3
C_LOOP_END gp2
C_LOOP_END gp1
