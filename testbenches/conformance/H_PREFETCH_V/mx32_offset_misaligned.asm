; H_PREFETCH_V on mx32 with o = gp[rs1] = 8: a multiple of 8 (fine on `default`) but not of
; MX_BLOCK = 32 -> address_misaligned (isa.yaml: o must be a multiple of MX_BLOCK).
S_ADDI_INT gp1, gp0, 64
S_ADDI_INT gp2, gp0, 8
H_PREFETCH_V gp1, gp2, a0, 0, 0
