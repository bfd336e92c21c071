// moesim RTL: MX head dot product of N elements (BF16 activations x E4M3 weights, one E8M0 scale
// per element).

/**
 * Combinational head dot product of the per-head matrix ops (isa.yaml M_BMV, M_BTMV; DESIGN.md
 * §4): q_d = (fp32(a_d) * e4m3(w_d), exact) * 2^(scale_d - 127) in FP32 RNE, summed by the
 * pairwise tree over d in FP32 RNE (level 0 adds (2i, 2i+1)). N is HLEN, a power of two.
 * a_i element d is bits [16*d +: 16], w_i code d and scale_i scale d are bits [8*d +: 8].
 *
 * Built from moe_mx_dot8 #(PER_ELEM_SCALE): for N >= 8, N/8 of them form the tree's 8-element
 * subtrees and moe_fp32_add nodes the levels above (a pairwise tree over N is the pairwise tree
 * over its 8-element subtrees). For N < 8 one moe_mx_dot8 takes the N elements padded with
 * q = -0 (a = 0x8000, code 0, scale 127): -0 is the identity of the FP32 add (x + -0 = x for
 * every x, zeros included), so the padded tree equals the tree over N.
 */
module moe_mx_hdot #(
  parameter int unsigned N = 16
) (
  input  logic [N*16-1:0] a_i,
  input  logic [N*8-1:0]  w_i,
  input  logic [N*8-1:0]  scale_i,
  output logic [31:0]     y_o
);

  localparam int unsigned Lanes = (N > 8) ? N / 8 : 1;

  if (N == 0 || (N & (N - 1)) != 0) begin : g_bad_n
    $error("moe_mx_hdot: N must be a power of two, got %0d", N);
  end

  logic [Lanes*128-1:0] a_pad;
  logic [Lanes*64-1:0]  w_pad;
  logic [Lanes*64-1:0]  s_pad;

  if (N < 8) begin : g_pad
    assign a_pad = {{(8 - N){16'h8000}}, a_i};
    assign w_pad = {{(8 - N){8'h00}}, w_i};
    assign s_pad = {{(8 - N){8'd127}}, scale_i};
  end else begin : g_no_pad
    assign a_pad = a_i;
    assign w_pad = w_i;
    assign s_pad = scale_i;
  end

  // Tree nodes in heap order: node n adds nodes 2n and 2n+1; the lanes are nodes Lanes ..
  // 2*Lanes-1 (lane k covers elements 8k .. 8k+7); node 1 is the sum.
  logic [31:0] node [1:2*Lanes-1];

  for (genvar k = 0; k < Lanes; k++) begin : g_lane
    moe_mx_dot8 #(
      .PER_ELEM_SCALE(1'b1)
    ) u_dot (
      .a_i    (a_pad[128*k +: 128]),
      .w_i    (w_pad[64*k +: 64]),
      .scale_i(s_pad[64*k +: 64]),
      .y_o    (node[Lanes+k])
    );
  end

  for (genvar n = 1; n < Lanes; n++) begin : g_tree
    moe_fp32_add u_add (
      .a_i(node[2*n]),
      .b_i(node[2*n+1]),
      .y_o(node[n])
    );
  end

  assign y_o = node[1];

endmodule
