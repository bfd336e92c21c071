; C_LOOP_START gp1, 1 runs the body once; C_LOOP_END sees 1, writes 0, pops and falls through;
; the loop is popped, so the next C_LOOP_END traps loop_underflow.
C_LOOP_START gp1, 1
S_ADDI_INT gp2, gp2, 3
C_LOOP_END gp1
S_ADDI_INT gp3, gp0, 4
C_LOOP_END gp3   ; no active loop; gp3 keeps 4
