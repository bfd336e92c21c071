; Router scratch row
S_ADDI_INT gp1, gp0, 1024
; Clear FPRAM logits scratch (once, loop-invariant across tokens)
S_ADDI_INT gp2, gp0, 0
C_LOOP_START gp3, 64
S_ST_FP f0, gp2, 0
S_ADDI_INT gp2, gp2, 1
C_LOOP_END gp3
; Router dot token 0, expert 0
S_ADD_FP f1, f0, f0
S_ADDI_INT gp4, gp0, 0
S_ADDI_INT gp5, gp0, 256
C_LOOP_START gp3, 2
V_MUL_VV gp1, gp4, gp5, 0
V_RED_SUM f1, gp1, 0, 0
S_ADDI_INT gp4, gp4, 128
S_ADDI_INT gp5, gp5, 256
C_LOOP_END gp3
S_ADDI_INT gp2, gp0, 0
S_ST_FP f1, gp2, 0
; Router dot token 0, expert 1
S_ADD_FP f1, f0, f0
S_ADDI_INT gp4, gp0, 0
S_ADDI_INT gp5, gp0, 320
C_LOOP_START gp3, 2
V_MUL_VV gp1, gp4, gp5, 0
V_RED_SUM f1, gp1, 0, 0
S_ADDI_INT gp4, gp4, 128
S_ADDI_INT gp5, gp5, 256
C_LOOP_END gp3
S_ADDI_INT gp2, gp0, 1
S_ST_FP f1, gp2, 0
; Router dot token 0, expert 2
S_ADD_FP f1, f0, f0
S_ADDI_INT gp4, gp0, 0
S_ADDI_INT gp5, gp0, 384
C_LOOP_START gp3, 2
V_MUL_VV gp1, gp4, gp5, 0
V_RED_SUM f1, gp1, 0, 0
S_ADDI_INT gp4, gp4, 128
S_ADDI_INT gp5, gp5, 256
C_LOOP_END gp3
S_ADDI_INT gp2, gp0, 2
S_ST_FP f1, gp2, 0
; Router dot token 0, expert 3
S_ADD_FP f1, f0, f0
S_ADDI_INT gp4, gp0, 0
S_ADDI_INT gp5, gp0, 448
C_LOOP_START gp3, 2
V_MUL_VV gp1, gp4, gp5, 0
V_RED_SUM f1, gp1, 0, 0
S_ADDI_INT gp4, gp4, 128
S_ADDI_INT gp5, gp5, 256
C_LOOP_END gp3
S_ADDI_INT gp2, gp0, 3
S_ST_FP f1, gp2, 0
; Router token 0: map FPRAM logits scratch to contiguous VRAM rows
S_ADDI_INT gp6, gp0, 1280
S_ADDI_INT gp2, gp0, 0
S_MAP_V_FP gp6, gp2, 0
; Router dot token 1, expert 0
S_ADD_FP f1, f0, f0
S_ADDI_INT gp4, gp0, 64
S_ADDI_INT gp5, gp0, 256
C_LOOP_START gp3, 2
V_MUL_VV gp1, gp4, gp5, 0
V_RED_SUM f1, gp1, 0, 0
S_ADDI_INT gp4, gp4, 128
S_ADDI_INT gp5, gp5, 256
C_LOOP_END gp3
S_ADDI_INT gp2, gp0, 0
S_ST_FP f1, gp2, 0
; Router dot token 1, expert 1
S_ADD_FP f1, f0, f0
S_ADDI_INT gp4, gp0, 64
S_ADDI_INT gp5, gp0, 320
C_LOOP_START gp3, 2
V_MUL_VV gp1, gp4, gp5, 0
V_RED_SUM f1, gp1, 0, 0
S_ADDI_INT gp4, gp4, 128
S_ADDI_INT gp5, gp5, 256
C_LOOP_END gp3
S_ADDI_INT gp2, gp0, 1
S_ST_FP f1, gp2, 0
; Router dot token 1, expert 2
S_ADD_FP f1, f0, f0
S_ADDI_INT gp4, gp0, 64
S_ADDI_INT gp5, gp0, 384
C_LOOP_START gp3, 2
V_MUL_VV gp1, gp4, gp5, 0
V_RED_SUM f1, gp1, 0, 0
S_ADDI_INT gp4, gp4, 128
S_ADDI_INT gp5, gp5, 256
C_LOOP_END gp3
S_ADDI_INT gp2, gp0, 2
S_ST_FP f1, gp2, 0
; Router dot token 1, expert 3
S_ADD_FP f1, f0, f0
S_ADDI_INT gp4, gp0, 64
S_ADDI_INT gp5, gp0, 448
C_LOOP_START gp3, 2
V_MUL_VV gp1, gp4, gp5, 0
V_RED_SUM f1, gp1, 0, 0
S_ADDI_INT gp4, gp4, 128
S_ADDI_INT gp5, gp5, 256
C_LOOP_END gp3
S_ADDI_INT gp2, gp0, 3
S_ST_FP f1, gp2, 0
; Router token 1: map FPRAM logits scratch to contiguous VRAM rows
S_ADDI_INT gp6, gp0, 1344
S_ADDI_INT gp2, gp0, 0
S_MAP_V_FP gp6, gp2, 0
; Top-k policy (E << 8) | k
S_ADDI_INT gp7, gp0, 1026
C_SET_TOPK_REG gp7
; Top-k token 0
S_ADDI_INT gp8, gp0, 64
S_ADDI_INT gp6, gp0, 1280
S_ADDI_INT gp9, gp0, 0
V_TOPK gp8, gp6, gp9, 15
; Top-k token 1
S_ADDI_INT gp8, gp0, 66
S_ADDI_INT gp6, gp0, 1344
S_ADDI_INT gp9, gp0, 2
V_TOPK gp8, gp6, gp9, 15
