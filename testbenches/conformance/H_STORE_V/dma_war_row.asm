; DMA queue (docs/overlap.md), dma_queue 2: WAR on a VRAM row being stored. A V_ADD_VV that only
; reads a row of the store runs at once; one that writes a row of the store waits for the
; transfer, so the store reads the row's old value.
; Latencies (isa.yaml, preset default: VLEN 64, MX_BLOCK 8, HBM_LATENCY 24, HBM_BYTES_PER_CYCLE
; 64, HBM_V_ROWS 4): H_STORE_V = 24 + 1 + 4 * (ceil_div(64, 64) + ceil_div(8, 64)) = 33;
; V_ADD_VV 2; S_ADDI_INT, C_SET_SCALE_REG 1.
; Timeline (section 2 issue/occupancy, section 3 hazards, section 4 s = max(c, f_prev), f = s + L):
;   pc 0-2  [0, 3)   SCALE = 1024, gp1 = 128 (VRAM row 2)
;   pc 3    [3, 4)   H_STORE_V issues in c = 3; transfer s = 3, f = 3 + 33 = 36, it reads VRAM
;                    rows [128/64, +4) = [2, 6)
;   pc 4-5  [4, 6)   gp2 = 256 (row 4), gp3 = 640 (row 10)
;   pc 6    [6, 8)   V_ADD_VV row 10 = row 2 + row 2: reads row 2 (the transfer reads it too: no
;                    hazard), writes row 10 (outside [2, 6))
;   pc 7    ready 8  V_ADD_VV row 4 = row 2 + row 2 writes row 4, which the pending store reads:
;                    WAR, issues in 36, stall 28 (war), occupies [36, 38)
; cycles = max(38, 36) = 38, stalls war 28. Serial (dma_queue 0): 3 + 33 + 1 + 1 + 2 + 2 = 42.
; Data: rows 2..5 hold 1.0; row 4 and row 10 end as 2.0. The store (rstride 0: o = 64 * i) writes
; codes of row i to HBM [64i, 64i + 64) and scales to [SCALE + o/8, +8) = [1024 + 8i, +8).
; A block of 1.0: amax 1, e = 0 - 8 = -8, scale 119, code 1/2^-8 = 256 = E4M3 0x78 (120); so
; HBM [0, 256) = 120 and [1024, 1056) = 119. Had the store read row 4 after the V_ADD_VV wrote
; 2.0 (e = -7), HBM [1040, 1048) would hold 120.
S_ADDI_INT gp4, gp0, 1024
C_SET_SCALE_REG gp4
S_ADDI_INT gp1, gp0, 128
H_STORE_V gp1, gp0, a0, 0, 0
S_ADDI_INT gp2, gp0, 256
S_ADDI_INT gp3, gp0, 640
V_ADD_VV gp3, gp1, gp1
V_ADD_VV gp2, gp1, gp1
