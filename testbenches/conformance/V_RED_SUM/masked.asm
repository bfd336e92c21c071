; V_RED_SUM rmask != 0: unselected elements enter the tree as +0.0 (isa.yaml V_RED_SUM).
; V_MASK = 0b0101 selects heads 0 and 2; row 3 (+inf in head 1, -inf in head 3) then sums finite.
S_ADDI_INT gp2, gp0, 128
S_ADDI_INT gp3, gp0, 192
S_ADDI_INT gp4, gp0, 5
C_SET_V_MASK_REG gp4
V_RED_SUM f1, gp2, 1
V_RED_SUM f2, gp3, 15
V_RED_SUM f1, gp3, 2
