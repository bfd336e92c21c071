; H_PREFETCH_M with rstride = 2 (allowed: [0, 1]) is a reserved field value -> illegal_instruction; written with .word
; (the assembler refuses it). No cycle, nothing written.
S_ADDI_INT gp1, gp0, 8192
.word 0x00080068
