; HBM jitter (isa.yaml hbm_jitter, docs/overlap.md section 12), dma_queue 2, hbm_jitter 7: RAW
; on an MRAM tile being prefetched (the program of dma_raw_tile) with the prefetch J cycles
; longer: the M_MM waits for the jittered completion and reads the prefetched weights.
; J(7, 0) (HBM_JITTER_MAX 31 on default: J = h >> 27): x = 7 ^ 0 = 0x00000007;
;   h = x ^ (x >> 16) = 7; h *= 0x85EBCA6B; h ^= h >> 13; h *= 0xC2B2AE35; h ^= h >> 16
;   = 0x18C9AEC4 (415870660): J = 3.
; Latencies (isa.yaml, preset default): H_PREFETCH_M = 24 + 64 * (1 + 1) = 152, plus J; M_MM 13;
; M_MM_WO 4; S_ADDI_INT, C_SET_SCALE_REG, C_SET_STRIDE_REG 1.
; Timeline (section 2 issue/occupancy, section 3 hazards, section 4, f = s + L + J):
;   pc 0-3  [0, 4)    SCALE = 64, STRIDE = 0, gp2 = 4096 (tile 1: MRAM rows [64, 128))
;   pc 4    [4, 5)    H_PREFETCH_M n = 0 issues in 4; s = 4, f = 4 + 152 + 3 = 159
;   pc 5    [5, 6)    S_ADDI_INT
;   pc 6    ready 6   M_MM reads MRAM rows [64, 68): RAW, issues in 159, stall 153 (raw),
;                     occupies [159, 172)
;   pc 7    [172, 173)
;   pc 8    [173, 177) M_MM_WO
; cycles = max(177, 159) = 177, stalls raw 153. Without jitter (dma_raw_tile): 174, raw 150. The
; data are dma_raw_tile's: rows 10..13 elements 0..3 = 128.0.
S_ADDI_INT gp1, gp0, 64
C_SET_SCALE_REG gp1
C_SET_STRIDE_REG gp0
S_ADDI_INT gp2, gp0, 4096
H_PREFETCH_M gp2, gp0, a0, 1, 0
S_ADDI_INT gp3, gp0, 128
M_MM 0, gp2, gp3
S_ADDI_INT gp4, gp0, 640
M_MM_WO gp4, gp0, 0
