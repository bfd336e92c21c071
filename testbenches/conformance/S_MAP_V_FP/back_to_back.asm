; Two S_MAP_V_FP back to back: the second issues in the cycle after the first completes and copies
; the same VLEN = 64 FP SRAM words FP_SRAM[16 .. 79] (gp2 + 6) into another VRAM row (latency VLEN).
S_ADDI_INT gp1, gp0, 128        ; VRAM row 2 (element address 2 * VLEN)
S_ADDI_INT gp2, gp0, 10
S_ADDI_INT gp3, gp0, 192        ; VRAM row 3
S_MAP_V_FP gp1, gp2, 6          ; FP_SRAM[16 .. 79] -> row 2
S_MAP_V_FP gp3, gp2, 6          ; FP_SRAM[16 .. 79] -> row 3
