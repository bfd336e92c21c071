; machine bench (HBM_BYTES = 2^30, a run-time size): with a0 = 2^30 - 256, H_PREFETCH_V's 4 rows
; of codes end exactly at HBM_BYTES (fine; the scales, SCALE = 0, lie inside the codes); with a0
; one byte higher the last row ends one byte past HBM_BYTES -> address_out_of_range. On
; `default` (64 MiB) the first transfer would trap.
S_LUI_INT gp14, 262143
S_ADDI_INT gp14, gp14, 3840
C_SET_ADDR_REG a0, gp0, gp14
S_ADDI_INT gp1, gp0, 0
H_PREFETCH_V gp1, gp0, a0, 0, 0
S_ADDI_INT gp14, gp14, 1
C_SET_ADDR_REG a0, gp0, gp14
H_PREFETCH_V gp1, gp0, a0, 0, 0
