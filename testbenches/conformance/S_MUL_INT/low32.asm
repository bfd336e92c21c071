; S_MUL_INT: gp[rd] = low 32 bits of gp[rs1] * gp[rs2]. Latency 1.
S_ADDI_INT gp1, gp0, 65537
S_LUI_INT gp2, 1048575
S_ADDI_INT gp2, gp2, 4095
S_LUI_INT gp3, 524288
S_MUL_INT gp4, gp1, gp1   ; 0x100020001 -> 0x00020001
S_MUL_INT gp5, gp2, gp2   ; (2^32-1)^2 mod 2^32 = 1
S_MUL_INT gp6, gp3, gp1   ; 0x80000000 * 0x10001 -> 0x80000000
S_MUL_INT gp7, gp3, gp0   ; x * 0 = 0
S_MUL_INT gp8, gp2, gp1   ; -1 * 0x10001 -> 0xFFFEFFFF
