; C_SET_ADDR_REG with an = 8 (a8: past the 8-entry a file) is illegal_instruction
; (isa.yaml header, register index past its file); .word.
S_ADDI_INT gp1, gp0, 5
.word 0x0000462B   ; C_SET_ADDR_REG a8, gp1, gp1
