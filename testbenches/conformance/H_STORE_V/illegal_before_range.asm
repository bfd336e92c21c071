; Trap priority: H_STORE_V with prec = 3 (reserved) AND gp[rd] = row 8192 (out of range):
; illegal_instruction is checked before the traps list.
S_LUI_INT gp1, 128
.word 0x00C0006A
