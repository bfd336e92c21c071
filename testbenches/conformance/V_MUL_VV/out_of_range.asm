; V_MUL_VV: VRAM rows are checked on floor(addr/VLEN) < VRAM_ROWS = 8192 for every row
; touched (isa.yaml traps: address_out_of_range). Row 8191 (element address 524224) is fine;
; element address 524288 (row 8192) traps: no cycle, nothing written.
S_LUI_INT gp1, 127
S_ADDI_INT gp1, gp1, 4032
S_LUI_INT gp2, 128
S_ADDI_INT gp3, gp0, 64
V_MUL_VV gp1, gp3, gp3   ; rd = last row: fine
V_MUL_VV gp3, gp3, gp2   ; rs2 = row 8192
S_ADDI_INT gp4, gp0, 1   ; never runs
