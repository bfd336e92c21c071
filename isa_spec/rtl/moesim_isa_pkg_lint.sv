// Lint harness for the generated package moesim_isa_pkg (`verilator --lint-only -Wall` needs a
// top module): decodes every instruction word field with the package's positions and drives
// one value of each enum type.
module moesim_isa_pkg_lint
  import moesim_isa_pkg::*;
(
  input  logic [WORD_W-1:0]          word_i,
  output opcode_e                    opcode_o,
  output logic [RD_HI-RD_LO:0]       rd_o,
  output logic [RS1_HI-RS1_LO:0]     rs1_o,
  output logic [RS2_HI-RS2_LO:0]     rs2_o,
  output logic [R3_HI-R3_LO:0]       r3_o,
  output logic [FUNCT_HI-FUNCT_LO:0] funct_o,
  output logic [IMM18_HI-IMM18_LO:0] imm18_o,
  output logic [IMM22_HI-IMM22_LO:0] imm22_o,
  output trap_e                      trap_o,
  output stage_e                     stage_o
);
  assign opcode_o = opcode_e'(word_i[OPCODE_HI:OPCODE_LO]);
  assign rd_o     = word_i[RD_HI:RD_LO];
  assign rs1_o    = word_i[RS1_HI:RS1_LO];
  assign rs2_o    = word_i[RS2_HI:RS2_LO];
  assign r3_o     = word_i[R3_HI:R3_LO];
  assign funct_o  = word_i[FUNCT_HI:FUNCT_LO];
  assign imm18_o  = word_i[IMM18_HI:IMM18_LO];
  assign imm22_o  = word_i[IMM22_HI:IMM22_LO];
  assign trap_o   = TRAP_NONE;
  assign stage_o  = STAGE_OTHER;
endmodule
