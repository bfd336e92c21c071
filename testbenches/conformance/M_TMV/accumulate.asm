; M_TMV, M_MV, M_TMV on tile 0 with c = 60 (the last legal offset) and VRAM row 3 accumulate into the
; one vector accumulator in program order (FP32 RNE); then M_MV_WO.
; Latencies: M_TMV 73, M_MV 13, M_MV_WO 1.
S_ADDI_INT gp1, gp0, 60
S_ADDI_INT gp2, gp0, 192
M_TMV 0, gp1, gp2
M_MV 0, gp1, gp2
M_TMV 0, gp1, gp2
M_MV_WO gp2, 4   ; row 3, elements 4..7
