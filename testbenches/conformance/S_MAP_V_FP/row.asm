; S_MAP_V_FP copies VLEN = 64 FP SRAM words into one VRAM row (latency VLEN).
S_ADDI_INT gp1, gp0, 128        ; VRAM row 2 (element address 2 * VLEN)
S_ADDI_INT gp2, gp0, 10
S_MAP_V_FP gp1, gp2, 6          ; FP_SRAM[16 .. 79] -> row 2
