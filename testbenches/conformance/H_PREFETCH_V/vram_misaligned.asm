; H_PREFETCH_V with gp[rd] = 65 (VRAM row address not row-aligned) -> address_misaligned.
S_ADDI_INT gp1, gp0, 65
H_PREFETCH_V gp1, gp0, a0, 0, 0
