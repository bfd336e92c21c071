// moesim RTL: 65536 x 16 BF16 function ROM (exp or reciprocal table) with combinational reads.

/**
 * BF16 transcendental ROM. `mem` holds f(x) for every BF16 input x (the correctly rounded
 * exp or reciprocal table generated from isa_spec, docs/architecture.md). The array is public
 * so the C++ wrapper / testbench programs it once before reset (harness use, like the other
 * preloaded memories); the design never writes it. Every one of the NPorts ports reads
 * combinationally: data_o[16*p +: 16] = mem[addr_i[16*p +: 16]].
 */
module moe_bf16_rom #(
  parameter int unsigned NPorts = 1
) (
  input  logic [NPorts*16-1:0] addr_i,
  output logic [NPorts*16-1:0] data_o
);

  logic [15:0] mem [65536] /*verilator public_flat_rw*/;

  for (genvar p = 0; p < NPorts; p++) begin : g_port
    assign data_o[16*p +: 16] = mem[addr_i[16*p +: 16]];
  end

endmodule
