; M_BMV_WO writes B = 4 VRAM rows from floor(d/VLEN): d = 8188*64 writes rows 8188..8191 (hv is +0.0
; after reset); d = 8189*64 would write row 8192 -> address_out_of_range.
S_LUI_INT gp4, 127
S_ADDI_INT gp4, gp4, 3840
M_BMV_WO gp4, 0
M_BMV_WO gp4, 64
