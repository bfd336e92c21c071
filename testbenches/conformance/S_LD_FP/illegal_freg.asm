; S_LD_FP with fd = 9: f9 is past the 8-entry f file -> illegal_instruction
; (isa.yaml header: "a register index past its file, e.g. f9 or a12"); written with .word.
.word 0x0000025E   ; S_LD_FP f9, gp0, 0
