; A fifth nested C_LOOP_START with LOOP_DEPTH = 4 loops active traps loop_depth_overflow
; and writes nothing (gp5 keeps 0). Trap priority: count 0 would be loop_count_zero first; here imm = 2.
C_LOOP_START gp1, 2
C_LOOP_START gp2, 3
C_LOOP_START gp3, 4
C_LOOP_START gp4, 5
C_LOOP_START gp5, 2
