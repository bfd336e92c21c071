; V_TOPK rmask 15 with E = 256, k = 1 (TOPK_POLICY = (256 << 8) | 1 = 65537): logits 0, -1, .., -4 repeating, 1.5 at id 255 (the last, an 8-bit id): id 255, weight 1.0.
; Selection: value descending, ties to the lower expert index, NaN read as -inf; softmax per
; numerics.md 9: d_j = bf16(v_j - v_0), e_j = EXP_BF16(d_j), s sequential FP32, r = RECI_BF16(bf16(s)),
; w_j = bf16(e_j * r). Writes INT_SRAM[gp[rs2]+j] = id, FP_SRAM[gp[rd]+j] = w_j. Latency E + 2k + 1.
S_ADDI_INT gp1, gp0, 512
S_ADDI_INT gp2, gp0, 100
S_ADDI_INT gp3, gp0, 1000
S_ADDI_INT gp4, gp0, 65537
C_SET_TOPK_REG gp4
V_TOPK gp2, gp1, gp3, 15
