; V_RED_SUM rmask 0: f[fd] = bf16_rne(fp32(f[fd]) + S), S the pairwise FP32 RNE tree over the row
; (level 0 adds (2i, 2i+1)). Row 1 = [2^24, 1, 1, -2^24, 0...]: tree gives 1 (a sequential sum gives 0).
; Row 2 random: checked against the tree; row 3 has +inf and -inf in different heads -> NaN 0x7FC0.
; f0 as fd is a no-op write. Latency log2(VLEN) + 2 = 8.
S_ADDI_INT gp1, gp0, 64
S_ADDI_INT gp2, gp0, 128
S_ADDI_INT gp3, gp0, 192
S_LD_FP f1, gp0, 0
S_LD_FP f2, gp0, 1
V_RED_SUM f1, gp1
V_RED_SUM f2, gp2, 0
V_RED_SUM f3, gp3
V_RED_SUM f0, gp2   ; no-op write
