; DMA queue (docs/overlap.md), dma_queue 2: two H_PREFETCH_M back to back share HBM one after
; the other (FIFO), while independent compute (an M_MM on tile 0 and its M_MM_WO) runs under
; them: 18 cycles of compute are hidden. An M_MM on the second tile then waits for it (RAW).
; Latencies (isa.yaml, preset default: MLEN 64, BLEN 4, MX_BLOCK 8, HBM_LATENCY 24,
; HBM_BYTES_PER_CYCLE 64, HBM_M_ROWS 64): H_PREFETCH_M = 24 + 64 * (ceil_div(64, 64) +
; ceil_div(8, 64)) = 152; M_MM = 4 + 64/8 + 1 = 13; M_MM_WO = BLEN = 4; S_ADDI_INT, C_SET_* 1.
; Timeline (section 2 issue/occupancy, section 3 hazards, section 4 s = max(c, f_prev), f = s + L):
;   pc 0-5  [0, 6)    STRIDE = 0, SCALE = 64, gp2 = 4096 (tile 1), gp3 = 8192 (tile 2), gp4 = 128
;   pc 6    [6, 7)    prefetch 1 issues in 6: s = 6, f = 158, MRAM rows [64, 128)
;   pc 7    [7, 8)    prefetch 2 issues in 7 (1 pending < 2): s = max(7, 158) = 158,
;                     f = 158 + 152 = 310, MRAM rows [128, 192)
;   pc 8    [8, 21)   M_MM on tile 0 (MRAM rows [0, 4), VRAM rows [0, 4)): no hazard
;   pc 9    [21, 22)
;   pc 10   [22, 26)  M_MM_WO: VRAM rows 10..13 (no transfer touches VRAM)
;   pc 11   ready 26  M_MM on tile 2 reads MRAM rows [8192/64, +4) = [128, 132): RAW with
;                     prefetch 2 (the youngest conflicting transfer), issues in 310, stall 284,
;                     occupies [310, 323)
;   pc 12   [323, 324)
;   pc 13   [324, 328) M_MM_WO: VRAM rows 16..19
; cycles = 328, stalls raw 284. Serial (dma_queue 0): 6 + 152 + 152 + 13 + 1 + 4 + 13 + 1 + 4 = 346:
; the 18 cycles [8, 26) ran under the transfers. (dma_queue 1: prefetch 2 waits for prefetch 1,
; queue_full 151, then raw 133, also 328.)
; Data: rstride 1, STRIDE 0: prefetch 1 reads codes HBM [0, 64) and scales [64 + 0/8, +8) =
; [64, 72), all 120 (0x78); prefetch 2 (o = gp4 = 128) codes [128, 192) and scales [64 + 16, +8)
; = [80, 88), all 112 (0x70). So MRAM rows 64..127 are all 120 and rows 128..191 all 112.
; Tile 0 rows 0..3 are initialised to 120, activation rows 0..3 to 1.0.
; M_MM on tile 0: E4M3 0x78 = 256, E8M0 120 = 2^-7; per block 8 * 256 = 2048 * 2^-7 = 16;
; 8 blocks: 128. M_MM on tile 2 (after M_MM_WO cleared acc): E4M3 0x70 = 2^(14-7) = 128,
; E8M0 112 = 2^-15; per block 8 * 128 = 1024 * 2^-15 = 2^-5; 8 blocks: 0.25.
; VRAM rows 10..13 elements 0..3 = 128.0, rows 16..19 elements 0..3 = 0.25.
C_SET_STRIDE_REG gp0
S_ADDI_INT gp1, gp0, 64
C_SET_SCALE_REG gp1
S_ADDI_INT gp2, gp0, 4096
S_ADDI_INT gp3, gp0, 8192
S_ADDI_INT gp4, gp0, 128
H_PREFETCH_M gp2, gp0, a0, 1, 0
H_PREFETCH_M gp3, gp4, a0, 1, 0
M_MM 0, gp0, gp0
S_ADDI_INT gp5, gp0, 640
M_MM_WO gp5, gp0, 0
M_MM 0, gp3, gp0
S_ADDI_INT gp6, gp0, 1024
M_MM_WO gp6, gp0, 0
