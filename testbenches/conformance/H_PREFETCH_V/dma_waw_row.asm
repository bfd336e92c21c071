; DMA queue (docs/overlap.md), dma_queue 2: WAW on VRAM rows being prefetched. A V_ADD_VV that
; writes a row the pending H_PREFETCH_V writes waits for the transfer, so its own value is the
; row's final value, as in program order.
; Latencies (isa.yaml, preset default: VLEN 64, MX_BLOCK 8, HBM_LATENCY 24, HBM_BYTES_PER_CYCLE
; 64, HBM_V_ROWS 4): H_PREFETCH_V = 24 + 4 * (ceil_div(64, 64) + ceil_div(8, 64)) = 32;
; V_ADD_VV 2; S_ADDI_INT, C_SET_* 1.
; Timeline (section 2 issue/occupancy, section 3 hazards, section 4 s = max(c, f_prev), f = s + L):
;   pc 0-3  [0, 4)   STRIDE = 0, SCALE = 4096, gp1 = 256 (VRAM row 4)
;   pc 4    [4, 5)   H_PREFETCH_V issues in c = 4; transfer s = 4, f = 36, writes rows [4, 8)
;   pc 5    [5, 6)   S_ADDI_INT: no footprint
;   pc 6    ready 6  V_ADD_VV row 4 = row 0 + row 0: reads row 0 (no hazard), writes row 4: WAW
;                    with the pending transfer, issues in 36, stall 30 (waw), occupies [36, 38)
; cycles = max(38, 36) = 38, stalls waw 30. Serial (dma_queue 0): 4 + 32 + 1 + 2 = 39.
; Data: rstride 1, STRIDE 0: every row i reads codes HBM [0, 64) (0x38: E4M3 1.0) and scales
; [SCALE + 0/8, +8) = [4096, 4104) (127: 2^0), so rows 4..7 = 1.0; then row 4 = 2.0 + 2.0 = 4.0
; (a transfer that landed after the V_ADD_VV would leave row 4 at 1.0).
C_SET_STRIDE_REG gp0
S_ADDI_INT gp5, gp0, 4096
C_SET_SCALE_REG gp5
S_ADDI_INT gp1, gp0, 256
H_PREFETCH_V gp1, gp0, a0, 1, 0
S_ADDI_INT gp2, gp0, 7
V_ADD_VV gp1, gp0, gp0
