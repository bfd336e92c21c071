; M_BMM on mx32 (MX_BLOCK 32, HLEN 16, B = 4 heads): a = gp[rs1] = 8208: tile 2, row offset
; r0 = 16, MRAM rows 144..159 (66 bytes each, the two scale bytes differ in every row; rows 143
; and 160 hold other data). The activation is the 64 VRAM rows 100..163 (gp[rs2] = 6400), each
; [HLEN][B] (head b's element d is A_m[d*4 + b]); only m = 0 and 63 are nonzero (rows 99 and 164
; just outside are nonzero too and must not be read). W[r][c] is code Tile[r][c] with row r's
; scale byte floor(c/32): columns 0..31 byte 0, 32..63 byte 1 (floor(c/16) or floor(c/8) fail).
; hm[b*64 + m][c] += tree_d((A_m[d*4 + b] x e4m3(W[16+d][c])) x 2^(scale-127)) x 0.25.
; M_BMM_WO writes bf16_rne(hm[i]) to VRAM row 1000 + i for i < 256 (prefilled with 7.0): rows
; 1000 + 64b + m; m = 0, 63 carry values, the zero activation rows give +0.0. Random data
; (expected values: scripts/conformance_mx32.py, an exact oracle).
; Latencies: M_BMM HLEN + B*MLEN*MLEN + 1 = 16401, M_BMM_WO B*MLEN + 1 = 257.
S_ADDI_INT gp1, gp0, 8208
S_ADDI_INT gp2, gp0, 6400
M_BMM 0, gp1, gp2
S_ADDI_INT gp4, gp0, 64000
M_BMM_WO gp4, 0
