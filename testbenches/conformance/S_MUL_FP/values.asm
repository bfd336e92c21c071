; S_MUL_FP fd, fs1, fs2: bf16_rne(fp32(a) * fp32(b)) (isa.yaml S_MUL_FP; numerics.md §2-3).
; Each pair: S_LD_FP both operands, the op, S_ST_FP of the result to FP SRAM 64+i (1 cycle each).
; Then fd = fs1, fd = f0 (no-op write) and fs1 = f0 (reads +0.0). Expected values from an
; independent exact-rational model (FP32 RNE op, then BF16 RNE, NaN 0x7FC0).
S_LD_FP f1, gp0, 0
S_LD_FP f2, gp0, 1
S_MUL_FP f3, f1, f2
S_ST_FP f3, gp0, 64
S_LD_FP f1, gp0, 2
S_LD_FP f2, gp0, 3
S_MUL_FP f3, f1, f2
S_ST_FP f3, gp0, 65
S_LD_FP f1, gp0, 4
S_LD_FP f2, gp0, 5
S_MUL_FP f3, f1, f2
S_ST_FP f3, gp0, 66
S_LD_FP f1, gp0, 6
S_LD_FP f2, gp0, 7
S_MUL_FP f3, f1, f2
S_ST_FP f3, gp0, 67
S_LD_FP f1, gp0, 8
S_LD_FP f2, gp0, 9
S_MUL_FP f3, f1, f2
S_ST_FP f3, gp0, 68
S_LD_FP f1, gp0, 10
S_LD_FP f2, gp0, 11
S_MUL_FP f3, f1, f2
S_ST_FP f3, gp0, 69
S_LD_FP f1, gp0, 12
S_LD_FP f2, gp0, 13
S_MUL_FP f3, f1, f2
S_ST_FP f3, gp0, 70
S_LD_FP f1, gp0, 14
S_LD_FP f2, gp0, 15
S_MUL_FP f3, f1, f2
S_ST_FP f3, gp0, 71
S_LD_FP f1, gp0, 16
S_LD_FP f2, gp0, 17
S_MUL_FP f3, f1, f2
S_ST_FP f3, gp0, 72
S_LD_FP f1, gp0, 18
S_LD_FP f2, gp0, 19
S_MUL_FP f3, f1, f2
S_ST_FP f3, gp0, 73
S_LD_FP f1, gp0, 20
S_LD_FP f2, gp0, 21
S_MUL_FP f3, f1, f2
S_ST_FP f3, gp0, 74
S_LD_FP f1, gp0, 22
S_LD_FP f2, gp0, 23
S_MUL_FP f3, f1, f2
S_ST_FP f3, gp0, 75
S_LD_FP f1, gp0, 24
S_LD_FP f2, gp0, 25
S_MUL_FP f3, f1, f2
S_ST_FP f3, gp0, 76
S_LD_FP f1, gp0, 26
S_LD_FP f2, gp0, 27
S_MUL_FP f3, f1, f2
S_ST_FP f3, gp0, 77
S_LD_FP f1, gp0, 28
S_LD_FP f2, gp0, 29
S_MUL_FP f3, f1, f2
S_ST_FP f3, gp0, 78
S_LD_FP f1, gp0, 30
S_LD_FP f2, gp0, 31
S_MUL_FP f3, f1, f2
S_ST_FP f3, gp0, 79
S_LD_FP f1, gp0, 32
S_LD_FP f2, gp0, 33
S_MUL_FP f3, f1, f2
S_ST_FP f3, gp0, 80
S_MUL_FP f1, f1, f2   ; fd = fs1
S_MUL_FP f0, f1, f2   ; f0 stays +0.0
S_MUL_FP f4, f0, f2   ; f0 reads +0.0
