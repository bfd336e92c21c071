; H_PREFETCH_V rstride 0, prec 0: rows i < HBM_V_ROWS = 4, o = gp[rs1] + i*VLEN (S = VLEN),
; codes at HBM[a[an] + o, +64), scales at HBM[a[an] + SCALE + o/8, +8). Element = bf16_rne(e4m3(code) *
; 2^(scale-127)) in FP32 (scale 0xFF or code 0x7F/0xFF -> 0x7FC0). The 256 codes are every E4M3 code once;
; scales include 0xFF, 0 (FP32-subnormal products, rounding to BF16 subnormals), 254 (overflow to inf).
; Latency HBM_LATENCY + rows*(ceil_div(64,64) + ceil_div(8,64)) = 24 + 4*2 = 32.
S_ADDI_INT gp13, gp0, 0
S_ADDI_INT gp14, gp0, 4096
C_SET_ADDR_REG a1, gp13, gp14
S_ADDI_INT gp12, gp0, 65536
C_SET_SCALE_REG gp12
S_ADDI_INT gp1, gp0, 192
S_ADDI_INT gp2, gp0, 64
H_PREFETCH_V gp1, gp2, a1, 0, 0
