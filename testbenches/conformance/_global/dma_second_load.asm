; DMA queue (docs/overlap.md), dma_queue 2, no DMA instruction: three 1-cycle instructions occupy
; the core [0, 1), [1, 2), [2, 3); nothing is pending at the end, so cycles = 3 (section 5), as on
; the serial machine.
; REGRESSION (golden model, found 2026-12-03 on main 5d2e2a4, docs/conformance.md): a golden model
; that ran any program before this one (the suite runs every case on one engine; here the _global
; cases before it) reported 2 cycles for this program when DMA_QUEUE > 0 and the previous run ended
; with a retire (not with a transfer completion): load()'s cancel woke the first one-cycle wait.
S_ADDI_INT gp1, gp0, 1
S_ADDI_INT gp2, gp0, 2
S_ADDI_INT gp3, gp0, 3
