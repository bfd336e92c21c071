; DMA queue (docs/overlap.md), dma_queue 3: WAR on VRAM rows being stored, at every queue
; occupancy. Three H_STORE_V fill the queue; a V_ADD_VV that writes row 10, which the third store
; reads, waits (war) while three, then two, then one transfer are pending, until the third
; completes, so the store reads the row's old value.
; Latencies (isa.yaml, preset default: VLEN 64, MX_BLOCK 8, HBM_LATENCY 24, HBM_BYTES_PER_CYCLE
; 64, HBM_V_ROWS 4): H_STORE_V = 24 + 1 + 4 * (ceil_div(64, 64) + ceil_div(8, 64)) = 33;
; V_ADD_VV 2; S_ADDI_INT, C_SET_SCALE_REG 1.
; Timeline (section 2 issue/occupancy, section 3 hazards, section 4 s = max(c, f_prev), f = s + L):
;   pc 0-6  [0, 7)   SCALE = 1024, gp1 = 128 (row 2), gp2 = 384 (row 6), gp3 = 640 (row 10),
;                    gp5 = 256, gp6 = 512
;   pc 7    [7, 8)   store 1 issues in 7: s = 7, f = 40, reads rows [2, 6)
;   pc 8    [8, 9)   store 2 issues in 8: s = max(8, 40) = 40, f = 73, reads rows [6, 10)
;   pc 9    [9, 10)  store 3 issues in 9 (2 pending < 3): s = max(9, 73) = 73, f = 106, reads
;                    rows [10, 14)
;   pc 10   ready 10 V_ADD_VV row 10 = row 2 + row 2 reads row 2 (store 1 reads it too: no hazard)
;                    and writes row 10, which the pending store 3 reads: WAR, issues in 106,
;                    stall 96 (war), occupies [106, 108)
; cycles = max(108, 106) = 108, stalls war 96.
; Data: rows 2..13 hold 1.0; row 10 ends 2.0. Store k (rstride 0: o_i = gp[rs1] + 64 * i) writes
; the codes of its row i to HBM [o_i, o_i + 64) and the scales to [SCALE + o_i/8, +8), gp[rs1] =
; 0, 256, 512. A block of 1.0: amax 1, e = 0 - 8 = -8, scale 119, code 1/2^-8 = 256 = E4M3 0x78
; (120); so HBM [0, 768) = 120 and [1024, 1120) = 119. Had store 3 read row 10 after the
; V_ADD_VV wrote 2.0 (e = -7), HBM [1088, 1096) would hold 120.
S_ADDI_INT gp4, gp0, 1024
C_SET_SCALE_REG gp4
S_ADDI_INT gp1, gp0, 128
S_ADDI_INT gp2, gp0, 384
S_ADDI_INT gp3, gp0, 640
S_ADDI_INT gp5, gp0, 256
S_ADDI_INT gp6, gp0, 512
H_STORE_V gp1, gp0, a0, 0, 0
H_STORE_V gp2, gp5, a0, 0, 0
H_STORE_V gp3, gp6, a0, 0, 0
V_ADD_VV gp3, gp1, gp1
