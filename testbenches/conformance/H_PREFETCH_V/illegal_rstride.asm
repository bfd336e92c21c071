; H_PREFETCH_V with rstride = 2 (allowed: [0, 1]) is a reserved field value -> illegal_instruction; written with .word
; (the assembler refuses it). No cycle, nothing written.
S_ADDI_INT gp1, gp0, 64
.word 0x00080069
