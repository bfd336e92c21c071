; V_TOPK rmask 15 with E = 64, k = 1 (TOPK_POLICY = (64 << 8) | 1 = 16385): one row read; the maximum 2.5 at ids 37 and 50 ties to 37: id 37, weight 1.0.
; Selection: value descending, ties to the lower expert index, NaN read as -inf; softmax per
; numerics.md 9: d_j = bf16(v_j - v_0), e_j = EXP_BF16(d_j), s sequential FP32, r = RECI_BF16(bf16(s)),
; w_j = bf16(e_j * r). Writes INT_SRAM[gp[rs2]+j] = id, FP_SRAM[gp[rd]+j] = w_j. Latency E + 2k + 1.
S_ADDI_INT gp1, gp0, 512
S_ADDI_INT gp2, gp0, 100
S_ADDI_INT gp3, gp0, 1000
S_ADDI_INT gp4, gp0, 16385
C_SET_TOPK_REG gp4
V_TOPK gp2, gp1, gp3, 15
