// moesim RTL: leading-zero counter of a WIDTH-bit value.

/**
 * Combinational leading-zero count (cnt_o = number of zeros above the most significant set bit
 * of in_i), the normalisation count of moe_fp32_add, moe_fp32_mul, moe_mx_dot and
 * moe_e4m3_to_fp32.
 *
 * Binary search over halving windows: in_i is placed at the top of a window of
 * 2^CntW bits (zeros below it, which never change the count of a non-zero value); at level l
 * (CntW-1 down to 0) bit l of the count is set when the upper half of the current 2^(l+1)-bit
 * window is zero, and the search continues in the lower half if so, in the upper half
 * otherwise. The window is kept in the low bits of one variable: its upper half is that
 * variable shifted right by 2^l, and continuing in the upper half is that shift (the lower half
 * is already in place, as the upper one is zero). Each level is one constant shift, one compare
 * against zero and one select on at most 64 bits.
 *
 * in_i = 0 gives 2^CntW - 1 (not WIDTH); the callers use the count only for non-zero values.
 */
module moe_lzc #(
  parameter int unsigned  WIDTH = 32,
  localparam int unsigned CntW  = $clog2(WIDTH),
  localparam int unsigned WinW  = 2 ** CntW
) (
  input  logic [WIDTH-1:0] in_i,
  output logic [CntW-1:0]  cnt_o
);

  if (WIDTH < 2) begin : g_bad_width
    $error("moe_lzc: WIDTH must be at least 2, got %0d", WIDTH);
  end

  logic [WinW-1:0] win;
  always_comb begin
    win = WinW'(in_i) << (WinW - WIDTH);
    for (int l = int'(CntW) - 1; l >= 0; l--) begin
      cnt_o[l] = ((win >> (2 ** l)) == '0);
      if (!cnt_o[l]) win = win >> (2 ** l);
    end
  end

endmodule : moe_lzc
