; V_TOPK with gp[rs1] = 160 (logits must start on a whole row) -> address_misaligned.
S_ADDI_INT gp1, gp0, 160
S_ADDI_INT gp2, gp0, 100
S_ADDI_INT gp3, gp0, 200
V_TOPK gp2, gp1, gp3, 0
