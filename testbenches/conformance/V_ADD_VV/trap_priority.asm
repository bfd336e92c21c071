; V_ADD_VV: rs1 = 524289 is both past VRAM (row 8192) and not row-aligned; the
; traps list order [address_out_of_range, address_misaligned] gives address_out_of_range
; (isa.yaml header: "then the instruction's traps list in the order written").
S_LUI_INT gp1, 128
S_ADDI_INT gp1, gp1, 1
S_ADDI_INT gp2, gp0, 64
V_ADD_VV gp2, gp1, gp2
