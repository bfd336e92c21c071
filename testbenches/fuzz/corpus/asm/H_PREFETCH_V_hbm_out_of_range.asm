; H_PREFETCH_V: HBM is checked on byte ranges: a0 = HBM_BYTES - 256 with o = 0 reads the last
; 256 code bytes (fine, HBM zeros -> rows of +0.0); o = 8 makes row 3 end 8 bytes past HBM_BYTES ->
; address_out_of_range.
S_ADDI_INT gp13, gp0, 0
S_LUI_INT gp14, 16383
S_ADDI_INT gp14, gp14, 3840
C_SET_ADDR_REG a0, gp13, gp14
S_ADDI_INT gp1, gp0, 64
H_PREFETCH_V gp1, gp0, a0, 0, 0
S_ADDI_INT gp2, gp0, 8
H_PREFETCH_V gp1, gp2, a0, 0, 0
