; C_HADAMARD_TRANSFORM is declared in isa.yaml but not implemented (its meaning cannot be pinned from
; PLENA): it always raises illegal_instruction at issue, takes no cycle and writes nothing.
S_ADDI_INT gp1, gp0, 1
C_HADAMARD_TRANSFORM
S_ADDI_INT gp2, gp0, 2   ; never runs
