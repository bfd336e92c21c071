; C_LOOP_END tests gp[rd] itself: the body sets gp1 = 1, so the first C_LOOP_END
; sees gp1 = 1 (not > 1): gp1 = 0, pop, fall through after one pass of a count-5 loop.
C_LOOP_START gp1, 5
S_ADDI_INT gp2, gp2, 1
S_ADDI_INT gp1, gp0, 1
C_LOOP_END gp1
