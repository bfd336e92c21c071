; C_BREAK outside any loop halts the program after it retires (latency 1): pc moves past the last
; instruction, so the S_ADDI_INT after it never runs and there is no trap (isa.yaml C_BREAK; PLENA's
; RTL testbench uses C_BREAK as its end-of-program marker).
S_ADDI_INT gp1, gp0, 1
C_BREAK
S_ADDI_INT gp2, gp0, 2   ; never runs
