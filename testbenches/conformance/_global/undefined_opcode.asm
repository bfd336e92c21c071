; Global trap: an undefined opcode (0x00, not in isa.yaml) is illegal_instruction at issue;
; nothing is written and it costs no cycle (isa.yaml header, trap priority).
S_ADDI_INT gp1, gp0, 1
.word 0x00000000   ; opcode 0x00
S_ADD_INT gp2, gp1, gp1
