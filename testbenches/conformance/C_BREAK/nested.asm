; C_BREAK marks only the innermost active loop; a loop pushed later starts unbroken. The inner loop
; (count 4) is broken in each of the 3 outer iterations, so it runs once per outer iteration; the
; outer loop runs all 3. The final C_BREAK is outside any loop and halts.
; Cycles: 1 (outer start) + 3 x 6 (inner start, add, break, inner end, add, outer end) + 1 = 20.
C_LOOP_START gp1, 3      ; outer
C_LOOP_START gp2, 4      ; inner, pushed unbroken in every outer iteration
S_ADDI_INT gp3, gp3, 1
C_BREAK                  ; marks the inner loop only
C_LOOP_END gp2           ; inner exits after one pass
S_ADDI_INT gp4, gp4, 1
C_LOOP_END gp1           ; outer loops 3 times
C_BREAK                  ; outside any loop: halt
S_ADDI_INT gp5, gp0, 9   ; never runs
