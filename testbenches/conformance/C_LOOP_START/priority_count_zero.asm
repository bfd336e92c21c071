; With 4 loops active, C_LOOP_START gp5, 0 can raise loop_count_zero and
; loop_depth_overflow; traps list order [loop_count_zero, loop_depth_overflow] gives loop_count_zero.
C_LOOP_START gp1, 2
C_LOOP_START gp2, 3
C_LOOP_START gp3, 4
C_LOOP_START gp4, 5
C_LOOP_START gp5, 0
