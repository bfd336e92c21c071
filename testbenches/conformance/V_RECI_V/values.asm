; V_RECI_V, rmask = 0 (every element): VRAM row gp[rd] = RECI_BF16(V[rs1]) per element.
; Edge values first (RNE ties, -0.0, inf, NaN in -> canonical 0x7FC0, subnormals, overflow),
; then pseudo-random BF16 values. Expected rows computed from isa.yaml/numerics.md with an
; independent exact-rational model (FP32 RNE op, then BF16 RNE). Latency 2 per vector op.
S_ADDI_INT gp1, gp0, 64
S_ADDI_INT gp2, gp0, 128
S_ADDI_INT gp3, gp0, 640
V_RECI_V gp3, gp1   ; row 10 = f(row 1)
V_RECI_V gp1, gp1   ; in place: row 1 = f(row 1)
