; V_GATHER with gp[rs1] = 130: source row address 130 + t*64 is not row-aligned -> address_misaligned.
S_ADDI_INT gp1, gp0, 130
S_ADDI_INT gp3, gp0, 640
V_GATHER gp3, gp1, gp0
