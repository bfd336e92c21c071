; V_TOPK and C_SET_TOPK_REG run while a queued transfer is in flight (dma_queue 2, docs/overlap.md):
; neither touches the transfer's VRAM rows [0, 4), so neither waits. The top-k is rmask15_policy's
; (logits of VRAM row 10 = that case's row 2; (E, k) = (10, 3)): ids [2, 4, 5], weights
; [0.421875, 0.421875, 0.1552734375] (derived there from numerics.md 9).
; Latencies (isa.yaml, preset default): H_PREFETCH_V = 24 + 4 * (ceil_div(64, 64) +
; ceil_div(8, 64)) = 32; V_TOPK E + 2k + 1 = 17; S_ADDI_INT, C_SET_TOPK_REG 1.
; Timeline: pc 0 H_PREFETCH_V issues in 0, transfer s = 0, f = 32 (HBM all 0, SCALE 0: rows 0..3
; become 0.0); pc 1-5 [1, 6); pc 6 V_TOPK [6, 23). cycles = max(23, 32) = 32.
H_PREFETCH_V gp0, gp0, a0, 0, 0
S_ADDI_INT gp4, gp0, 2563
C_SET_TOPK_REG gp4
S_ADDI_INT gp1, gp0, 640
S_ADDI_INT gp2, gp0, 100
S_ADDI_INT gp3, gp0, 200
V_TOPK gp2, gp1, gp3, 15
