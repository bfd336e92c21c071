; M_BMV on mx32 (MX_BLOCK 32, HLEN 16, B = 4 heads): a = gp[rs1] + gp[rd] = 12288 + 16: tile
; 3, row offset r0 = 16, MRAM rows 208..223 (66 bytes each; rows 207 and 224 hold other data).
; Activation VRAM row 5 (gp[rs2] = 320), [HLEN][B]: head b's element d is A[d*4 + b]. W[r][c] is
; code Tile[r][c] with row r's scale byte floor(c/32): one scale covers two heads' worth of
; columns (0..31 byte 0, 32..63 byte 1; the two bytes differ in every row, so indexing the scale
; by floor(c/16) or floor(c/8) fails). hv[b][c] += tree_d((A[d*4 + b] x e4m3(W[16+d][c])) x
; 2^(scale-127)) x 0.25 (BMM_SCALE). Random data (expected values: scripts/conformance_mx32.py,
; an exact oracle). M_BMV_WO writes bf16_rne(hv[b]) to VRAM rows 10 + b and clears hv.
; Latencies: M_BMV HLEN + B*MLEN + 1 = 273, M_BMV_WO B = 4.
S_ADDI_INT gp1, gp0, 12288
S_ADDI_INT gp3, gp0, 16
S_ADDI_INT gp2, gp0, 320
M_BMV gp3, gp1, gp2
S_ADDI_INT gp4, gp0, 640
M_BMV_WO gp4, 0
