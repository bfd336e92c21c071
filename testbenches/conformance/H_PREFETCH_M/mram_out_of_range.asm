; H_PREFETCH_M from tile-row 960 (gp[rd] = 61440) writes rows 960..1023 (fine); from row 961 the
; 64 rows reach row 1024 = MRAM_TILES*MLEN -> address_out_of_range.
S_ADDI_INT gp1, gp0, 61440
H_PREFETCH_M gp1, gp0, a0, 0, 0
S_ADDI_INT gp1, gp0, 61504
H_PREFETCH_M gp1, gp0, a0, 0, 0
