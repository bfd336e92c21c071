; M_BMM: a = gp[rs1] = 8224: tile T = 2, row offset r0 = 32; reads MRAM rows 160..175 (tile rows 32..47; the rows around them hold other data).
; The activation is the 64 VRAM rows 100..163 (gp[rs2] = 6400), each laid out
; [HLEN][B] (head b's element d is A_m[d*4 + b]); only rows m = 0, 1, 63 are nonzero (rows 99 and 164 just
; outside the block are nonzero too and must not be read). For m < 64, b < 4, c < 64:
; hm[b*64 + m][c] += HDOT_m(b, c) x 0.25. M_BMM_WO writes bf16_rne(hm[i]) to VRAM row 1000 + i for
; i < 256: rows 1000 + 64b + m. Zero activation rows give +0.0. Expected values: scripts/oracle_bmm.py.
; Latencies: M_BMM 16401, M_BMM_WO B*MLEN + 1 = 257.
S_ADDI_INT gp1, gp0, 8224
S_ADDI_INT gp2, gp0, 6400
M_BMM 0, gp1, gp2
S_ADDI_INT gp4, gp0, 64000
M_BMM_WO gp4, 0
