; V_EXP_V: a VRAM row address that is not a multiple of VLEN = 64 traps
; address_misaligned (isa.yaml traps); the trapping op writes nothing and costs no cycle.
S_ADDI_INT gp1, gp0, 128
S_ADDI_INT gp2, gp0, 224
V_EXP_V gp1, gp2   ; rs1 = 224: misaligned
