; DMA queue (docs/overlap.md), dma_queue 3: transfers of every kind after every other, back to back
; (the engine starts each in the cycle the previous one completes, s = f_prev): the sequence
; M V M S S V S M (M = H_PREFETCH_M, V = H_PREFETCH_V, S = H_STORE_V) has the pairs MV, VM, MS, SS,
; SV, VS and SM.
; Latencies (isa.yaml, preset default: MLEN = VLEN = 64, MX_BLOCK 8, HBM_LATENCY 24,
; HBM_BYTES_PER_CYCLE 64, HBM_M_ROWS 64, HBM_V_ROWS 4): H_PREFETCH_M = 24 + 64 * (ceil_div(64, 64)
; + ceil_div(8, 64)) = 152, H_PREFETCH_V = 24 + 4 * 2 = 32, H_STORE_V = 24 + 1 + 4 * 2 = 33.
; Timeline (section 2 issue/occupancy, section 3 hazards, section 4 s = max(c, f_prev), f = s + L;
; a DMA instruction that finds 3 pending waits (queue_full) until the oldest completes):
;   pc 0  M1 issues in 0: s = 0, f = 152
;   pc 1  V1 issues in 1: s = 152, f = 184
;   pc 2  M2 issues in 2 (2 pending < 3): s = 184, f = 336
;   pc 3  S1 ready 3, 3 pending: issues in 152 (M1 done), stall 149; s = 336, f = 369
;   pc 4  S2 ready 153, 3 pending: issues in 184 (V1 done), stall 31; s = 369, f = 402
;   pc 5  V2 ready 185, 3 pending: issues in 336 (M2 done), stall 151; s = 402, f = 434
;   pc 6  S3 ready 337, 3 pending: issues in 369 (S1 done), stall 32; s = 434, f = 467
;   pc 7  M3 ready 370, 3 pending: issues in 402 (S2 done), stall 32; s = 467, f = 619
; cycles = max(403, 619) = 619; stalls queue_full 149 + 31 + 151 + 32 + 32 = 395.
; Data: SCALE = 0, every register 0, HBM all 0 (rstride 0, o = 0 + i*S): the prefetches write
; codes 0 and scales 0 to MRAM tile rows [0, 64) and 0.0 (0 * 2^-127) to VRAM rows [0, 4); the
; stores quantise those zero rows (amax 0: scale 0, codes 0) back into HBM [0, 256).
H_PREFETCH_M gp0, gp0, a0, 0, 0
H_PREFETCH_V gp0, gp0, a0, 0, 0
H_PREFETCH_M gp0, gp0, a0, 0, 0
H_STORE_V gp0, gp0, a0, 0, 0
H_STORE_V gp0, gp0, a0, 0, 0
H_PREFETCH_V gp0, gp0, a0, 0, 0
H_STORE_V gp0, gp0, a0, 0, 0
H_PREFETCH_M gp0, gp0, a0, 0, 0
