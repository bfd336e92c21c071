; V_TOPK rmask 15 with E = 512, k = 255 (TOPK_POLICY = (512 << 8) | 255 = 131327): 0.0 at odd ids, -1.0 at even ids: 256 ties at 0.0, the first 255 by index are the odd ids
; 1, 3, .., 509 (511 is left out); e_j = 1, s = 255, weights RECI_BF16(255) = 0.003936767578125.
; Selection: value descending, ties to the lower expert index, NaN read as -inf; softmax per
; numerics.md 9: d_j = bf16(v_j - v_0), e_j = EXP_BF16(d_j), s sequential FP32, r = RECI_BF16(bf16(s)),
; w_j = bf16(e_j * r). Writes INT_SRAM[gp[rs2]+j] = id, FP_SRAM[gp[rd]+j] = w_j. Latency E + 2k + 1.
S_ADDI_INT gp1, gp0, 512
S_ADDI_INT gp2, gp0, 100
S_ADDI_INT gp3, gp0, 1000
S_ADDI_INT gp4, gp0, 131327
C_SET_TOPK_REG gp4
V_TOPK gp2, gp1, gp3, 15
