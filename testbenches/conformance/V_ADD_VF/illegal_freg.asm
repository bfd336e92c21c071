; V_ADD_VF with fs = 9 (f9: past the 8-entry f file) is illegal_instruction
; (isa.yaml header: "a register index past its file, e.g. f9"). Encoded with .word; it checks before
; the misaligned rd the same word also carries (illegal_instruction comes before the traps list).
S_ADDI_INT gp1, gp0, 64
S_ADDI_INT gp2, gp0, 65
.word 0x0002448E   ; V_ADD_VF gp2, gp1, f9
