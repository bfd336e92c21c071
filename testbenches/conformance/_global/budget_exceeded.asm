; Global trap: with INSTRUCTION_BUDGET = 3 (the case's `budget:`), the fourth instruction traps
; at issue with instruction_budget_exceeded; it writes nothing and costs no cycle.
S_ADDI_INT gp1, gp1, 1
S_ADDI_INT gp1, gp1, 1
S_ADDI_INT gp1, gp1, 1
S_ADDI_INT gp1, gp1, 1
S_ADDI_INT gp1, gp1, 1
