; M_MM with gp[rs2] = 288 (activation block not row-aligned) -> address_misaligned.
S_ADDI_INT gp1, gp0, 0
S_ADDI_INT gp2, gp0, 288
M_MM 0, gp1, gp2
