; DMA queue (docs/overlap.md), dma_queue 2: RAW on an MRAM tile being prefetched. An M_MM reads
; rows of the tile right after the H_PREFETCH_M that writes it: it stalls until the transfer
; completes, then reads the prefetched weights.
; Latencies (isa.yaml, preset default: MLEN 64, BLEN 4, MX_BLOCK 8, HBM_LATENCY 24,
; HBM_BYTES_PER_CYCLE 64, HBM_M_ROWS 64): H_PREFETCH_M = 24 + 64 * (ceil_div(64, 64) +
; ceil_div(8, 64)) = 24 + 64 * 2 = 152; M_MM = BLEN + MLEN / MX_BLOCK + 1 = 13; M_MM_WO = BLEN = 4;
; S_ADDI_INT, C_SET_SCALE_REG, C_SET_STRIDE_REG 1.
; Timeline (section 2 issue/occupancy, section 3 hazards, section 4 s = max(c, f_prev), f = s + L):
;   pc 0-3  [0, 4)    SCALE = 64, STRIDE = 0, gp2 = 4096 (tile 1: MRAM rows [64, 128))
;   pc 4    [4, 5)    H_PREFETCH_M issues in c = 4 and occupies the core one cycle; transfer
;                     s = max(4, 0) = 4, f = 4 + 152 = 156, region MRAM rows [64, 128)
;   pc 5    [5, 6)    S_ADDI_INT: no footprint
;   pc 6    ready 6   M_MM reads MRAM rows [4096/64, +BLEN) = [64, 68): RAW with the pending
;                     transfer (f = 156 > 6): issues in 156, stall 150 (raw), occupies [156, 169)
;   pc 7    [169, 170)
;   pc 8    [170, 174) M_MM_WO
; cycles = max(174, 156) = 174, stalls raw 150. Serial (dma_queue 0): 4 + 152 + 1 + 13 + 1 + 4
; = 175, no stall.
; Data: rstride 1 with STRIDE 0 moves the same HBM row 64 times: row i codes from a0 + 0 = HBM
; [0, 64), scales from a0 + SCALE + 0/8 = HBM [64, 72); all 72 bytes are 120 (0x78), so every
; byte of MRAM rows 64..127 is 120. E4M3 0x78 = 2^(15-7) = 256, E8M0 120 = 2^-7: weight 2.0.
; Activation rows 2..5 are 1.0: per K block 8 * 256 = 2048 (exact tree), * 2^-7 = 16; 8 blocks:
; acc[i][j] = 128 (a transfer that landed after the M_MM read would give 0). M_MM_WO writes
; rows 10..13 elements 0..3 = 128.0.
S_ADDI_INT gp1, gp0, 64
C_SET_SCALE_REG gp1
C_SET_STRIDE_REG gp0
S_ADDI_INT gp2, gp0, 4096
H_PREFETCH_M gp2, gp0, a0, 1, 0
S_ADDI_INT gp3, gp0, 128
M_MM 0, gp2, gp3
S_ADDI_INT gp4, gp0, 640
M_MM_WO gp4, gp0, 0
