; V_SUB_VF with rmask != 0: element e is selected when bit floor(e/HLEN) of V_MASK is 1 (HLEN = 16);
; unselected elements take the rs1 value. V_MASK = 0b1010. Both rorder values.
S_ADDI_INT gp1, gp0, 64
S_LD_FP f3, gp0, 2
S_ADDI_INT gp4, gp0, 10
C_SET_V_MASK_REG gp4
S_ADDI_INT gp3, gp0, 640
V_SUB_VF gp3, gp1, f3, 1, 1    ; row 10: heads 1 and 3 = 2.5 - V, heads 0 and 2 = V
S_ADDI_INT gp3, gp0, 704
V_SUB_VF gp3, gp1, f3, 7        ; row 11: heads 1 and 3 = V - 2.5
