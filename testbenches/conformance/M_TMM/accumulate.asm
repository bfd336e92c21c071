; M_TMM accumulates into M_MM's BLEN x BLEN accumulator and leaves M_MV's vector accumulator alone:
; M_MV (tile 1 rows 60..63, VRAM row 3) into vacc; then M_MM (gp[rs1] = 7936: tile 1, c = 60) and
; twice M_TMM (gp[rs2] = 7936, the same tile and offset, read transposed) with the activation rows
; 3..6 accumulate into acc in program order (FP32 RNE). M_MM_WO writes acc to rows 20..23 columns
; 0..3; M_MV_WO writes the M_MV result alone to row 20 columns 8..11.
; Latencies: M_MV 13, M_MM 13, M_TMM 97, M_MM_WO 4, M_MV_WO 1.
S_ADDI_INT gp1, gp0, 192
S_ADDI_INT gp2, gp0, 7936
S_ADDI_INT gp5, gp0, 4156
M_MV 0, gp5, gp1
M_MM 0, gp2, gp1
M_TMM 0, gp1, gp2
M_TMM 0, gp1, gp2
S_ADDI_INT gp4, gp0, 1280
M_MM_WO gp4, gp0, 0
M_MV_WO gp4, 8
