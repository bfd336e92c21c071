; S_LD_INT: gp[rs1] + imm is exact (isa.yaml header: address arithmetic never wraps), so
; 0xFFFFFFFF + 1 is word 2^32, past INT SRAM: address_out_of_range, not word 0.
S_LUI_INT gp1, 1048575          ; gp1 = 0xFFFFF000
S_ADDI_INT gp1, gp1, 4095       ; gp1 = 0xFFFFFFFF
S_LD_INT gp2, gp1, 1            ; traps at pc 2, writes nothing
