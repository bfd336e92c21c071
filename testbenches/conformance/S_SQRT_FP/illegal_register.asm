; S_SQRT_FP with fs1 = 8 (past f7; .word because the assembler refuses f8): illegal_instruction at
; issue, no cycle, nothing written.
S_ADDI_INT gp1, gp0, 1
.word 0x0000205D   ; S_SQRT_FP f1, f8
