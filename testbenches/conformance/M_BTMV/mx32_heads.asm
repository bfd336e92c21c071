; M_BTMV on mx32 (MX_BLOCK 32, HLEN 16, B = 4 heads): tile 2 (gp[rs1] = 8192; MRAM rows
; 128..191, all read, 66 bytes each, the two scale bytes differ in every row), read transposed:
; K runs along tile row c, element d is code Tile[c][r0+d] with row c's scale byte
; floor((r0+d)/32). The activation is head-contiguous ([B][HLEN]): head b's element d is
; A[b*16 + d]. hv[b][c] += tree_d((A[b*16 + d] x e4m3(Tile[c][r0+d])) x 2^(scale-127)) x 0.25.
; Two M_BTMV into the same hv, one on each side of the 32 boundary: r0 = 16 (gp[rd] = 16,
; columns 16..31, scale byte 0; floor((r0+d)/16) would give 1) with VRAM row 6 (gp[rs2] = 384),
; then r0 = 32 (columns 32..47, byte 1; floor(d/32) would give 0) with VRAM row 7 (448).
; Random data (expected values: scripts/conformance_mx32.py, an exact oracle). M_BMV_WO writes
; bf16_rne(hv[b]) to VRAM rows 16 + b and clears hv.
; Latencies: M_BTMV MLEN + B*MLEN + 1 = 321, M_BMV_WO B = 4.
S_ADDI_INT gp1, gp0, 8192
S_ADDI_INT gp3, gp0, 16
S_ADDI_INT gp2, gp0, 384
M_BTMV gp3, gp1, gp2
S_ADDI_INT gp3, gp0, 32
S_ADDI_INT gp2, gp0, 448
M_BTMV gp3, gp1, gp2
S_ADDI_INT gp4, gp0, 1024
M_BMV_WO gp4, 0
