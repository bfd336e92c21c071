; M_MM: tile T = floor(gp[rs1]/MLEN^2) = 1, column offset c = 8 (gp[rs1] = 4608): W rows 72..75 of MRAM
; (tile 1 rows 8..11; rows 71 and 76 hold other data and must not be used). Activations VRAM rows 4..7.
; MXDOT per isa.yaml: per K block, 8 exact products, pairwise FP32 tree, times 2^(scale-127) (0xFF -> NaN),
; added to the FP32 accumulator. Block 0 of A row 0 = [2^24, 1, 1, -2^24, ...] with codes 1.0 makes the
; tree order visible; column 1 has a 0xFF scale (NaN); column 3 has scales 0, 1, 2 (FP32 subnormal
; products) and 254 with 448-codes against 0x7F7F activations (overflow to inf).
; M_MM_WO writes bf16_rne(acc) to rows row0 + i*n, cols [col, col+BLEN), keeps other elements, clears acc.
; Latencies: M_MM BLEN + MLEN/MX_BLOCK + 1 = 13, M_MM_WO BLEN = 4.
S_ADDI_INT gp1, gp0, 4608
S_ADDI_INT gp2, gp0, 256
M_MM 0, gp1, gp2
S_ADDI_INT gp5, gp0, 640
S_ADDI_INT gp6, gp0, 2
M_MM_WO gp5, gp6, 8   ; rows 10, 12, 14, 16 cols 8..11
S_ADDI_INT gp7, gp0, 1280
M_MM_WO gp7, gp0, 60   ; acc cleared: rows 20..23 cols 60..63 = +0.0 (n = 0 means 1)
