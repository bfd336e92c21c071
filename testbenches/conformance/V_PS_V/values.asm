; V_PS_V rd, rs1: inclusive prefix sum, sequential in element order: s_0 = x_0, s_e = s_(e-1) + x_e in
; FP32 RNE, element e = bf16_rne(s_e) (isa.yaml V_PS_V). Row 1 = [-0, 2^24, 1 x30, -2^24, 1 x31]: the
; sequential FP32 sum never leaves 2^24 (2^24 + 1 ties to even), so after -2^24 it restarts from 0;
; -0 as x_0 stays -0. Row 2 pseudo-random; row 3 has +inf then -inf (NaN 0x7FC0 from there on);
; row 4 (all -0 but one +0) in place. Expected rows from an independent exact-rational model.
; Latency VLEN + 1 = 65.
S_ADDI_INT gp1, gp0, 64
S_ADDI_INT gp2, gp0, 128
S_ADDI_INT gp3, gp0, 192
S_ADDI_INT gp4, gp0, 256
S_ADDI_INT gp5, gp0, 640
V_PS_V gp5, gp1   ; row 10
S_ADDI_INT gp5, gp0, 704
V_PS_V gp5, gp2   ; row 11
S_ADDI_INT gp5, gp0, 768
V_PS_V gp5, gp3   ; row 12
V_PS_V gp4, gp4   ; row 4 in place
