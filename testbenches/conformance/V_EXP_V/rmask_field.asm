; V_EXP_V rmask sits in bits [21:18] (isa.yaml V_EXP_V: "PLENA's assembler put it in
; [17:14]; fixed"). A word with bits [17:14] = 15 and r3 = 0 is unmasked (bits [17:14] are reserved
; for V_EXP_V and ignored); a word with r3 = 1 masks with V_MASK = 1 (head 0 only).
S_ADDI_INT gp1, gp0, 64
S_ADDI_INT gp2, gp0, 128
S_ADDI_INT gp3, gp0, 192
S_ADDI_INT gp4, gp0, 1
C_SET_V_MASK_REG gp4
.word 0x0003C493   ; V_EXP_V gp2, gp1 with junk in [17:14]: all elements
V_EXP_V gp3, gp1, 1   ; r3 = 1: head 0 only
