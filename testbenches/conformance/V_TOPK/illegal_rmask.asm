; V_TOPK rmask 2 has no topk_policies entry: illegal_instruction (reserved field value, written
; with .word since the assembler refuses it).
S_ADDI_INT gp1, gp0, 128
S_ADDI_INT gp2, gp0, 100
S_ADDI_INT gp3, gp0, 200
.word 0x0008C4B7
