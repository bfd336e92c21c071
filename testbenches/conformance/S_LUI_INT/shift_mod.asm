; S_LUI_INT: gp[rd] = (imm << 12) mod 2^32 with a 22-bit imm (max 4194303). Latency 1.
S_LUI_INT gp1, 4194303   ; 0x3FFFFF000 mod 2^32 = 0xFFFFF000
S_LUI_INT gp2, 1048576   ; 0x100000000 mod 2^32 = 0
S_LUI_INT gp3, 1   ; 0x1000
S_LUI_INT gp4, 0x80000   ; 0x80000000
S_LUI_INT gp0, 7   ; discarded
