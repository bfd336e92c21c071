; M_MV: tile T = floor(gp[rs1]/MLEN^2) = 1, element column offset c = gp[rs1] mod MLEN^2 = 8
; (gp[rs1] = 4104): weight columns are tile rows 8..11 = MRAM rows 72..75 (rows 71, 76 and tile 0's
; rows 8..11 hold other data). Activation: the one VRAM row 4 (gp[rs2] = 256; rows 5.. hold other data).
; vacc[j] += MXDOT(A, W[c+j]) as M_MM: column 2 block 0 is [2^24, 1, 1, -2^24] x 1.0 (pairwise tree
; gives 1, a sequential sum 0); column 1 has a 0xFF scale (NaN); column 3 has scales 0, 1, 2
; (subnormal block sums) and 254 with 448-codes against 0x7F7F activations (overflow to inf).
; M_MV_WO writes bf16_rne(vacc) to VRAM row floor(d/VLEN), elements [d mod VLEN, +BLEN), d = gp[rd] + imm,
; keeps the rest of the row and clears vacc: the second M_MV_WO writes +0.0.
; Latencies: M_MV BLEN + MLEN/MX_BLOCK + 1 = 13, M_MV_WO 1.
S_ADDI_INT gp1, gp0, 4104
S_ADDI_INT gp2, gp0, 256
M_MV 0, gp1, gp2
S_ADDI_INT gp5, gp0, 640
M_MV_WO gp5, 8   ; row 10, elements 8..11
S_ADDI_INT gp7, gp0, 1280
M_MV_WO gp7, 60  ; vacc cleared: row 20 elements 60..63 = +0.0
