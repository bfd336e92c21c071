; Trap priority: invalid policy (k = 0) and an out-of-range rs1: the traps list order
; [..., topk_policy_invalid, address_out_of_range, ...] gives topk_policy_invalid.
S_LUI_INT gp1, 128
S_ADDI_INT gp2, gp0, 100
S_ADDI_INT gp3, gp0, 200
S_ADDI_INT gp4, gp0, 2048
C_SET_TOPK_REG gp4
V_TOPK gp2, gp1, gp3, 15
