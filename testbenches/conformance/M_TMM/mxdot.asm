; M_TMM: the activation block is the BLEN VRAM rows at gp[rs1] = 256 (rows 4..7); the tile is
; T = floor(gp[rs2]/MLEN^2) = 2 with column offset c = (gp[rs2] mod MLEN^2)/MLEN = 4 (gp[rs2] = 8448),
; read transposed: K runs over the 64 tile rows (MRAM rows 128..191), element k of output column
; c+j is code row_k[c+j] with row k's scale of block floor((c+j)/8) = 0 (TXDOT as M_TMV).
; Column 4, K block 0 is 1.0 x 2^0 against A row 0 = [2^24, 1, 1, -2^24, 0.5, 0.25, -0.5, -0.25, 0...]:
; acc[0][0] = 1 from the pairwise tree (a sequential sum gives 0). Column 5, K block 1 (rows 8..10 codes 1, -1, 1,
; scales 2^40, 2^40, 2^0; the other columns of rows 8, 9 hold 0) against A row 1 elements 8..15 =
; 1.0: each product scaled on its own gives exactly 1 (one scale per block would give 2^40).
; Rows 16..23 have scales 0..7 (FP32-subnormal products); A row 2 element 40 is a NaN (0xFFC1);
; A row 3 element 56 = 0x7F7F against row 56 column 7 = 448 x 2^127 overflows to inf.
; M_MM_WO writes bf16_rne(acc) to rows 10, 12, 14, 16 columns 4..7 and clears acc (rows 20..23
; columns 60..63 then get +0.0).
; Latencies: M_TMM MLEN + BLEN*MLEN/MX_BLOCK + 1 = 97, M_MM_WO BLEN = 4.
S_ADDI_INT gp1, gp0, 256
S_ADDI_INT gp2, gp0, 8448
M_TMM 0, gp1, gp2
S_ADDI_INT gp5, gp0, 640
S_ADDI_INT gp6, gp0, 2
M_MM_WO gp5, gp6, 4   ; rows 10, 12, 14, 16 cols 4..7
S_ADDI_INT gp7, gp0, 1280
M_MM_WO gp7, gp0, 60  ; acc cleared: rows 20..23 cols 60..63 = +0.0
