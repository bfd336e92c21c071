; S_SUB_INT: gp[rd] = gp[rs1] - gp[rs2] (u32, wrapping). Latency 1.
S_ADDI_INT gp1, gp0, 5
S_ADDI_INT gp2, gp0, 7
S_SUB_INT gp3, gp1, gp2   ; 5 - 7 = 0xFFFFFFFE
S_SUB_INT gp4, gp0, gp3   ; 0 - 0xFFFFFFFE = 2
S_SUB_INT gp5, gp2, gp1   ; 2
S_SUB_INT gp0, gp2, gp1   ; discarded
S_SUB_INT gp2, gp2, gp2   ; rd = rs1 = rs2: 0
