; M_BMV on tile 0 with row offset r0 = 0 (a = gp[rs1] + gp[rd] = 0), activation VRAM row 5 with
; A[0] = 1.0 and every other element 0.0. Tile row 0 holds code 0x38 (E4M3 1.0) in column 0 and
; scale bytes [0xFE, 0x7F, ...]; every other tile byte is 0. Head 0, column 0, d = 0:
; q_0 = (1.0 * 1.0) * 2^(254 - 127) = 2^127 (exact), the tree adds zeros, times BMM_SCALE 0.25 =
; 2^125 = BF16 0x7E00 (numerics.md 5.1). Every other product has a zero activation or code: +0.
; M_BMV_WO writes hv[b] to VRAM rows 10 + b.
; Latencies: S_ADDI_INT 1, M_BMV HLEN + B*MLEN + 1 = 273, M_BMV_WO B = 4.
S_ADDI_INT gp2, gp0, 320
M_BMV gp0, gp0, gp2
S_ADDI_INT gp4, gp0, 640
M_BMV_WO gp4, 0
