; C_SET_SCALE_REG: SCALE = gp[rd] (any u32, no check at set time). Latency 1.
; Reset values: STRIDE 1, others 0.
S_LUI_INT gp1, 1048575
S_ADDI_INT gp1, gp1, 4095
C_SET_SCALE_REG gp1
S_ADDI_INT gp2, gp0, 7
C_SET_SCALE_REG gp2
