; M_TMV on tile 0, column offset c = 0, activation VRAM row 4 (every element 0.0): tile row 0's
; scale bytes are 0xFF (E8M0 NaN), every other tile byte 0. Output column j takes row 0's scale of
; block floor(j / MX_BLOCK) = 0, so q_0 = (0 * e4m3(0)) * 2^(0xFF - 127) = NaN (numerics.md 5,
; M_TMV step 1: scale 0xFF gives NaN), which the tree and the accumulation keep: vacc[0..3] = NaN,
; written as 0x7FC0 by M_MV_WO into row 10, elements 0..3.
; Latencies: S_ADDI_INT 1, M_TMV MLEN + MLEN/MX_BLOCK + 1 = 73, M_MV_WO 1.
S_ADDI_INT gp2, gp0, 256
M_TMV 0, gp0, gp2
S_ADDI_INT gp5, gp0, 640
M_MV_WO gp5, 0
