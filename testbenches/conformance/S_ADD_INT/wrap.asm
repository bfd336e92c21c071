; S_ADD_INT: u32 addition wraps modulo 2^32; gp0 reads 0 and a write to it is discarded.
S_LUI_INT gp1, 1048575          ; gp1 = 0xFFFFF000
S_ADDI_INT gp1, gp1, 4095       ; gp1 = 0xFFFFFFFF
S_ADDI_INT gp2, gp0, 2          ; gp2 = 2
S_ADD_INT gp3, gp1, gp2         ; 0xFFFFFFFF + 2 = 1 (wraps)
S_ADD_INT gp0, gp2, gp2         ; discarded
S_ADD_INT gp4, gp0, gp2         ; 0 + 2
