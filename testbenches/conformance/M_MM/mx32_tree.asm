; M_MM on mx32 (MX_BLOCK 32): tile 1, column offset c = 8 (gp[rs1] = 4608): W rows 72..75 of
; MRAM (66 bytes each: 64 codes, then 2 E8M0 scales, one per 32 codes); rows 71 and 76 hold other
; data. Activations VRAM rows 4..7. MXDOT per isa.yaml: per K block of 32, 32 exact products,
; the pairwise tree over 32 (level 0 adds (2i, 2i+1)), times 2^(scale-127), added in K order.
; acc[0][0]: block 0 = [2^24, 1 x 31] x 1.0 -> tree 2^24 + 30 (left to right: 2^24), block 1 =
; -2^24 -> 30. acc[1][0]: 2^24 at 0, 1 at 16 and 24 -> (2^24 + 0) + (1 + 1) = 2^24 + 2 (a running
; sum of the four 8-product subtrees gives 2^24) -> 2. Column 1 has scales 128: 60 and 4.
; Everything else random (expected values: scripts/conformance_mx32.py, an exact oracle).
; Latencies: M_MM BLEN + MLEN/MX_BLOCK + 1 = 7, M_MM_WO BLEN = 4.
S_ADDI_INT gp1, gp0, 4608
S_ADDI_INT gp2, gp0, 256
M_MM 0, gp1, gp2
S_ADDI_INT gp5, gp0, 640
M_MM_WO gp5, gp0, 8   ; rows 10..13 cols 8..11
