; H_PREFETCH_V with rstride = 1 before any C_SET_STRIDE_REG: STRIDE holds its reset value 1
; (isa.yaml control_registers), so row i starts at o = gp[rs1] + i*1. Row 0 (o = 0) is aligned,
; row 1 (o = 1) is not a multiple of MX_BLOCK = 8 -> address_misaligned at issue. On a preset
; with HBM_V_ROWS > 1 an H_* that reads STRIDE at its reset value always traps this way.
S_ADDI_INT gp1, gp0, 64
H_PREFETCH_V gp1, gp0, a0, 1, 0
