; V_TOPK rmask 0: hardwired (E, k) = (32, 4) (isa.yaml topk_policies).
; Selection: value descending, ties to the lower expert index, NaN read as -inf; softmax per
; numerics.md 9: d_j = bf16(v_j - v_0), e_j = EXP_BF16(d_j), s sequential FP32, r = RECI_BF16(bf16(s)),
; w_j = bf16(e_j * r). Writes INT_SRAM[gp[rs2]+j] = id, FP_SRAM[gp[rd]+j] = w_j. Latency E + 2k + 1.
; Three-way tie at 1.5 (ids 3, 5, 9) then 1.25; a NaN logit (0x7FC1) is -inf; elements 32..63 of the
; row (= 100.0) are past E and ignored.
S_ADDI_INT gp1, gp0, 128
S_ADDI_INT gp2, gp0, 100
S_ADDI_INT gp3, gp0, 200
V_TOPK gp2, gp1, gp3, 0
