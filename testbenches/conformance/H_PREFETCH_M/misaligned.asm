; H_PREFETCH_M with gp[rd] = 100 (not a multiple of MLEN: not a tile-row address) -> address_misaligned.
S_ADDI_INT gp1, gp0, 100
H_PREFETCH_M gp1, gp0, a0, 0, 0
