; M_TMM on mx32 (MX_BLOCK 32): activation VRAM rows 4..7 (gp[rs1] = 256); tile 2 (MRAM rows
; 128..191, 66 bytes each: 64 codes, then 2 E8M0 scales, which differ in every row), read
; transposed: element k of column c+j is code row_k[c+j] with row k's scale of block
; floor((c+j)/32). TXDOT per isa.yaml (each product scaled, then the pairwise tree over 32, the
; two K blocks added in order). First c = 20 (gp[rs2] = 2*4096 + 20*64 = 9472): scale byte 0
; (floor(c/16) = 1 or floor(c/8) = 2 would be wrong). Then c = 44 (gp[rs2] = 11008): byte 1.
; acc[0][0] of c = 20: A row 0 = 2^24 at 0, 1 at 16 and 24, -2^24 at 32 against codes 1.0 with
; scale 127 (byte 1 of those rows is 130) -> (2^24 + 0) + (1 + 1) = 2^24 + 2, then -2^24 -> 2.
; acc[0][0] of c = 44: codes 0.5 with byte 1 = 130 -> (2^26 + 0) + (4 + 4), then -2^26 -> 8.
; Everything else random (expected values: scripts/conformance_mx32.py, an exact oracle).
; M_MM_WO writes rows 10..13, columns 20..23, then columns 44..47, and clears acc each time.
; Latencies: M_TMM MLEN + BLEN*MLEN/MX_BLOCK + 1 = 73, M_MM_WO BLEN = 4.
S_ADDI_INT gp1, gp0, 256
S_ADDI_INT gp2, gp0, 9472
M_TMM 0, gp1, gp2
S_ADDI_INT gp5, gp0, 640
M_MM_WO gp5, gp0, 20  ; rows 10..13 cols 20..23
S_ADDI_INT gp3, gp0, 11008
M_TMM 0, gp1, gp3
M_MM_WO gp5, gp0, 44  ; rows 10..13 cols 44..47
