; C_SET_ADDR_REG: a[an] = (gp[rs1] << 32) | gp[rs2]; rs1 is the high word. Latency 1.
S_LUI_INT gp1, 74565
S_ADDI_INT gp1, gp1, 1656
S_LUI_INT gp2, 633805
S_ADDI_INT gp2, gp2, 3824
C_SET_ADDR_REG a1, gp1, gp2
C_SET_ADDR_REG a7, gp0, gp2
C_SET_ADDR_REG a0, gp2, gp0
