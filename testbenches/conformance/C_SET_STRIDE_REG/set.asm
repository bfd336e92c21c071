; C_SET_STRIDE_REG: STRIDE = gp[rd] (any u32, no check at set time). Latency 1.
; Reset values: STRIDE 1, others 0.
S_ADDI_INT gp1, gp0, 0
C_SET_STRIDE_REG gp1
S_ADDI_INT gp2, gp0, 7
C_SET_STRIDE_REG gp2
