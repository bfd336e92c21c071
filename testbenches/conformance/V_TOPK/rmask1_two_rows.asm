; V_TOPK rmask 1: hardwired (E, k) = (128, 8): logits from ceil(128/64) = 2 whole VRAM rows.
; Selection: value descending, ties to the lower expert index, NaN read as -inf; softmax per
; numerics.md 9: d_j = bf16(v_j - v_0), e_j = EXP_BF16(d_j), s sequential FP32, r = RECI_BF16(bf16(s)),
; w_j = bf16(e_j * r). Writes INT_SRAM[gp[rs2]+j] = id, FP_SRAM[gp[rd]+j] = w_j. Latency E + 2k + 1.
; Ties 8.0 at ids 64 and 127 (-> 64 first), 6.0 at 70 and 71.
S_ADDI_INT gp1, gp0, 256
S_ADDI_INT gp2, gp0, 100
S_ADDI_INT gp3, gp0, 200
V_TOPK gp2, gp1, gp3, 1
