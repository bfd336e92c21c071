// moesim RTL: HBM latency jitter, the cycles a DMA transfer waits before its first HBM request.

/**
 * isa.yaml `hbm_jitter`: transfer number n waits J(seed_i, n) cycles, in [0, max_i], before
 * moe_dma_unit starts it, so that it completes J cycles later than with a fixed HBM latency.
 * n counts the transfers started since reset, from 0, modulo 2^32. Transfers start one at a time
 * in issue order (moe_dma_queue; with no queue, the issuing DMA instruction's), so n is the
 * number of DMA instructions issued before this one.
 *
 * - start_i in cycle s (req_i its request): with J = 0 the transfer passes on in the same cycle
 *   (start_o, req_o = req_i); with J > 0 the request is held, wait_o is high in cycles
 *   s .. s+J-1 and start_o starts it in cycle s + J (req_o = the held request).
 * - seed_i = 0 gives J = 0 for every transfer: start_o = start_i, req_o = req_i.
 * - start_i comes only while no transfer waits or runs (the queue starts the next one after the
 *   previous one's done; without a queue the core waits for the DMA unit).
 *
 * seed_i and max_i are the registered run-time parameters HBM_JITTER_SEED and HBM_JITTER_MAX.
 */
module moe_hbm_jitter
  import moesim_isa_pkg::*;
  import moe_pkg::*;
(
  input  logic                            clk_i,
  input  logic                            rst_ni,
  input  logic [HBM_JITTER_SEED_BITS-1:0] seed_i,
  input  logic [HBM_JITTER_MAX_BITS-1:0]  max_i,

  input  logic                            start_i,   // a transfer starts (moe_dma_queue)
  input  dma_req_t                        req_i,
  output logic                            start_o,   // moe_dma_unit starts it
  output dma_req_t                        req_o,
  output logic                            wait_o     // a transfer waits out its jitter
);

  localparam int unsigned MaxW = HBM_JITTER_MAX_BITS;

  // J(seed, n) of isa.yaml `hbm_jitter` on 32-bit words: a Weyl step of n xor the seed, the
  // MurmurHash3 finaliser, then the high word of h * (max + 1).
  function automatic logic [MaxW-1:0] jitter(logic [31:0] seed, logic [31:0] n,
                                             logic [MaxW-1:0] jmax);
    logic [31:0] h;
    h = seed ^ (n * HBM_JITTER_GAMMA);
    h = h ^ (h >> HBM_JITTER_SHIFT1);
    h = h * HBM_JITTER_MUL1;
    h = h ^ (h >> HBM_JITTER_SHIFT2);
    h = h * HBM_JITTER_MUL2;
    h = h ^ (h >> HBM_JITTER_SHIFT3);
    // J <= jmax < 2^MaxW: the high word fits MaxW bits.
    return (seed == '0) ? '0 : MaxW'(({32'd0, h} * (64'(jmax) + 64'd1)) >> 32);
  endfunction

  logic [31:0]     n_q;        // transfers started since reset
  logic            waiting_q;  // a transfer waits out its jitter
  logic [MaxW-1:0] left_q;     // its wait cycles after this one
  dma_req_t        req_q;      // its request
  logic [MaxW-1:0] jit;

  assign jit     = jitter(32'(seed_i), n_q, max_i);
  assign start_o = (start_i && (jit == '0)) || (waiting_q && (left_q == '0));
  assign req_o   = waiting_q ? req_q : req_i;
  assign wait_o  = (start_i && (jit != '0)) || (waiting_q && (left_q != '0));

  always_ff @(posedge clk_i or negedge rst_ni) begin : jitter_regs
    if (!rst_ni) begin
      n_q       <= '0;
      waiting_q <= 1'b0;
      left_q    <= '0;
    end else begin
      if (start_i) begin
        n_q <= n_q + 32'd1;
      end
      if (start_i && (jit != '0)) begin
        waiting_q <= 1'b1;
        left_q    <= jit - MaxW'(1);
      end else if (waiting_q) begin
        waiting_q <= (left_q != '0);
        left_q    <= (left_q != '0) ? left_q - MaxW'(1) : '0;
      end
    end
  end

  always_ff @(posedge clk_i) begin : req_reg
    if (start_i) req_q <= req_i;
  end

endmodule : moe_hbm_jitter
