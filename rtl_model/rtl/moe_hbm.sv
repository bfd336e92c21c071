// moesim RTL: behavioural HBM with fixed latency and bandwidth; backing store behind DPI-C.

/**
 * Behavioural HBM model (machine.yaml): a pipelined memory that accepts one beat request per
 * cycle (up to BPC bytes at consecutive byte addresses) and answers it exactly HBM_LATENCY
 * cycles later, in order. A read beat returns its bytes on rsp_rdata_o (bytes beyond nbytes
 * are 0); a write beat is performed and acknowledged. Bandwidth is therefore BPC bytes per
 * cycle after a latency of HBM_LATENCY cycles.
 *
 * The access happens at the clock edge that ends cycle t + HBM_LATENCY - 1 for a request of
 * cycle t, through the DPI-C functions moe_hbm_read / moe_hbm_write that hold the backing store
 * in C++ (the only DPI imports of the design; never used for arithmetic or control).
 */
module moe_hbm #(
  parameter int unsigned HBM_LATENCY = 24,
  parameter int unsigned BPC         = 64,   // HBM_BYTES_PER_CYCLE
  localparam int unsigned NBytesW    = $clog2(BPC + 1)
) (
  input  logic               clk_i,
  input  logic               rst_ni,

  input  logic               req_valid_i,
  input  logic               req_we_i,
  input  logic [63:0]        req_addr_i,
  input  logic [NBytesW-1:0] req_nbytes_i,
  input  logic [BPC*8-1:0]   req_wdata_i,

  output logic               rsp_valid_o,
  output logic [BPC*8-1:0]   rsp_rdata_o
);

  import "DPI-C" function byte unsigned moe_hbm_read(longint unsigned addr);
  import "DPI-C" function void moe_hbm_write(longint unsigned addr, byte unsigned data);

  typedef struct packed {
    logic               valid;
    logic               we;
    logic [63:0]        addr;
    logic [NBytesW-1:0] nbytes;
    logic [BPC*8-1:0]   wdata;
  } req_t;

  req_t req_in, acc;
  assign req_in = '{valid: req_valid_i, we: req_we_i, addr: req_addr_i, nbytes: req_nbytes_i,
                    wdata: req_wdata_i};

  // Latency pipeline: HBM_LATENCY - 1 register stages before the access edge.
  if (HBM_LATENCY > 1) begin : g_pipe
    req_t pipe_q [HBM_LATENCY-1];
    always_ff @(posedge clk_i or negedge rst_ni) begin : pipe_regs
      if (!rst_ni) begin
        for (int s = 0; s < int'(HBM_LATENCY) - 1; s++) pipe_q[s] <= '0;
      end else begin
        pipe_q[0] <= req_in;
        for (int s = 1; s < int'(HBM_LATENCY) - 1; s++) pipe_q[s] <= pipe_q[s-1];
      end
    end
    assign acc = pipe_q[HBM_LATENCY-2];
  end else begin : g_no_pipe
    assign acc = req_in;
  end

  // Access edge: the backing store is read or written here; the response is registered.
  logic             rsp_valid_q;
  logic [BPC*8-1:0] rsp_rdata_q;

  always_ff @(posedge clk_i or negedge rst_ni) begin : access
    if (!rst_ni) begin
      rsp_valid_q <= 1'b0;
      rsp_rdata_q <= '0;
    end else begin
      rsp_valid_q <= acc.valid;
      if (acc.valid) begin
        for (int b = 0; b < int'(BPC); b++) begin
          if (b < int'(acc.nbytes)) begin
            if (acc.we) begin
              moe_hbm_write(acc.addr + 64'(b), acc.wdata[8*b +: 8]);
              rsp_rdata_q[8*b +: 8] <= 8'h00;
            end else begin
              rsp_rdata_q[8*b +: 8] <= moe_hbm_read(acc.addr + 64'(b));
            end
          end else begin
            rsp_rdata_q[8*b +: 8] <= 8'h00;
          end
        end
      end
    end
  end

  assign rsp_valid_o = rsp_valid_q;
  assign rsp_rdata_o = rsp_rdata_q;

endmodule : moe_hbm
