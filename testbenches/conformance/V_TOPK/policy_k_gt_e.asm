; V_TOPK rmask 15 with TOPK_POLICY = (4 << 8) | 5: k > E -> topk_policy_invalid.
S_ADDI_INT gp1, gp0, 128
S_ADDI_INT gp2, gp0, 100
S_ADDI_INT gp3, gp0, 200
S_ADDI_INT gp4, gp0, 1029
C_SET_TOPK_REG gp4
V_TOPK gp2, gp1, gp3, 15
