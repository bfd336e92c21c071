; HBM jitter (isa.yaml hbm_jitter, docs/overlap.md section 12) on the serial machine,
; dma_queue 0, hbm_jitter 2: each DMA instruction occupies the core for its latency plus its
; transfer's jitter J. The program of dma_queue_full; J for seed 2 (derived in
; jitter_queue_full.asm, HBM_JITTER_MAX 31: J = h >> 27): n = 0: 6, n = 1: 22, n = 2: 19.
; Latencies (isa.yaml, preset default): H_PREFETCH_V = 32, plus J; S_ADDI_INT, C_SET_* 1.
; Timeline (serial: each instruction starts when its predecessor ends):
;   pc 0-4  [0, 5)
;   pc 5    [5, 43)     32 + 6
;   pc 6    [43, 97)    32 + 22
;   pc 7    [97, 148)   32 + 19
;   pc 8    [148, 149)
; cycles 149, no stall. Without jitter: 5 + 3 * 32 + 1 = 102.
C_SET_STRIDE_REG gp0
S_ADDI_INT gp5, gp0, 4096
C_SET_SCALE_REG gp5
S_ADDI_INT gp1, gp0, 256
S_ADDI_INT gp2, gp0, 512
H_PREFETCH_V gp0, gp0, a0, 1, 0
H_PREFETCH_V gp1, gp1, a0, 1, 0
H_PREFETCH_V gp2, gp2, a0, 1, 0
S_ADDI_INT gp3, gp0, 9
