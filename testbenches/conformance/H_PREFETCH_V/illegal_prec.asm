; H_PREFETCH_V with prec = 1 (allowed: [0]) is a reserved field value -> illegal_instruction; written with .word
; (the assembler refuses it). No cycle, nothing written.
S_ADDI_INT gp1, gp0, 64
.word 0x00400069
