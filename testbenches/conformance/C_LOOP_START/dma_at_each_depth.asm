; An H_PREFETCH_V in the body of a loop at each depth 1 .. LOOP_DEPTH = 4 (counts 1: each body runs
; once), serial machine (dma_queue 0: each transfer occupies its instruction). C_LOOP_START gpN, 1
; sets gpN = 1; each C_LOOP_END finds gpN = 1, sets it to 0 and falls through.
; Data: SCALE = 0 and HBM all 0: every prefetch (rstride 0, o = 64 * i) reads codes 0 with scale
; 0, and writes 0.0 (0 * 2^-127) to VRAM rows [0, 4).
; Latencies (isa.yaml, preset default): C_LOOP_START, C_LOOP_END 1; H_PREFETCH_V = 24 + 4 *
; (ceil_div(64, 64) + ceil_div(8, 64)) = 32. Retired 12; cycles 8 * 1 + 4 * 32 = 136.
C_LOOP_START gp1, 1
H_PREFETCH_V gp0, gp0, a0, 0, 0
C_LOOP_START gp2, 1
H_PREFETCH_V gp0, gp0, a0, 0, 0
C_LOOP_START gp3, 1
H_PREFETCH_V gp0, gp0, a0, 0, 0
C_LOOP_START gp4, 1
H_PREFETCH_V gp0, gp0, a0, 0, 0
C_LOOP_END gp4
C_LOOP_END gp3
C_LOOP_END gp2
C_LOOP_END gp1
