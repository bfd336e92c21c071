; V_TOPK rmask 15 before any C_SET_TOPK_REG traps topk_policy_unset (TOPK_POLICY reset 0 is not
; "set"), nothing written.
S_ADDI_INT gp1, gp0, 128
S_ADDI_INT gp2, gp0, 100
S_ADDI_INT gp3, gp0, 200
V_TOPK gp2, gp1, gp3, 15
