; V_MAX_VF, rmask = 0 (every element): VRAM row gp[rd] = max(V[rs1], f[fs]) per element.
; Edge values first (NaN operand -> canonical 0x7FC0, max(-0,+0) = +0 / min(-0,+0) = -0, inf,
; then pseudo-random BF16 values. Expected rows computed from isa.yaml/numerics.md with an
; independent exact-rational model (FP32 RNE op, then BF16 RNE). Latency 2 per vector op.
S_ADDI_INT gp1, gp0, 64
S_ADDI_INT gp2, gp0, 128
S_LD_FP f1, gp0, 8
S_LD_FP f2, gp0, 9
S_LD_FP f3, gp0, 10
S_ADDI_INT gp3, gp0, 640
V_MAX_VF gp3, gp1, f1   ; row 10 = f(row 1, f1)
S_ADDI_INT gp3, gp0, 704
V_MAX_VF gp3, gp1, f2   ; row 11 = f(row 1, f2)
S_ADDI_INT gp3, gp0, 768
V_MAX_VF gp3, gp1, f3   ; row 12 = f(row 1, f3)
S_ADDI_INT gp3, gp0, 832
V_MAX_VF gp3, gp1, f0   ; f0 reads +0.0: row 13
