; DMA queue (docs/overlap.md), dma_queue 2: a trap while two transfers are pending. With
; INSTRUCTION_BUDGET 7 (the case's `budget:`) the instruction at pc 7 traps in its ready cycle; it
; would have waited for prefetch 2 (RAW on row 4), but a trapping instruction does not stall
; (section 2). Both transfers still complete and their rows are in the final state (section 5).
; Latencies (isa.yaml, preset default: VLEN 64, MX_BLOCK 8, HBM_LATENCY 24, HBM_BYTES_PER_CYCLE
; 64, HBM_V_ROWS 4): H_PREFETCH_V = 24 + 4 * (ceil_div(64, 64) + ceil_div(8, 64)) = 32;
; S_ADDI_INT, C_SET_* 1.
; Timeline (section 2 issue/occupancy, section 3 hazards, section 4 s = max(c, f_prev), f = s + L):
;   pc 0-3  [0, 4)   STRIDE = 0, SCALE = 4096, gp1 = 256 (row 4)
;   pc 4    [4, 5)   prefetch 1 issues in 4: s = 4, f = 36, rows [0, 4)
;   pc 5    [5, 6)   prefetch 2 issues in 5 (1 pending < 2): s = max(5, 36) = 36, f = 68, rows [4, 8)
;   pc 6    [6, 7)   gp2 = 512
;   pc 7    ready 7  7 instructions retired: instruction_budget_exceeded in cycle 7, no stall,
;                    nothing written (row 8 stays 0)
; cycles = max(trap cycle 7, last completion 68) = 68; retired 7; no stall cycles (a model that
; stalled the trapping instruction would bill it 61 raw). Serial (dma_queue 0): 4 + 32 + 32 + 1
; = 69, the trap in 69.
; Data: rstride 1, STRIDE 0: prefetch 1 reads codes HBM [0, 64) and scales [4096, 4104);
; prefetch 2 (o = 256) codes [256, 320) and scales [4096 + 32, +8) = [4128, 4136). Codes 0x38
; (E4M3 1.0), scales 127 and 128: rows 0..3 = 1.0, rows 4..7 = 2.0.
C_SET_STRIDE_REG gp0
S_ADDI_INT gp5, gp0, 4096
C_SET_SCALE_REG gp5
S_ADDI_INT gp1, gp0, 256
H_PREFETCH_V gp0, gp0, a0, 1, 0
H_PREFETCH_V gp1, gp1, a0, 1, 0
S_ADDI_INT gp2, gp0, 512
V_ADD_VV gp2, gp1, gp1
