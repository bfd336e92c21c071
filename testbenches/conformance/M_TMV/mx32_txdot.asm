; M_TMV on mx32 (MX_BLOCK 32): tile 2, column offset c = 36 (gp[rs1] = 2*4096 + 36 = 8228); the
; tile is read transposed: K runs over the 64 tile rows (MRAM rows 128..191, 66 bytes each), and
; element k of column 36+j is code row_k[36+j] with row k's scale of block floor((36+j)/32) = 1
; (its second scale byte), so every K element has its own scale. TXDOT per isa.yaml: K blocks of
; 32 tile rows, q_t = (A[k] x e4m3, exact) x 2^(scale_k-127), the pairwise tree over 32, blocks
; added in K order. Column 36: A = 2^24 at 0, 1 at 16 and 24, -2^24 at 32 against codes 1.0
; (scale 127) -> (2^24 + 0) + (1 + 1) = 2^24 + 2, then -2^24 -> 2. Columns 37..39 random
; (expected values: scripts/conformance_mx32.py, an exact oracle).
; Latencies: M_TMV MLEN + MLEN/MX_BLOCK + 1 = 67, M_MV_WO 1.
S_ADDI_INT gp1, gp0, 8228
S_ADDI_INT gp2, gp0, 256
M_TMV 0, gp1, gp2
S_ADDI_INT gp5, gp0, 640
M_MV_WO gp5, 20   ; row 10, elements 20..23
