; @stage=router
S_ADDI_INT gp1, gp0, 7
; @pair=0,1,int[12]
V_ADD_VV gp3, gp1, gp2, 0
; @pair=-
.word 0x00C0006A
S_LUI_INT gp2, 0x3FFFF // tail comment
