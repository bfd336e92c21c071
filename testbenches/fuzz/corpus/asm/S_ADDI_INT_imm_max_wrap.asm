; S_ADDI_INT: gp[rd] = gp[rs1] + imm, imm zero-extended (18 bits, max 262143), u32 wrapping;
; a write to gp0 is discarded (isa.yaml S_ADDI_INT; operand kinds: gp0 reads 0). Latency 1.
S_ADDI_INT gp1, gp0, 262143
S_LUI_INT gp2, 1048575
S_ADDI_INT gp2, gp2, 4095   ; gp2 = 0xFFFFFFFF
S_ADDI_INT gp3, gp2, 1   ; 0xFFFFFFFF + 1 wraps to 0
S_ADDI_INT gp4, gp2, 262143   ; wraps to 262142
S_ADDI_INT gp0, gp0, 5   ; discarded
S_ADDI_INT gp5, gp0, 0   ; gp5 = 0 (written, listed)
