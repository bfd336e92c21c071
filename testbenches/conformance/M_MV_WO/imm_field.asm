; M_MV_WO's imm is the imm18 field [31:14] (PLENA's emulator; its assembler put it at bit 10): the
; word below is M_MV_WO gp5, 8 = 0x0B | 5<<6 | 8<<14 with rs1 bits [13:10] = 0b1111 set (reserved,
; ignored). d = 640 + 8: row 10 elements 8..11 = +0.0 (vacc clear at reset).
S_ADDI_INT gp5, gp0, 640
.word 0x00023D4B
