; DMA queue (docs/overlap.md), dma_queue 2: a full queue. Three H_PREFETCH_V in a row: the third
; finds two transfers pending and stalls (queue_full) until the first completes; the transfers
; run one after another (FIFO) and the program ends when the last completes.
; Latencies (isa.yaml, preset default: VLEN 64, MX_BLOCK 8, HBM_LATENCY 24, HBM_BYTES_PER_CYCLE
; 64, HBM_V_ROWS 4): H_PREFETCH_V = 24 + 4 * (ceil_div(64, 64) + ceil_div(8, 64)) = 32;
; S_ADDI_INT, C_SET_* 1.
; Timeline (section 2 issue/occupancy, section 3 hazards, section 4 s = max(c, f_prev), f = s + L):
;   pc 0-4  [0, 5)   STRIDE = 0, SCALE = 4096, gp1 = 256 (row 4), gp2 = 512 (row 8)
;   pc 5    [5, 6)   prefetch 1 issues in 5 (none pending): s = 5, f = 37, rows [0, 4)
;   pc 6    [6, 7)   prefetch 2 issues in 6 (1 pending < 2): s = max(6, 37) = 37, f = 69, rows [4, 8)
;   pc 7    ready 7  prefetch 3: 2 pending (f = 37, 69): queue_full until 37, when prefetch 1 is no
;                    longer pending (f > c fails); issues in 37, stall 30, occupies [37, 38);
;                    s = max(37, 69) = 69, f = 101, rows [8, 12)
;   pc 8    [38, 39)
; Program end with transfers pending (section 5): cycles = max(39, 101) = 101; stalls
; queue_full 30. Serial (dma_queue 0): 5 + 3 * 32 + 1 = 102. (dma_queue 1: pc 6 waits 31 and pc 7
; waits 31, queue_full 62, still 101 cycles; dma_queue 3: no stall, 101.)
; Data: rstride 1, STRIDE 0: prefetch k reads codes HBM [o, o + 64) and scales [SCALE + o/8, +8)
; for every row, o = gp[rs1] = 0, 256, 512: codes 0x38 (E4M3 1.0) and scales 127, 128, 129, so
; rows 0..3 = 1.0, rows 4..7 = 2.0, rows 8..11 = 4.0.
C_SET_STRIDE_REG gp0
S_ADDI_INT gp5, gp0, 4096
C_SET_SCALE_REG gp5
S_ADDI_INT gp1, gp0, 256
S_ADDI_INT gp2, gp0, 512
H_PREFETCH_V gp0, gp0, a0, 1, 0
H_PREFETCH_V gp1, gp1, a0, 1, 0
H_PREFETCH_V gp2, gp2, a0, 1, 0
S_ADDI_INT gp3, gp0, 9
