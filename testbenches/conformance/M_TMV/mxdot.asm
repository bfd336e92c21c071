; M_TMV: tile T = 2 (gp[rs1] = 2*4096 + 4 = 8196), column offset c = 4; the tile is read transposed:
; K runs over the 64 tile rows (MRAM rows 128..191), element k of column c+j is code row_k[c+j]
; scaled by row k's scale of block floor((c+j)/8) = 0, so every K element has its own scale.
; TXDOT per isa.yaml: q_t = (A[k] x e4m3, exact) x 2^(scale_k-127) FP32 RNE, pairwise tree, FP32 add.
; Column 0 K block 0 is [2^24, 1, 1, -2^24] x 1.0 (tree gives 1); K block 1 has per-row scales 0..7
; (each product rounds into FP32 subnormals on its own); row 56: A = 0x7F7F, column 3 code 448 with
; scale 254 (inf), columns 0..2 code 0; row 57 column 1 holds the NaN code 0x7F.
; Latencies: M_TMV MLEN + MLEN/MX_BLOCK + 1 = 73, M_MV_WO 1.
S_ADDI_INT gp1, gp0, 8196
S_ADDI_INT gp2, gp0, 256
M_TMV 0, gp1, gp2
S_ADDI_INT gp5, gp0, 640
M_MV_WO gp5, 20   ; row 10, elements 20..23
