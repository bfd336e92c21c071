; DMA queue (docs/overlap.md), dma_queue 3: DMA instructions issue in the cycles around the first
; transfer's completion, so one is queued in the cycle the first leaves the queue.
; Latencies (isa.yaml, preset default): H_PREFETCH_V = 24 + 4 * (ceil_div(64, 64) +
; ceil_div(8, 64)) = 32; S_ADDI_INT 1.
; Timeline (section 2 issue/occupancy, section 4 s = max(c, f_prev), f = s + L):
;   pc 0      [0, 1)    prefetch 1: s = 0, f = 32
;   pc 1-29   [1, 30)   29 x S_ADDI_INT: gp1 = 29
;   pc 30     [30, 31)  prefetch 2 (1 pending): s = 32, f = 64
;   pc 31     [31, 32)  prefetch 3 (2 pending < 3): s = 64, f = 96
;   pc 32     [32, 33)  prefetch 4: prefetch 1 is no longer pending (f = 32 > 32 fails), 2 pending:
;                       s = 96, f = 128
; cycles = max(33, 128) = 128, no stall.
; Data: SCALE = 0, HBM all 0 (rstride 0): every prefetch writes 0.0 to VRAM rows [0, 4).
H_PREFETCH_V gp0, gp0, a0, 0, 0
S_ADDI_INT gp1, gp1, 1
S_ADDI_INT gp1, gp1, 1
S_ADDI_INT gp1, gp1, 1
S_ADDI_INT gp1, gp1, 1
S_ADDI_INT gp1, gp1, 1
S_ADDI_INT gp1, gp1, 1
S_ADDI_INT gp1, gp1, 1
S_ADDI_INT gp1, gp1, 1
S_ADDI_INT gp1, gp1, 1
S_ADDI_INT gp1, gp1, 1
S_ADDI_INT gp1, gp1, 1
S_ADDI_INT gp1, gp1, 1
S_ADDI_INT gp1, gp1, 1
S_ADDI_INT gp1, gp1, 1
S_ADDI_INT gp1, gp1, 1
S_ADDI_INT gp1, gp1, 1
S_ADDI_INT gp1, gp1, 1
S_ADDI_INT gp1, gp1, 1
S_ADDI_INT gp1, gp1, 1
S_ADDI_INT gp1, gp1, 1
S_ADDI_INT gp1, gp1, 1
S_ADDI_INT gp1, gp1, 1
S_ADDI_INT gp1, gp1, 1
S_ADDI_INT gp1, gp1, 1
S_ADDI_INT gp1, gp1, 1
S_ADDI_INT gp1, gp1, 1
S_ADDI_INT gp1, gp1, 1
S_ADDI_INT gp1, gp1, 1
S_ADDI_INT gp1, gp1, 1
H_PREFETCH_V gp0, gp0, a0, 0, 0
H_PREFETCH_V gp0, gp0, a0, 0, 0
H_PREFETCH_V gp0, gp0, a0, 0, 0
