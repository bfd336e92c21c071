; HBM jitter (isa.yaml hbm_jitter, docs/overlap.md section 12), dma_queue 2, hbm_jitter 2: the
; program of dma_queue_full with each transfer J cycles longer. J(seed, n) for seed 2 on 32-bit
; words, n the transfer number (DMA instructions issued before, from 0):
;   x = 2 ^ (n * 0x9E3779B9); h = x ^ (x >> 16); h *= 0x85EBCA6B; h ^= h >> 13; h *= 0xC2B2AE35;
;   h ^= h >> 16; J = (h * (HBM_JITTER_MAX + 1)) >> 32 = h >> 27 (HBM_JITTER_MAX 31 on default)
;   n = 0: x = 0x00000002, h = 0x30F4C306 (821347078),  J = 6
;   n = 1: x = 0x9E3779BB, h = 0xB4421BBB (3024231355), J = 22
;   n = 2: x = 0x3C6EF370, h = 0x99A3F6A4 (2577659556), J = 19
; Latencies (isa.yaml, preset default): H_PREFETCH_V = 24 + 4 * (1 + 1) = 32, plus J;
; S_ADDI_INT, C_SET_* 1.
; Timeline (section 2 issue/occupancy, section 3 hazards, section 4 s = max(c, f_prev),
; f = s + L + J):
;   pc 0-4  [0, 5)   STRIDE = 0, SCALE = 4096, gp1 = 256 (row 4), gp2 = 512 (row 8)
;   pc 5    [5, 6)   prefetch n = 0 issues in 5: s = 5, f = 5 + 32 + 6 = 43, rows [0, 4)
;   pc 6    [6, 7)   prefetch n = 1 issues in 6: s = max(6, 43) = 43, f = 43 + 32 + 22 = 97
;   pc 7    ready 7  prefetch n = 2: 2 pending (f = 43, 97): queue_full until 43; issues in 43,
;                    stall 36, occupies [43, 44); s = max(43, 97) = 97, f = 97 + 32 + 19 = 148
;   pc 8    [44, 45)
; cycles = max(45, 148) = 148; stalls queue_full 36. Without jitter (dma_queue_full): 101, stall
; 30. The data are dma_queue_full's (jitter moves cycles, not values).
C_SET_STRIDE_REG gp0
S_ADDI_INT gp5, gp0, 4096
C_SET_SCALE_REG gp5
S_ADDI_INT gp1, gp0, 256
S_ADDI_INT gp2, gp0, 512
H_PREFETCH_V gp0, gp0, a0, 1, 0
H_PREFETCH_V gp1, gp1, a0, 1, 0
H_PREFETCH_V gp2, gp2, a0, 1, 0
S_ADDI_INT gp3, gp0, 9
