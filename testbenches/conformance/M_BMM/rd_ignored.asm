; M_BMM's rd is a zero field (PLENA's emulator asserts rd == 0): unlike M_BMV, gp[rd] is not
; added to the matrix address. The word below is M_BMM with rd = 5, rs1 = gp0, rs2 = gp0
; (3 | 5 << 6 = 323); gp5 = 8 would make r0 = 8 misaligned if it were added, so the instruction
; retires (tile 0, r0 = 0, activation rows 0..63; hm is internal: nothing is written).
; Latency: M_BMM 16401.
S_ADDI_INT gp5, gp0, 8
.word 323
