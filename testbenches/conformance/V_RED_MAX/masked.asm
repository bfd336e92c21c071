; V_RED_MAX with rmask != 0: unselected elements enter the tree as -inf and never change the result
; (isa.yaml V_RED_MAX). V_MASK = 0b0101, then 0 (every element unselected: f[fd] unchanged).
S_ADDI_INT gp1, gp0, 64
S_ADDI_INT gp2, gp0, 5
C_SET_V_MASK_REG gp2
S_LD_FP f1, gp0, 1
S_LD_FP f2, gp0, 1
S_LD_FP f3, gp0, 0
S_LD_FP f4, gp0, 1
S_ADDI_INT gp3, gp0, 128
V_RED_MAX f1, gp1, 1        ; heads 0 and 2: the 1000 in head 1 and the NaN in head 3 are not selected
V_RED_MAX f2, gp1, 0        ; rmask 0: every element, NaN -> 0x7FC0
V_RED_MAX f4, gp3, 2        ; row 2 all negative, heads 0 and 2: -2 (an unselected element is not +0)
C_SET_V_MASK_REG gp0
V_RED_MAX f3, gp1, 9        ; nothing selected: f3 keeps 0.5
