; M_MM_WO checks every row row0 + i*n (i < BLEN): row0 = 8188, n = 0 (means 1) is fine; row0 = 10,
; n = 1000 writes rows 10, 1010, 2010, 3010 cols 4..7 only; row0 = 10, n = 2727 reaches row 8191 fine...
; so row0 = 11 with n = 2727 reaches row 8192 -> address_out_of_range. acc is +0.0 (no M_MM).
S_LUI_INT gp1, 127
S_ADDI_INT gp1, gp1, 3840
M_MM_WO gp1, gp0, 0   ; rows 8188..8191, cols 0..3: +0.0
S_ADDI_INT gp2, gp0, 1000
S_ADDI_INT gp3, gp0, 640
M_MM_WO gp3, gp2, 4   ; rows 10, 1010, 2010, 3010
S_ADDI_INT gp2, gp0, 2727
M_MM_WO gp3, gp2, 64
