; Global trap: opcode 0x3F (undefined; every other field set) is illegal_instruction.
.word 0xFFFFFFFF   ; opcode 0x3F
