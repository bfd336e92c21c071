// moesim RTL: assertion macros (the convention of lowRISC's prim_assert.sv, written anew here).

/**
 * `MOE_ASSERT(NAME, PROP, MSG)`: concurrent assertion NAME that PROP holds at every rising edge
 * of clk_i while rst_ni is high; on failure $error prints MSG (which names the unit) after the
 * assertion's hierarchical name. `MOE_ASSERT_NEVER(NAME, PROP, MSG)`: PROP never holds.
 * `MOE_ASSERT_NEVER` and `MOE_ASSERT` take clk_i and rst_ni from the enclosing checker module,
 * like prim_assert's defaults. They are checked by a model Verilated with --assert
 * (docs/assertions.md), and ignored without it.
 */
`ifndef MOE_ASSERT_SVH
`define MOE_ASSERT_SVH

`define MOE_ASSERT(NAME, PROP, MSG) \
  NAME: assert property (@(posedge clk_i) disable iff (!rst_ni) (PROP)) \
    else $error("%s: %s", `"NAME`", MSG);

`define MOE_ASSERT_NEVER(NAME, PROP, MSG) \
  `MOE_ASSERT(NAME, !(PROP), MSG)

`endif  // MOE_ASSERT_SVH
