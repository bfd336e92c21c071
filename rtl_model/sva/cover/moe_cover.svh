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

`endif  // MOE_COVER_SVH
