// moesim RTL: the DMA queue, the pending transfers that feed moe_dma_unit in issue order.

/**
 * The DMA queue of docs/overlap.md: with DMA_QUEUE = depth_i > 0, a DMA instruction
 * (H_PREFETCH_M, H_PREFETCH_V, H_STORE_V) issues into the queue in one cycle and its transfer
 * runs on the DMA engine (moe_dma_unit) while later instructions issue.
 *
 * - Entries: the pending transfers, oldest first (entry 0), each its request (dma_req_t, the
 *   operands taken in the issue cycle) and its region (region_t: the rows it writes or reads).
 *   A transfer is pending from its issue cycle to its completion, the cycle after the engine's
 *   done: push_i in the issue cycle adds it at the edge, done_i removes entry 0 at the edge.
 *   Built for DEPTH = (1 << DMA_QUEUE_BITS) - 1 entries (DMA_QUEUE_MAX); moe_fetch_ctrl issues a
 *   DMA instruction only while fewer than depth_i are pending (queue_full).
 * - Engine: one transfer at a time, in order. Entry 0 is the one in progress (running_q). An
 *   empty queue starts the issuing instruction's transfer in its issue cycle (req_i); else the
 *   engine starts entry 0 in the cycle after the previous transfer's done. So a transfer issued
 *   in cycle c starts in max(c, f_prev) (docs/overlap.md, section 4).
 * - depth_i = 0 (serial): nothing is queued; the engine starts the issuing instruction's
 *   transfer (req_i) in its issue cycle and the core waits for its done, as a unit.
 *
 * State public to the harness and the checkers: count_q, running_q, entries.
 */
module moe_dma_queue
  import moesim_isa_pkg::*;
  import moe_pkg::*;
#(
  parameter int unsigned  HBM_V_ROWS = 4,
  parameter int unsigned  HBM_M_ROWS = 64,
  localparam int unsigned Depth      = (1 << DMA_QUEUE_BITS) - 1,
  localparam int unsigned CntW       = DMA_QUEUE_BITS
) (
  input  logic                      clk_i,
  input  logic                      rst_ni,
  input  logic [DMA_QUEUE_BITS-1:0] depth_i,    // DMA_QUEUE of the run (0: serial)

  // A DMA instruction issues (its request from the decoder)
  input  logic                      issue_i,
  input  dma_req_t                  req_i,

  // The engine
  input  logic                      done_i,     // last cycle of the transfer in progress
  output logic                      start_o,    // the engine starts req_o in this cycle
  output dma_req_t                  req_o,

  // The pending transfers, for moe_fetch_ctrl's scoreboard
  output logic [CntW-1:0]           count_o,
  output logic [Depth-1:0]          valid_o,    // entry i is pending
  output region_t [Depth-1:0]       region_o,   // entry i's region, oldest first
  output logic                      push_o,     // a transfer is queued in this cycle
  output logic                      pop_o       // the transfer in progress completes
);

  // The rows a transfer moves: HBM_M_ROWS MRAM rows, or HBM_V_ROWS VRAM rows, from its first.
  function automatic region_t region_of(dma_op_e op, logic [31:0] row);
    logic [31:0] n;
    n = (op == DMA_PREFETCH_M) ? 32'(HBM_M_ROWS) : 32'(HBM_V_ROWS);
    return '{mram:  (op == DMA_PREFETCH_M),
             write: (op != DMA_STORE_V),
             rows:  '{lo: row, hi: row + n}};
  endfunction

  dma_req_t          req_q [Depth];
  region_t           region_q [Depth];
  logic [CntW-1:0]   count_q;
  logic              running_q;
  logic              queued, push, pop;

  assign queued = (depth_i != '0);
  assign push   = queued && issue_i;
  assign pop    = queued && done_i;

  // An empty queue hands the issuing transfer to the engine at once (serial: always empty).
  assign start_o = (count_q == '0) ? issue_i : !running_q;
  assign req_o   = (count_q == '0) ? req_i : req_q[0];

  always_ff @(posedge clk_i or negedge rst_ni) begin : queue_regs
    if (!rst_ni) begin
      count_q   <= '0;
      running_q <= 1'b0;
      for (int i = 0; i < int'(Depth); i++) begin
        req_q[i]    <= '0;
        region_q[i] <= '0;
      end
    end else begin
      if (pop) begin
        for (int i = 0; i + 1 < int'(Depth); i++) begin
          req_q[i]    <= req_q[i+1];
          region_q[i] <= region_q[i+1];
        end
      end
      if (push) begin
        req_q[32'(count_q) - 32'(pop)]    <= req_i;
        region_q[32'(count_q) - 32'(pop)] <= region_of(req_i.op, req_i.row);
      end
      count_q   <= count_q + CntW'(push) - CntW'(pop);
      running_q <= queued && (start_o || running_q) && !done_i;
    end
  end

  assign count_o = count_q;
  assign push_o  = push;
  assign pop_o   = pop;
  always_comb begin
    for (int i = 0; i < int'(Depth); i++) begin
      valid_o[i]  = (CntW'(i) < count_q);
      region_o[i] = region_q[i];
    end
  end

endmodule : moe_dma_queue
