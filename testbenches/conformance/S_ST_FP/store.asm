; S_ST_FP: FP_SRAM[gp[rs1] + imm] = f[fs] (bits as held, NaN payload kept); f0 stores +0.0.
; Latency 1.
S_ADDI_INT gp1, gp0, 4000
S_LD_FP f1, gp0, 0
S_LD_FP f2, gp0, 1
S_LD_FP f3, gp0, 2
S_ST_FP f1, gp1, 93
S_ST_FP f2, gp1, 94
S_ST_FP f3, gp1, 95
S_ST_FP f0, gp0, 50   ; FP_SRAM[50] = +0.0
