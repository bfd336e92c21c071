; V_TOPK rmask 15 with TOPK_POLICY = (513 << 8) | 1: E > MAX_TOPK_EXPERTS = 512 -> topk_policy_invalid.
S_ADDI_INT gp1, gp0, 128
S_ADDI_INT gp2, gp0, 100
S_ADDI_INT gp3, gp0, 200
S_ADDI_INT gp4, gp0, 131329
C_SET_TOPK_REG gp4
V_TOPK gp2, gp1, gp3, 15
