// moesim RTL cover properties: the macro (docs/coverage.md).

/**
 * `MOE_COVER(NAME, PROP)`: cover property NAME, counted at every rising edge of clk_i (the
 * enclosing checker's clock) where PROP holds while rst_ni is high. Verilated with
 * --coverage-user (the coverage build, docs/coverage.md) each is a point of the coverage data
 * (kind "cover"); without it Verilator ignores them. The files of rtl_model/sva/cover are
 * compiled into the coverage build's model only.
 */
`ifndef MOE_COVER_SVH
`define MOE_COVER_SVH

`define MOE_COVER(NAME, PROP) \
  NAME: cover property (@(posedge clk_i) disable iff (!rst_ni) (PROP));

/**
 * `MOE_COVER_LOW(NAME, PROP)`: as `MOE_COVER, counted at every falling edge of clk_i. For the
 * events that end a run: the RTL wrapper clocks a cycle's rising edge, then its falling edge,
 * reads the trace ports in the low phase and stops at a trap there, so the cycle that raises a
 * trap never sees the next rising edge. PROP must be a function of the state the rising edge
 * left (the decoder's trap and cause are), which holds through the low phase.
 */
`define MOE_COVER_LOW(NAME, PROP) \
  NAME: cover property (@(negedge clk_i) disable iff (!rst_ni) (PROP));

`endif  // MOE_COVER_SVH
