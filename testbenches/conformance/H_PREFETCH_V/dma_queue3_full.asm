; DMA queue (docs/overlap.md), dma_queue 3 (machine.yaml's runtime maximum): a full queue of three.
; Four H_PREFETCH_V in a row: the third is queued with two pending, the fourth finds three pending
; and stalls (queue_full) until the first completes; it is queued in the cycle the first leaves.
; Latencies (isa.yaml, preset default: VLEN 64, MX_BLOCK 8, HBM_LATENCY 24, HBM_BYTES_PER_CYCLE
; 64, HBM_V_ROWS 4): H_PREFETCH_V = 24 + 4 * (ceil_div(64, 64) + ceil_div(8, 64)) = 32;
; S_ADDI_INT, C_SET_* 1.
; Timeline (section 2 issue/occupancy, section 3 hazards, section 4 s = max(c, f_prev), f = s + L):
;   pc 0-5  [0, 6)   STRIDE = 0, SCALE = 4096, gp1 = 256 (row 4), gp2 = 512 (row 8), gp4 = 768
;                    (row 12)
;   pc 6    [6, 7)   prefetch 1 issues in 6 (none pending): s = 6, f = 38, rows [0, 4)
;   pc 7    [7, 8)   prefetch 2 issues in 7 (1 pending): s = max(7, 38) = 38, f = 70, rows [4, 8)
;   pc 8    [8, 9)   prefetch 3 issues in 8 (2 pending < 3): s = max(8, 70) = 70, f = 102,
;                    rows [8, 12)
;   pc 9    ready 9  prefetch 4: 3 pending: queue_full until 38, when prefetch 1 is no longer
;                    pending (f > c fails); issues in 38, stall 29, occupies [38, 39);
;                    s = max(38, 102) = 102, f = 134, rows [12, 16)
;   pc 10   [39, 40)
; Program end with transfers pending (section 5): cycles = max(40, 134) = 134; stalls
; queue_full 29.
; Data: rstride 1, STRIDE 0: prefetch k reads codes HBM [o, o + 64) and scales [SCALE + o/8, +8)
; for every row, o = gp[rs1] = 0, 256, 512, 768: codes 0x38 (E4M3 1.0) and scales 127, 128, 129,
; 130, so rows 0..3 = 1.0, rows 4..7 = 2.0, rows 8..11 = 4.0, rows 12..15 = 8.0.
C_SET_STRIDE_REG gp0
S_ADDI_INT gp5, gp0, 4096
C_SET_SCALE_REG gp5
S_ADDI_INT gp1, gp0, 256
S_ADDI_INT gp2, gp0, 512
S_ADDI_INT gp4, gp0, 768
H_PREFETCH_V gp0, gp0, a0, 1, 0
H_PREFETCH_V gp1, gp1, a0, 1, 0
H_PREFETCH_V gp2, gp2, a0, 1, 0
H_PREFETCH_V gp4, gp4, a0, 1, 0
S_ADDI_INT gp3, gp0, 9
