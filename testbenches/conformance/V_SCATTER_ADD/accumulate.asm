; V_SCATTER_ADD: t = INT_SRAM[gp[rs2]]; a = gp[rd] + t*VLEN;
; VRAM row a = bf16_rne(fp32(V[a]) + fp32(V[gp[rs1]])). Two adds into token 3 round separately
; (1 + 2^-8 + 2^-8 gives 1.0, ties to even each time); inf + -inf -> 0x7FC0; -0 + -0 = -0.
; Token 1 gets one add. Latency 2.
S_ADDI_INT gp1, gp0, 640
S_ADDI_INT gp2, gp0, 128
S_ADDI_INT gp3, gp0, 192
S_ADDI_INT gp4, gp0, 1
V_SCATTER_ADD gp1, gp2, gp0   ; row 13 += row 2
V_SCATTER_ADD gp1, gp3, gp0   ; row 13 += row 3
V_SCATTER_ADD gp1, gp2, gp4   ; row 11 (zeros) += row 2
