; C_SET_V_MASK_REG: V_MASK = gp[rd] (any u32, no check at set time). Latency 1.
; Reset values: STRIDE 1, others 0.
S_LUI_INT gp1, 678490
S_ADDI_INT gp1, gp1, 1445
C_SET_V_MASK_REG gp1
S_ADDI_INT gp2, gp0, 7
C_SET_V_MASK_REG gp2
