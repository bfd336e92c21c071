; V_TOPK rmask 0 with every logit -inf or NaN: v_0 = -inf, d_j = -inf - -inf = NaN, s is NaN, so
; every w_j = +0.0 (isa.yaml V_TOPK); ids 0..3 by the tie rule.
; Selection: value descending, ties to the lower expert index, NaN read as -inf; softmax per
; numerics.md 9: d_j = bf16(v_j - v_0), e_j = EXP_BF16(d_j), s sequential FP32, r = RECI_BF16(bf16(s)),
; w_j = bf16(e_j * r). Writes INT_SRAM[gp[rs2]+j] = id, FP_SRAM[gp[rd]+j] = w_j. Latency E + 2k + 1.
S_ADDI_INT gp1, gp0, 128
S_ADDI_INT gp2, gp0, 100
S_ADDI_INT gp3, gp0, 200
V_TOPK gp2, gp1, gp3, 0
