; Pair-slot base
S_ADDI_INT gp1, gp0, 2048
; Zero FPRAM row for the slot clear
S_ADDI_INT gp2, gp0, 128
C_LOOP_START gp3, 64
S_ST_FP f0, gp2, 0
S_ADDI_INT gp2, gp2, 1
C_LOOP_END gp3
; Clear pair slot 0
S_ADDI_INT gp4, gp0, 2048
S_ADDI_INT gp2, gp0, 128
S_MAP_V_FP gp4, gp2, 0
; Clear pair slot 1
S_ADDI_INT gp4, gp0, 2112
S_ADDI_INT gp2, gp0, 128
S_MAP_V_FP gp4, gp2, 0
; Clear pair slot 2
S_ADDI_INT gp4, gp0, 2176
S_ADDI_INT gp2, gp0, 128
S_MAP_V_FP gp4, gp2, 0
; Clear pair slot 3
S_ADDI_INT gp4, gp0, 2240
S_ADDI_INT gp2, gp0, 128
S_MAP_V_FP gp4, gp2, 0
; Token offsets table
S_ADDI_INT gp5, gp0, 0
; VRAM gather pair slot 0: dynamic token row offset from int SRAM
S_LD_INT gp6, gp5, 0
S_ADDI_INT gp4, gp0, 2048
V_ADD_VV gp4, gp4, gp6, 0
; VRAM gather pair slot 1: dynamic token row offset from int SRAM
S_LD_INT gp6, gp5, 1
S_ADDI_INT gp4, gp0, 2112
V_ADD_VV gp4, gp4, gp6, 0
; VRAM gather pair slot 2: dynamic token row offset from int SRAM
S_LD_INT gp6, gp5, 2
S_ADDI_INT gp4, gp0, 2176
V_ADD_VV gp4, gp4, gp6, 0
; VRAM gather pair slot 3: dynamic token row offset from int SRAM
S_LD_INT gp6, gp5, 3
S_ADDI_INT gp4, gp0, 2240
V_ADD_VV gp4, gp4, gp6, 0
; Expert weight address from the expert id (int SRAM)
S_ADDI_INT gp7, gp0, 16
S_LD_INT gp8, gp7, 0
S_ADDI_INT gp9, gp0, 4096
S_MUL_INT gp10, gp8, gp9
S_ADDI_INT gp11, gp0, 4096
S_ADD_INT gp11, gp11, gp10
C_SET_ADDR_REG a1, gp0, gp11
S_ADDI_INT gp12, gp0, 65536
C_SET_SCALE_REG gp12
S_ADDI_INT gp12, gp0, 64
C_SET_STRIDE_REG gp12
; SubBlock [0][0]
S_ADDI_INT gp13, gp0, 0
S_ADDI_INT gp14, gp0, 0
H_PREFETCH_M gp13, gp14, a1, 1, 0
; Activation constants from FPRAM
S_ADDI_INT gp2, gp0, 256
S_LD_FP f1, gp2, 0
S_LD_FP f2, gp2, 1
; SiLU pair slot 0
S_ADDI_INT gp4, gp0, 2048
S_ADDI_INT gp15, gp0, 2624
V_SUB_VF gp15, gp4, f0, 0, 1
V_EXP_V gp15, gp15, 0, 0
V_ADD_VF gp15, gp15, f1, 0
V_RECI_V gp15, gp15, 0
V_MUL_VV gp4, gp4, gp15, 0
; Route weight pair slot 0
S_ADDI_INT gp2, gp0, 64
S_LD_FP f3, gp2, 0
V_MUL_VF gp4, gp4, f3, 0
; SiLU pair slot 1
S_ADDI_INT gp4, gp0, 2112
S_ADDI_INT gp15, gp0, 2624
V_SUB_VF gp15, gp4, f0, 0, 1
V_EXP_V gp15, gp15, 0, 0
V_ADD_VF gp15, gp15, f1, 0
V_RECI_V gp15, gp15, 0
V_MUL_VV gp4, gp4, gp15, 0
; Route weight pair slot 1
S_ADDI_INT gp2, gp0, 64
S_LD_FP f3, gp2, 1
V_MUL_VF gp4, gp4, f3, 0
; SiLU pair slot 2
S_ADDI_INT gp4, gp0, 2176
S_ADDI_INT gp15, gp0, 2624
V_SUB_VF gp15, gp4, f0, 0, 1
V_EXP_V gp15, gp15, 0, 0
V_ADD_VF gp15, gp15, f1, 0
V_RECI_V gp15, gp15, 0
V_MUL_VV gp4, gp4, gp15, 0
; Route weight pair slot 2
S_ADDI_INT gp2, gp0, 64
S_LD_FP f3, gp2, 2
V_MUL_VF gp4, gp4, f3, 0
; SiLU pair slot 3
S_ADDI_INT gp4, gp0, 2240
S_ADDI_INT gp15, gp0, 2624
V_SUB_VF gp15, gp4, f0, 0, 1
V_EXP_V gp15, gp15, 0, 0
V_ADD_VF gp15, gp15, f1, 0
V_RECI_V gp15, gp15, 0
V_MUL_VV gp4, gp4, gp15, 0
; Route weight pair slot 3
S_ADDI_INT gp2, gp0, 64
S_LD_FP f3, gp2, 3
V_MUL_VF gp4, gp4, f3, 0
