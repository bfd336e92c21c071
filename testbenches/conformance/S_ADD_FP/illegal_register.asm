; S_ADD_FP with fs1 = 9 (past f7; the assembler refuses f9, so .word): illegal_instruction at issue,
; no cycle, f1 not written (isa.yaml header: a register index past its file).
S_ADDI_INT gp1, gp0, 1
.word 0x0000A457   ; S_ADD_FP f1, f9, f2
