; HBM jitter (isa.yaml hbm_jitter, docs/overlap.md section 12), dma_queue 2, hbm_jitter 3: WAR
; on a VRAM row being stored (the program of dma_war_row) with the store J cycles longer. The
; transfer waits J cycles before it reads its first VRAM row, so the write of row 4 must wait
; for the whole jittered transfer.
; J(3, 0) (HBM_JITTER_MAX 31 on default: J = h >> 27): x = 3 ^ 0 = 0x00000003;
;   h = x ^ (x >> 16) = 3; h *= 0x85EBCA6B; h ^= h >> 13; h *= 0xC2B2AE35; h ^= h >> 16
;   = 0x85F0B427 (2247144487): J = 16.
; Latencies (isa.yaml, preset default): H_STORE_V = 24 + 1 + 4 * (1 + 1) = 33, plus J;
; V_ADD_VV 2; S_ADDI_INT, C_SET_SCALE_REG 1.
; Timeline (section 2 issue/occupancy, section 3 hazards, section 4, f = s + L + J):
;   pc 0-2  [0, 3)   SCALE = 1024, gp1 = 128 (VRAM row 2)
;   pc 3    [3, 4)   H_STORE_V n = 0 issues in 3; s = 3, f = 3 + 33 + 16 = 52, reads rows [2, 6)
;   pc 4-5  [4, 6)   gp2 = 256 (row 4), gp3 = 640 (row 10)
;   pc 6    [6, 8)   V_ADD_VV row 10 = row 2 + row 2: reads row 2 only, no hazard
;   pc 7    ready 8  V_ADD_VV writes row 4, which the pending store reads: WAR, issues in 52,
;                    stall 44 (war), occupies [52, 54)
; cycles = max(54, 52) = 54, stalls war 44. Without jitter (dma_war_row): 38, war 28. The data
; are dma_war_row's: HBM holds row 4's old value 1.0 (scale 119).
S_ADDI_INT gp4, gp0, 1024
C_SET_SCALE_REG gp4
S_ADDI_INT gp1, gp0, 128
H_STORE_V gp1, gp0, a0, 0, 0
S_ADDI_INT gp2, gp0, 256
S_ADDI_INT gp3, gp0, 640
V_ADD_VV gp3, gp1, gp1
V_ADD_VV gp2, gp1, gp1
