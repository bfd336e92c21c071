; V_TOPK rmask 0 writing FP SRAM 4092..4095 and INT SRAM 4092..4095 (last words): fine.
; Selection: value descending, ties to the lower expert index, NaN read as -inf; softmax per
; numerics.md 9: d_j = bf16(v_j - v_0), e_j = EXP_BF16(d_j), s sequential FP32, r = RECI_BF16(bf16(s)),
; w_j = bf16(e_j * r). Writes INT_SRAM[gp[rs2]+j] = id, FP_SRAM[gp[rd]+j] = w_j. Latency E + 2k + 1.
S_ADDI_INT gp1, gp0, 64
S_ADDI_INT gp2, gp0, 4092
V_TOPK gp2, gp1, gp2, 0
