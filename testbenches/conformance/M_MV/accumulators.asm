; The M_MM accumulator and the M_MV vector accumulator are separate state: M_MM (tile 0, c = 0,
; activations VRAM rows 4..7 = 1.0) gives acc[i][j] = 64*(j+1); two M_MV on tile 0 with c = 0 and
; VRAM row 4 give vacc[j] = 128*(j+1). M_MV_WO writes vacc and clears only vacc; M_MM_WO then writes
; acc (untouched by M_MV / M_MV_WO); a second M_MV_WO writes +0.0.
; Latencies: M_MM 13, M_MV 13, M_MV_WO 1, M_MM_WO BLEN = 4.
S_ADDI_INT gp2, gp0, 256
M_MM 0, gp0, gp2
M_MV 0, gp0, gp2
M_MV 0, gp0, gp2
S_ADDI_INT gp5, gp0, 640
M_MV_WO gp5, 0     ; row 10 elements 0..3
M_MM_WO gp5, gp0, 4  ; rows 10..13 elements 4..7
M_MV_WO gp5, 8     ; row 10 elements 8..11 = +0.0
