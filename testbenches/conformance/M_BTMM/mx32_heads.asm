; M_BTMM on mx32 (MX_BLOCK 32, HLEN 16, B = 4 heads): tile 1 (MRAM rows 64..127, all read, 66
; bytes each, the two scale bytes differ in every row), read transposed: K runs along tile row
; c, element d is code Tile[c][r0+d] with row c's scale byte floor((r0+d)/32). The activation is
; the 64 VRAM rows 300..363 (gp[rs2] = 19200), each head-contiguous ([B][HLEN]: head b's element
; d is A_m[b*16 + d]); only m = 1 and 62 are nonzero (rows 299 and 364 just outside are nonzero
; too and must not be read). hm[b*64 + m][c] += tree_d((A_m[b*16 + d] x e4m3(Tile[c][r0+d])) x
; 2^(scale-127)) x 0.25. Two M_BTMM into the same hm, one on each side of the 32 boundary:
; r0 = 16 (gp[rs1] = 4112, scale byte 0; floor((r0+d)/16) would give 1), then r0 = 48 (4144,
; byte 1; floor(d/32) would give 0). M_BMM_WO writes bf16_rne(hm[i]) to VRAM row 2000 + i for
; i < 256 (prefilled with 7.0): rows 2000 + 64b + m; m = 1, 62 carry values, the zero
; activation rows give +0.0. Random data (expected values: scripts/conformance_mx32.py, an exact
; oracle).
; Latencies: M_BTMM MLEN + B*MLEN*MLEN + 1 = 16449, M_BMM_WO B*MLEN + 1 = 257.
S_ADDI_INT gp1, gp0, 4112
S_ADDI_INT gp2, gp0, 19200
M_BTMM 0, gp1, gp2
S_ADDI_INT gp1, gp0, 4144
M_BTMM 0, gp1, gp2
S_ADDI_INT gp4, gp0, 128000
M_BMM_WO gp4, 0
