; M_BTMV: a = gp[rs1] + gp[rd] = 8192 + 32: tile T = 2, r0 = 32. The tile is read transposed: K
; runs along tile row c, columns 32..47, each with its own scale (blocks 4 and 5 of row c). The
; activation VRAM row 6 is head-contiguous ([B][HLEN]): head b's element d is A[b*16 + d].
; hv[b][c] += tree_d((A[b*16 + d] x e4m3(Tile[c][32+d])) x 2^(scale-127)) x 0.25. Row 10 column 40
; holds the NaN code 0x7F, so hv[b][10] is NaN in every head.
; M_BMV_WO writes rows 16..19.
; Latencies: M_BTMV MLEN + B*MLEN + 1 = 321, M_BMV_WO 4.
S_ADDI_INT gp1, gp0, 8192
S_ADDI_INT gp3, gp0, 32
S_ADDI_INT gp2, gp0, 384
M_BTMV gp3, gp1, gp2
S_ADDI_INT gp4, gp0, 1024
M_BMV_WO gp4, 0
