; M_TMV with gp[rs1] = 64: c = 64 is a multiple of BLEN but not below MLEN -> address_misaligned
; (the same value is M_MM's legal tile-row address of column 1; M_TMV's offset is element-granular).
S_ADDI_INT gp1, gp0, 64
S_ADDI_INT gp2, gp0, 256
M_TMV 0, gp1, gp2
