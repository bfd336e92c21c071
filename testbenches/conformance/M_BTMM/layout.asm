; M_BTMM: a = gp[rs1] = 4144: tile T = 1, row offset r0 = 48; reads all 64 rows of tile 1, columns 48..63.
; The activation is the 64 VRAM rows 300..363 (gp[rs2] = 19200), each laid out
; [B][HLEN] (head b's element d is A_m[b*16 + d]); only rows m = 0, 2, 62 are nonzero (rows 299 and 364 just
; outside the block are nonzero too and must not be read). For m < 64, b < 4, c < 64:
; hm[b*64 + m][c] += HDOT_m(b, c) x 0.25. M_BMM_WO writes bf16_rne(hm[i]) to VRAM row 2000 + i for
; i < 256: rows 2000 + 64b + m. Zero activation rows give +0.0. Expected values: scripts/oracle_bmm.py.
; Latencies: M_BTMM 16449, M_BMM_WO B*MLEN + 1 = 257.
S_ADDI_INT gp1, gp0, 4144
S_ADDI_INT gp2, gp0, 19200
M_BTMM 0, gp1, gp2
S_ADDI_INT gp4, gp0, 128000
M_BMM_WO gp4, 0
