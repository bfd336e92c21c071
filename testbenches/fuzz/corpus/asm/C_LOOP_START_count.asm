; C_LOOP_START gp1, 3 sets gp1 = 3 and pushes a loop; C_LOOP_END decrements and jumps
; while gp1 > 1, then sets gp1 = 0 and falls through: the body runs 3 times. Retired = 1 + 3*2.
C_LOOP_START gp1, 3
S_ADDI_INT gp2, gp2, 5
C_LOOP_END gp1
