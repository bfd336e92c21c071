; machine bench: MRAM_TILES = 32 is a run-time size (machine.yaml `runtime`; the RTL's MRAM is
; built for MRAM_TILES_MAX and the default build runs this preset). H_PREFETCH_M from tile-row 1984
; (gp[rd] = 126976) writes rows 1984..2047, the last tile (fine); from row 1985 the 64 rows reach
; row 2048 = MRAM_TILES*MLEN -> address_out_of_range. HBM bytes 0..63 hold 1..64 and SCALE = 0, so
; row 1984+i takes codes from bytes [64i, 64i+64) and scales from bytes [8i, 8i+8).
S_ADDI_INT gp1, gp0, 126976
H_PREFETCH_M gp1, gp0, a0, 0, 0
S_ADDI_INT gp1, gp0, 127040
H_PREFETCH_M gp1, gp0, a0, 0, 0
