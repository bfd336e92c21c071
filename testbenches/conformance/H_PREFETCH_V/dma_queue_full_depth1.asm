; DMA queue (docs/overlap.md), dma_queue 1: the program of dma_queue_full (three H_PREFETCH_V in a
; row) with a queue of one: every prefetch after the first waits for the one before.
; Latencies (isa.yaml, preset default: VLEN 64, MX_BLOCK 8, HBM_LATENCY 24, HBM_BYTES_PER_CYCLE
; 64, HBM_V_ROWS 4): H_PREFETCH_V = 24 + 4 * (ceil_div(64, 64) + ceil_div(8, 64)) = 32;
; S_ADDI_INT, C_SET_* 1.
; Timeline (section 2 issue/occupancy, section 3 hazards, section 4 s = max(c, f_prev), f = s + L):
;   pc 0-4  [0, 5)   STRIDE = 0, SCALE = 4096, gp1 = 256 (row 4), gp2 = 512 (row 8)
;   pc 5    [5, 6)   prefetch 1 issues in 5: s = 5, f = 37, rows [0, 4)
;   pc 6    ready 6  1 pending (f = 37): queue_full until 37, stall 31, [37, 38);
;                    s = max(37, 37) = 37, f = 69, rows [4, 8)
;   pc 7    ready 38 1 pending (f = 69): queue_full until 69, stall 31, [69, 70);
;                    s = max(69, 69) = 69, f = 101, rows [8, 12)
;   pc 8    [70, 71)
; cycles = max(71, 101) = 101 (section 5); stalls queue_full 31 + 31 = 62 (dma_queue 2: 30;
; serial: 102 cycles, no stall).
; Data as dma_queue_full: rows 0..3 = 1.0, rows 4..7 = 2.0, rows 8..11 = 4.0.
C_SET_STRIDE_REG gp0
S_ADDI_INT gp5, gp0, 4096
C_SET_SCALE_REG gp5
S_ADDI_INT gp1, gp0, 256
S_ADDI_INT gp2, gp0, 512
H_PREFETCH_V gp0, gp0, a0, 1, 0
H_PREFETCH_V gp1, gp1, a0, 1, 0
H_PREFETCH_V gp2, gp2, a0, 1, 0
S_ADDI_INT gp3, gp0, 9
