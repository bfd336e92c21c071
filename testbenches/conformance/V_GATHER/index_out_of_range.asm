; V_GATHER with gp[rs2] = 4096 reads past INT SRAM (INT_SRAM_WORDS = 4096): an access outside
; its memory -> address_out_of_range (isa.yaml traps doc: "SRAM on word ranges").
S_ADDI_INT gp2, gp0, 4096
S_ADDI_INT gp3, gp0, 640
V_GATHER gp3, gp0, gp2
