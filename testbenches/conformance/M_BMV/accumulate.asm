; M_BMV and M_BTMV accumulate into one per-head accumulator hv (B x MLEN FP32), separate from M_MV's
; vacc: M_BMV (tile 1, r0 = gp[rd] = 48), M_MV (tile 1 rows 4..7, VRAM row 3), M_BTMV (tile 1, r0 = 0:
; rd = gp0), all on VRAM row 3. M_MV_WO writes vacc alone to row 20 columns 0..3; M_BMV_WO writes
; hv (both ops' sum, FP32 RNE in program order) to rows 10..13 and clears it: the second
; M_BMV_WO (imm 256 in imm18: d = 896, rows 14..17) writes +0.0.
; Latencies: M_BMV 273, M_MV 13, M_BTMV MLEN + B*MLEN + 1 = 321, M_MV_WO 1, M_BMV_WO 4.
S_ADDI_INT gp1, gp0, 4096
S_ADDI_INT gp3, gp0, 48
S_ADDI_INT gp2, gp0, 192
S_ADDI_INT gp5, gp0, 4100
S_ADDI_INT gp6, gp0, 1280
S_ADDI_INT gp4, gp0, 640
M_BMV gp3, gp1, gp2
M_MV 0, gp5, gp2
M_BTMV gp0, gp1, gp2
M_MV_WO gp6, 0
M_BMV_WO gp4, 0
M_BMV_WO gp4, 256
