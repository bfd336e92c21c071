; V_ADD_VV with rmask = 1 before any C_SET_V_MASK_REG: V_MASK holds its reset value 0
; (isa.yaml control_registers), so no element is selected and every element takes the rs1 value
; (isa.yaml V_ADD_VV masking): row 10 becomes a copy of row 1, NaN payloads and signed zeros
; included. Latency 2 (isa.yaml).
S_ADDI_INT gp1, gp0, 64
S_ADDI_INT gp2, gp0, 128
S_ADDI_INT gp3, gp0, 640
V_ADD_VV gp3, gp1, gp2, 1
