; Trap priority (isa.yaml header): the budget is checked before illegal_instruction, so with
; INSTRUCTION_BUDGET = 1 the undefined word at pc 1 reports instruction_budget_exceeded.
S_ADDI_INT gp1, gp0, 1
.word 0x00000000   ; opcode 0x00, undefined
