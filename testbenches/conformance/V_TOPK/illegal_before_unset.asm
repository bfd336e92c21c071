; Trap priority: rmask 3 (illegal) with no policy set: illegal_instruction comes before the
; traps list (isa.yaml header).
S_ADDI_INT gp1, gp0, 130
S_ADDI_INT gp2, gp0, 100
S_ADDI_INT gp3, gp0, 200
.word 0x000CC4B7
