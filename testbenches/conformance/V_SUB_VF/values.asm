; V_SUB_VF rd, rs1, fs, rmask, rorder with rmask 0: rorder 0 -> bf16_rne(V - f), rorder 1 -> bf16_rne(f - V)
; (PLENA's reversed order; isa.yaml V_SUB_VF). Edge values (NaN -> 0x7FC0, signed zeros, inf, max) then
; pseudo-random BF16. Expected rows from an independent exact-rational model. Latency 2.
S_ADDI_INT gp1, gp0, 64
S_LD_FP f1, gp0, 0
S_LD_FP f2, gp0, 1
S_LD_FP f3, gp0, 2
S_ADDI_INT gp3, gp0, 640
V_SUB_VF gp3, gp1, f1          ; row 10 = V - 1.0 (rorder omitted = 0)
S_ADDI_INT gp3, gp0, 704
V_SUB_VF gp3, gp1, f3, 0, 0    ; row 11 = V - 2.5
S_ADDI_INT gp3, gp0, 768
V_SUB_VF gp3, gp1, f3, 0, 1    ; row 12 = 2.5 - V (reversed)
S_ADDI_INT gp3, gp0, 832
V_SUB_VF gp3, gp1, f2, 0, 1    ; row 13 = -0 - V
S_ADDI_INT gp3, gp0, 896
V_SUB_VF gp3, gp1, f0, 0, 1    ; row 14 = +0 - V (f0 reads +0.0)
