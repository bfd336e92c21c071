; S_LD_FP: f[fd] = FP_SRAM[gp[rs1] + imm], bits as stored (NaN payloads, -0.0, subnormals);
; f0 stays +0.0 (writes discarded). Word 4095 is the last valid FP SRAM word. Latency 1.
S_ADDI_INT gp1, gp0, 4000
S_LD_FP f1, gp1, 90
S_LD_FP f2, gp1, 91
S_LD_FP f3, gp1, 92
S_LD_FP f4, gp1, 93
S_LD_FP f5, gp1, 94
S_LD_FP f6, gp0, 4095
S_LD_FP f0, gp1, 94   ; discarded
