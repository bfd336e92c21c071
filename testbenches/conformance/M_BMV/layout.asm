; M_BMV: a = gp[rs1] + gp[rd] = 12288 + 16: tile T = 3, row offset r0 = 16 (MRAM rows 208..223 are
; read; rows 192..207 hold other data, so ignoring gp[rd] shows). The activation is VRAM row 5
; (gp[rs2] = 320) in PLENA's [HLEN][B] layout: head b's element d is A[d*B + b] (B = MLEN/HLEN = 4).
; For b < 4, c < 64: hv[b][c] += tree_d((A[d*4 + b] x e4m3(W[16+d][c])) x 2^(scale-127)) x 0.25
; (BMM_SCALE), W[r][c] with row r's scale of block floor(c/8). Row 20 (d = 4) has scale 0xFF in
; block 7, so columns 56..63 are NaN in every head.
; M_BMV_WO writes bf16_rne(hv[b]) to VRAM rows 10 + b and clears hv.
; Latencies: M_BMV HLEN + B*MLEN + 1 = 273, M_BMV_WO B = 4.
S_ADDI_INT gp1, gp0, 12288
S_ADDI_INT gp3, gp0, 16
S_ADDI_INT gp2, gp0, 320
M_BMV gp3, gp1, gp2
S_ADDI_INT gp4, gp0, 640
M_BMV_WO gp4, 0
