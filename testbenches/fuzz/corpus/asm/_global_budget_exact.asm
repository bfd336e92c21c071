; A program of exactly INSTRUCTION_BUDGET = 3 instructions halts normally: the budget traps
; only an instruction issued after `budget` have retired.
S_ADDI_INT gp1, gp1, 1
S_ADDI_INT gp1, gp1, 1
S_ADDI_INT gp1, gp1, 1
