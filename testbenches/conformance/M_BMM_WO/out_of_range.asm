; M_BMM_WO writes B*MLEN = 256 VRAM rows from floor(d/VLEN): d = 124 << 12 = 7936*64 writes rows
; 7936..8191 (hm is +0.0 after reset); d = 7937*64 would write row 8192 -> address_out_of_range.
; Latency: M_BMM_WO B*MLEN + 1 = 257.
S_LUI_INT gp4, 124
M_BMM_WO gp4, 0
M_BMM_WO gp4, 64
