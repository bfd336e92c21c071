; S_SQRT_FP fd, fs1: SQRT_BF16(x), sqrt correctly rounded (exact integer comparison of midpoint squares);
; sqrt(-0) = -0, sqrt(x < 0) = sqrt(-inf) = NaN 0x7FC0 (isa.yaml S_SQRT_FP).
; Each input: S_LD_FP, the op, S_ST_FP of the result to FP SRAM 64+i (1 cycle each); then fd = fs1,
; fd = f0 (no-op write), fs1 = f0 (reads +0.0). Expected values from an independent model.
S_LD_FP f1, gp0, 0
S_SQRT_FP f2, f1
S_ST_FP f2, gp0, 64
S_LD_FP f1, gp0, 1
S_SQRT_FP f2, f1
S_ST_FP f2, gp0, 65
S_LD_FP f1, gp0, 2
S_SQRT_FP f2, f1
S_ST_FP f2, gp0, 66
S_LD_FP f1, gp0, 3
S_SQRT_FP f2, f1
S_ST_FP f2, gp0, 67
S_LD_FP f1, gp0, 4
S_SQRT_FP f2, f1
S_ST_FP f2, gp0, 68
S_LD_FP f1, gp0, 5
S_SQRT_FP f2, f1
S_ST_FP f2, gp0, 69
S_LD_FP f1, gp0, 6
S_SQRT_FP f2, f1
S_ST_FP f2, gp0, 70
S_LD_FP f1, gp0, 7
S_SQRT_FP f2, f1
S_ST_FP f2, gp0, 71
S_LD_FP f1, gp0, 8
S_SQRT_FP f2, f1
S_ST_FP f2, gp0, 72
S_LD_FP f1, gp0, 9
S_SQRT_FP f2, f1
S_ST_FP f2, gp0, 73
S_LD_FP f1, gp0, 10
S_SQRT_FP f2, f1
S_ST_FP f2, gp0, 74
S_LD_FP f1, gp0, 11
S_SQRT_FP f2, f1
S_ST_FP f2, gp0, 75
S_LD_FP f1, gp0, 12
S_SQRT_FP f2, f1
S_ST_FP f2, gp0, 76
S_LD_FP f1, gp0, 13
S_SQRT_FP f2, f1
S_ST_FP f2, gp0, 77
S_SQRT_FP f1, f1   ; fd = fs1
S_SQRT_FP f0, f1   ; f0 stays +0.0
S_SQRT_FP f3, f0   ; f0 reads +0.0
