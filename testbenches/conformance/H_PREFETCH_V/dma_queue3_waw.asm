; DMA queue (docs/overlap.md), dma_queue 3: WAW on VRAM rows being prefetched, at every queue
; occupancy. Three H_PREFETCH_V fill the queue; a V_ADD_VV that writes row 8, which the third
; prefetch writes, waits (waw) while three, then two, then one transfer are pending, until the third
; completes, and so overwrites the prefetched row.
; Latencies (isa.yaml, preset default: VLEN 64, MX_BLOCK 8, HBM_LATENCY 24, HBM_BYTES_PER_CYCLE
; 64, HBM_V_ROWS 4): H_PREFETCH_V = 24 + 4 * (ceil_div(64, 64) + ceil_div(8, 64)) = 32;
; V_ADD_VV 2; S_ADDI_INT, C_SET_* 1.
; Timeline (section 2 issue/occupancy, section 3 hazards, section 4 s = max(c, f_prev), f = s + L):
;   pc 0-5  [0, 6)   STRIDE = 0, SCALE = 4096, gp1 = 256 (row 4), gp2 = 512 (row 8), gp6 = 1280
;                    (row 20)
;   pc 6    [6, 7)   prefetch 1 issues in 6: s = 6, f = 38, rows [0, 4)
;   pc 7    [7, 8)   prefetch 2 issues in 7: s = max(7, 38) = 38, f = 70, rows [4, 8)
;   pc 8    [8, 9)   prefetch 3 issues in 8 (2 pending < 3): s = max(8, 70) = 70, f = 102,
;                    rows [8, 12)
;   pc 9    ready 9  V_ADD_VV row 8 = row 20 + row 20 writes row 8 of the pending prefetch 3:
;                    WAW, issues in 102, stall 93 (waw), occupies [102, 104)
; cycles = max(104, 102) = 104, stalls waw 93.
; Data: rstride 1, STRIDE 0: prefetch k reads codes HBM [o, o + 64) and scales [SCALE + o/8, +8)
; for every row, o = gp[rs1] = 0, 256, 512: codes 0x38 (E4M3 1.0) and scales 127, 128, 129, so
; rows 0..3 = 1.0, rows 4..7 = 2.0, rows 8..11 = 4.0; row 20 holds 0.0 (memories start at 0).
; Row 8 ends 0.0 + 0.0 = 0.0 (written after prefetch 3), rows 9..11 stay 4.0.
C_SET_STRIDE_REG gp0
S_ADDI_INT gp5, gp0, 4096
C_SET_SCALE_REG gp5
S_ADDI_INT gp1, gp0, 256
S_ADDI_INT gp2, gp0, 512
S_ADDI_INT gp6, gp0, 1280
H_PREFETCH_V gp0, gp0, a0, 1, 0
H_PREFETCH_V gp1, gp1, a0, 1, 0
H_PREFETCH_V gp2, gp2, a0, 1, 0
V_ADD_VV gp2, gp6, gp6
