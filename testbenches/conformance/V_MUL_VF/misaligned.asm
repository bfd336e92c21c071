; V_MUL_VF: a VRAM row address that is not a multiple of VLEN = 64 traps
; address_misaligned (isa.yaml traps); the trapping op writes nothing and costs no cycle.
S_ADDI_INT gp1, gp0, 128
S_ADDI_INT gp2, gp0, 224
V_MUL_VF gp2, gp1, f0   ; rd = 224: misaligned
