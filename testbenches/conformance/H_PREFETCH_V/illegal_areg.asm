; H_PREFETCH_V with an = 9 (a9: past the 8-entry a file) -> illegal_instruction (.word).
S_ADDI_INT gp1, gp0, 64
.word 0x00024069   ; H_PREFETCH_V gp1, gp0, a9, 0, 0
