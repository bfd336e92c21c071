// moesim RTL: clock gate cell (latch-based, glitch free), in the style of lowRISC
// prim_clock_gating.

/**
 * clk_o follows clk_i in the cycles whose en_i is high and stays low otherwise. en_i is sampled
 * by a latch that is transparent while clk_i is low, so a change of en_i while clk_i is high
 * cannot cut or create a pulse; the gated edge is the edge of clk_i that ends a cycle with en_i
 * high.
 *
 * moe_top gives every multi-cycle unit a clock gated by its busy signal, moe_mem the VRAM / MRAM
 * read data registers one gated by their read enables. Functionally nothing changes, as those
 * registers hold their value in every cycle whose enable is low; but Verilator then evaluates a
 * unit's datapath, which is combinational logic of the unit's registers only, in the cycles its
 * clock ticks, instead of in every cycle (docs/performance.md).
 */
module moe_clock_gate (
  input  logic clk_i,
  input  logic en_i,
  output logic clk_o
);

  logic en_latch;

  always_latch begin
    if (!clk_i) en_latch = en_i;
  end

  assign clk_o = en_latch & clk_i;

endmodule : moe_clock_gate
