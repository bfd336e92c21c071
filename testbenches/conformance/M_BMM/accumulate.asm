; M_BMM and M_BTMM accumulate into one per-head matrix accumulator hm (B*MLEN x MLEN FP32),
; separate from M_BMV's hv: M_BMM (tile 0, r0 = 0), M_BMV (tile 0, r0 = 0, VRAM row 405), M_BTMM
; (tile 0, r0 = gp[rs1] = 16), both matrix ops on VRAM rows 400..463 of which only row 405 (m = 5)
; is nonzero. M_BMV_WO writes hv alone (M_BMV's result) to rows 3000..3003; M_BMM_WO writes hm
; (both ops' sums, FP32 RNE in program order; nonzero rows 1000 + 64b + 5) to rows 1000..1255 and
; clears it: the second M_BMM_WO (imm 16384 in imm18: rows 1256..1511) writes +0.0.
; Expected values: scripts/oracle_bmm.py.
; Latencies: M_BMM 16401, M_BMV 273, M_BTMM 16449, M_BMV_WO 4, M_BMM_WO 257.
S_ADDI_INT gp2, gp0, 25600
S_ADDI_INT gp3, gp0, 25920
S_ADDI_INT gp5, gp0, 16
S_ADDI_INT gp6, gp0, 192000
S_ADDI_INT gp4, gp0, 64000
M_BMM 0, gp0, gp2
M_BMV gp0, gp0, gp3
M_BTMM 0, gp5, gp2
M_BMV_WO gp6, 0
M_BMM_WO gp4, 0
M_BMM_WO gp4, 16384
