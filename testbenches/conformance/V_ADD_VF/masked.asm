; V_ADD_VF with rmask = 3 (nonzero): element e is selected when bit floor(e/HLEN)
; of V_MASK is 1 (HLEN = 16); unselected elements take the rs1 value (isa.yaml V_ADD_VV masking).
; V_MASK = 0x35: heads 0 and 2 selected, 1 and 3 not (bits 4, 5 name no element). Then the same
; op with rmask = 0 ignores V_MASK. Also C_SET_V_MASK_REG (latency 1).
S_ADDI_INT gp1, gp0, 64
S_ADDI_INT gp2, gp0, 128
S_ADDI_INT gp3, gp0, 640
S_ADDI_INT gp4, gp0, 53
C_SET_V_MASK_REG gp4
S_LD_FP f2, gp0, 8
V_ADD_VF gp3, gp1, f2, 3   ; masked -> row 10
S_ADDI_INT gp5, gp0, 704
V_ADD_VF gp5, gp1, f2, 0   ; rmask 0 -> row 11, every element
