; V_TOPK rmask 15 with E = 300 (more than 256 experts; default preset), k = 2: 5 rows read (rows
; 8..12; the scan stops at expert 299). Logits 0.5 but expert 256 = 2.0 and 299 = 4.0; the element
; after them (300, row 12 column 44) is 8.0 and is not an expert. ids [299, 256] (ids above 255).
; Weights (numerics.md 9): e_0 = 1, d_1 = bf16(2 - 4) = -2, e_1 = EXP_BF16(-2) = 0.1357421875
; (139 * 2^-10), s = 1.1357421875, bf16(s) = 1.1328125, r = RECI_BF16(1.1328125) = 0.8828125,
; w_0 = 0.8828125, w_1 = bf16(0.1357421875 * 0.8828125 = 0.11983489990234375) = 0.11962890625.
; Latency E + 2k + 1 = 305.
S_ADDI_INT gp1, gp0, 512
S_ADDI_INT gp2, gp0, 100
S_ADDI_INT gp3, gp0, 200
S_ADDI_INT gp4, gp0, 76802
C_SET_TOPK_REG gp4
V_TOPK gp2, gp1, gp3, 15
