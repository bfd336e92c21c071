; C_SET_TOPK_REG: TOPK_POLICY = gp[rd] (any u32, no check at set time). Latency 1.
; C_SET_TOPK_REG only records the policy; an invalid one traps at V_TOPK.
S_ADDI_INT gp1, gp0, 76800
C_SET_TOPK_REG gp1
S_ADDI_INT gp2, gp0, 7
C_SET_TOPK_REG gp2
