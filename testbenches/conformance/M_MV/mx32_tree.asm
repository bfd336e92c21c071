; M_MV on mx32 (MX_BLOCK 32): tile 0, element column offset c = 4 (gp[rs1] = 4): W rows 4..7 of
; MRAM (66 bytes each, one scale per 32 codes); rows 3 and 8 hold other data. Activation VRAM
; row 2. MXDOT per isa.yaml with K blocks of 32 in order. vacc[0]: block 0 = -2^24, block 1 =
; 2^24 at 32, 1 at 48 and 56 -> tree (2^24 + 0) + (1 + 1) = 2^24 + 2 -> vacc = 2 (a running sum
; of 8-product subtrees would give 0). Everything else random (scripts/conformance_mx32.py).
; Latencies: M_MV BLEN + MLEN/MX_BLOCK + 1 = 7, M_MV_WO 1.
S_ADDI_INT gp1, gp0, 4
S_ADDI_INT gp2, gp0, 128
M_MV 0, gp1, gp2
S_ADDI_INT gp5, gp0, 640
M_MV_WO gp5, 20   ; row 10, elements 20..23
