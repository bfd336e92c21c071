; DMA queue (docs/overlap.md), dma_queue 2, no DMA instruction: three 1-cycle instructions occupy
; the core [0, 1), [1, 2), [2, 3); nothing is pending at the end, so cycles = 3 (section 5), as on
; the serial machine.
; REPRODUCER (golden model, found 2026-12-03 on main 5d2e2a4): a golden model that ran any
; program before this one (the suite runs every case on one engine; here the _global cases before
; it) reports 2 cycles for this program when DMA_QUEUE > 0 and the previous run ended with a
; retire (not with a transfer completion); run alone (`--filter _global/dma_second_load`) it gives
; 3, and the RTL gives 3 in any order. The dma_* cases of H_PREFETCH_M, H_PREFETCH_V and H_STORE_V
; fail by the same one cycle when they follow such a run.
S_ADDI_INT gp1, gp0, 1
S_ADDI_INT gp2, gp0, 2
S_ADDI_INT gp3, gp0, 3
