; Two H_PREFETCH_V back to back (rstride 0, a1 = 0 from reset, SCALE = 4096): the second must
; move its own HBM_V_ROWS rows from row 0 of its transfer (a DMA unit whose row counter is not
; reset after a transfer writes the second one's rows elsewhere). Prefetch 1: rows 10..13 from
; o = 64*i (scales at 4096 + 8*i); prefetch 2: rows 20..23 from o = 1024 + 64*i (scales at
; 4096 + 128 + 8*i). Every scale is 127 (2^0), so element e = e4m3(code). Latency of each
; 24 + 4*(ceil_div(64, 64) + ceil_div(8, 64)) = 32; five 1-cycle instructions before: 5 + 32 + 32 = 69.
S_ADDI_INT gp12, gp0, 4096
C_SET_SCALE_REG gp12
S_ADDI_INT gp3, gp0, 1024
S_ADDI_INT gp4, gp0, 640
S_ADDI_INT gp5, gp0, 1280
H_PREFETCH_V gp4, gp0, a1, 0, 0
H_PREFETCH_V gp5, gp3, a1, 0, 0
