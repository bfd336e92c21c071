; V_RED_MAX fd, rs1 (rmask 0): f[fd] = max(f[fd], max of the row) with V_MAX_VF's rule (NaN -> 0x7FC0,
; max(-0, +0) = +0); isa.yaml V_RED_MAX. fd = f0 is a no-op write. Latency log2(VLEN) + 2 = 8.
S_ADDI_INT gp1, gp0, 64
S_ADDI_INT gp2, gp0, 128
S_ADDI_INT gp3, gp0, 192
S_ADDI_INT gp4, gp0, 256
S_ADDI_INT gp5, gp0, 320
S_LD_FP f1, gp0, 0
S_LD_FP f2, gp0, 1
S_LD_FP f3, gp0, 2
S_LD_FP f4, gp0, 3
S_LD_FP f5, gp0, 4
V_RED_MAX f1, gp1           ; 0.5 vs the random row 1
V_RED_MAX f2, gp2, 0        ; -inf vs row 2 of -0/+0: +0
V_RED_MAX f3, gp1           ; NaN f[fd] -> 0x7FC0
V_RED_MAX f4, gp5           ; -0 vs a row of -inf: stays -0
V_RED_MAX f5, gp3           ; NaN element -> 0x7FC0
S_LD_FP f6, gp0, 1
V_RED_MAX f6, gp4           ; -inf vs a row of -0: -0
V_RED_MAX f0, gp1           ; no-op write
