; DMA queue (docs/overlap.md), dma_queue 3: program end with a non-empty queue. An H_PREFETCH_V
; and an H_STORE_V of the same VRAM rows are queued; the store does not wait at issue (a DMA
; instruction has no region hazard, section 3) but its transfer runs after the prefetch's (FIFO),
; so it stores the prefetched values. The program's last instruction ends long before the store
; completes: the run ends when the queue has drained (section 5).
; Latencies (isa.yaml, preset default: VLEN 64, MX_BLOCK 8, HBM_LATENCY 24, HBM_BYTES_PER_CYCLE
; 64, HBM_V_ROWS 4): H_PREFETCH_V = 24 + 4 * (ceil_div(64, 64) + ceil_div(8, 64)) = 32;
; H_STORE_V = 24 + 1 + 4 * 2 = 33; S_ADDI_INT, C_SET_* 1.
; Timeline (section 2 issue/occupancy, section 3 hazards, section 4 s = max(c, f_prev), f = s + L):
;   pc 0-3  [0, 4)   STRIDE = 0, SCALE = 2048, gp1 = 1024
;   pc 4    [4, 5)   H_PREFETCH_V issues in 4: s = 4, f = 36, writes rows [0, 4)
;   pc 5    [5, 6)   H_STORE_V issues in 5 (1 pending < 3): s = max(5, 36) = 36, f = 36 + 33 = 69,
;                    reads rows [0, 4)
;   pc 6    [6, 7)   the last instruction; the program has ended at 7 with 2 transfers pending
; cycles = max(7, 69) = 69, no stall. Serial (dma_queue 0): 4 + 32 + 33 + 1 = 70.
; Data: the prefetch (rstride 1, STRIDE 0) reads codes HBM [0, 64) = 0x38 (E4M3 1.0) and scales
; [2048, 2056) = 127 for every row: rows 0..3 = 1.0. The store (rstride 0, o = 1024 + 64i) writes
; codes to HBM [1024 + 64i, +64) = [1024, 1280) and scales to [2048 + o/8, +8) = [2176, 2208).
; A block of 1.0: amax 1, e = -8, scale 119, code 256 = 0x78 (120). A store that read the rows
; before the prefetch landed (zeros: scale 0, codes 0) would leave other bytes.
C_SET_STRIDE_REG gp0
S_ADDI_INT gp4, gp0, 2048
C_SET_SCALE_REG gp4
S_ADDI_INT gp1, gp0, 1024
H_PREFETCH_V gp0, gp0, a0, 1, 0
H_STORE_V gp0, gp1, a0, 0, 0
S_ADDI_INT gp2, gp0, 7
