; S_MAX_FP fd, fs1, fs2: max(a, b); NaN -> 0x7FC0, max(-0, +0) = +0 in either order (isa.yaml S_MAX_FP; numerics.md §2-3).
; Each pair: S_LD_FP both operands, the op, S_ST_FP of the result to FP SRAM 64+i (1 cycle each).
; Then fd = fs1, fd = f0 (no-op write) and fs1 = f0 (reads +0.0). Expected values from an
; independent exact-rational model (FP32 RNE op, then BF16 RNE, NaN 0x7FC0).
S_LD_FP f1, gp0, 0
S_LD_FP f2, gp0, 1
S_MAX_FP f3, f1, f2
S_ST_FP f3, gp0, 64
S_LD_FP f1, gp0, 2
S_LD_FP f2, gp0, 3
S_MAX_FP f3, f1, f2
S_ST_FP f3, gp0, 65
S_LD_FP f1, gp0, 4
S_LD_FP f2, gp0, 5
S_MAX_FP f3, f1, f2
S_ST_FP f3, gp0, 66
S_LD_FP f1, gp0, 6
S_LD_FP f2, gp0, 7
S_MAX_FP f3, f1, f2
S_ST_FP f3, gp0, 67
S_LD_FP f1, gp0, 8
S_LD_FP f2, gp0, 9
S_MAX_FP f3, f1, f2
S_ST_FP f3, gp0, 68
S_LD_FP f1, gp0, 10
S_LD_FP f2, gp0, 11
S_MAX_FP f3, f1, f2
S_ST_FP f3, gp0, 69
S_LD_FP f1, gp0, 12
S_LD_FP f2, gp0, 13
S_MAX_FP f3, f1, f2
S_ST_FP f3, gp0, 70
S_LD_FP f1, gp0, 14
S_LD_FP f2, gp0, 15
S_MAX_FP f3, f1, f2
S_ST_FP f3, gp0, 71
S_LD_FP f1, gp0, 16
S_LD_FP f2, gp0, 17
S_MAX_FP f3, f1, f2
S_ST_FP f3, gp0, 72
S_MAX_FP f1, f1, f2   ; fd = fs1
S_MAX_FP f0, f1, f2   ; f0 stays +0.0
S_MAX_FP f4, f0, f2   ; f0 reads +0.0
