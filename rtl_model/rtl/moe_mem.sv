// moesim RTL: the on-chip memories of the core and the multiplexers of their ports.

/**
 * The memories (arrays public to the harness) and which unit drives each of their ports; HBM is
 * moe_hbm, outside.
 *
 * - VRAM: rows of VLEN BF16 with three synchronous read ports and two write ports. Port A
 *   serves the vector unit's A operand, the top-k unit's logits and the matrix unit's
 *   activations; port B the vector unit's B operand. The core's write port, with per-element
 *   enables, serves S_MAP_V_FP (one element per cycle), the vector and matrix (element enables)
 *   units. The unit owning port A and the core's write port is act_unit_i (the core runs one
 *   instruction at a time). The DMA engine has its own read port (C, H_STORE_V rows) and write
 *   port (H_PREFETCH_V rows, whole rows), so that a transfer never contends with the core
 *   (docs/overlap.md, section 4); the scoreboard of moe_fetch_ctrl keeps the core off the rows
 *   of a pending transfer, so the two write ports never write one row in one cycle.
 * - MRAM: rows {scales, codes} with one synchronous read port (matrix unit) and one write port
 *   (DMA engine).
 * - FP SRAM and INT SRAM (the scalar memories): asynchronous reads (the scalar unit's FP SRAM
 *   port, the issue stage's INT SRAM port) and one write port each, from scalar stores or top-k
 *   results.
 * - BF16 ROMs exp and reci with VLEN ports each (the vector unit's lanes; port 0 serves the top-k
 *   unit while it runs and the scalar unit in the issue cycle of a one-cycle instruction) and
 *   sqrt with one port (S_SQRT_FP); tables loaded by the harness.
 *
 * The read data registers of VRAM ports A and B and of the MRAM port hold their value until the
 * next read; their clocks are gated by their read enables (moe_clock_gate), so that the
 * datapaths reading them are evaluated only after a read (docs/performance.md). Row and word
 * indices arrive as the units compute them; bits beyond the memory depth are not used (the
 * decoder's checks keep the indices inside the memories).
 */
module moe_mem
  import moe_pkg::*;
#(
  parameter int unsigned  VLEN           = 64,
  parameter int unsigned  MLEN           = 64,
  parameter int unsigned  MX_BLOCK       = 8,
  parameter int unsigned  VRAM_ROWS      = 8192,
  parameter int unsigned  MRAM_TILES_MAX = 32,
  parameter int unsigned  FP_SRAM_WORDS  = 4096,
  parameter int unsigned  INT_SRAM_WORDS = 4096,
  localparam int unsigned VramRowW       = $clog2(VRAM_ROWS),
  localparam int unsigned MramRows       = MRAM_TILES_MAX * MLEN,
  localparam int unsigned MramRowW       = $clog2(MramRows),
  localparam int unsigned FpAddrW        = $clog2(FP_SRAM_WORDS),
  localparam int unsigned IntAddrW       = $clog2(INT_SRAM_WORDS),
  localparam int unsigned VramW          = VLEN * 16,
  localparam int unsigned MramW          = MLEN * 8 + (MLEN / MX_BLOCK) * 8
) (
  input  logic                clk_i,
  input  unit_e               act_unit_i,

  // VRAM read port A (registered data)
  input  logic                vec_a_re_i,
  input  logic [VramRowW-1:0] vec_a_row_i,
  input  logic                topk_vram_re_i,
  input  logic [31:0]         topk_vram_row_i,
  input  logic                mm_vram_re_i,
  input  logic [31:0]         mm_vram_row_i,
  output logic [VramW-1:0]    vram_a_rdata_o,

  // VRAM read port B (registered data)
  input  logic                vec_b_re_i,
  input  logic [VramRowW-1:0] vec_b_row_i,
  output logic [VramW-1:0]    vram_b_rdata_o,

  // VRAM read port C, the DMA engine's (registered data)
  input  logic                dma_vram_re_i,
  input  logic [VramRowW-1:0] dma_vram_row_i,
  output logic [VramW-1:0]    vram_c_rdata_o,

  // VRAM write port of the core
  input  logic                vec_vram_we_i,
  input  logic [VramRowW-1:0] vec_vram_wrow_i,
  input  logic [VramW-1:0]    vec_vram_wdata_i,
  input  logic                map_vram_we_i,
  input  logic [VramRowW-1:0] map_vram_wrow_i,
  input  logic [VramW-1:0]    map_vram_wdata_i,
  input  logic [VLEN-1:0]     map_vram_wmask_i,
  input  logic                mm_vram_we_i,
  input  logic [31:0]         mm_vram_wrow_i,
  input  logic [VramW-1:0]    mm_vram_wdata_i,
  input  logic [VLEN-1:0]     mm_vram_wmask_i,

  // VRAM write port of the DMA engine (whole rows)
  input  logic                dma_vram_we_i,
  input  logic [VramRowW-1:0] dma_vram_wrow_i,
  input  logic [VramW-1:0]    dma_vram_wdata_i,

  // MRAM read port (registered data) and write port
  input  logic                mm_mram_re_i,
  input  logic [31:0]         mm_mram_row_i,
  output logic [MramW-1:0]    mram_rdata_o,
  input  logic                dma_mram_we_i,
  input  logic [MramRowW-1:0] dma_mram_wrow_i,
  input  logic [MramW-1:0]    dma_mram_wdata_i,

  // FP SRAM / INT SRAM: asynchronous read ports, write ports
  input  logic [FpAddrW-1:0]  fpsram_raddr_i,
  output logic [15:0]         fpsram_rdata_o,
  input  logic [IntAddrW-1:0] intsram_raddr_i,
  output logic [31:0]         intsram_rdata_o,
  input  logic                sc_fps_we_i,
  input  logic [FpAddrW-1:0]  sc_fps_waddr_i,
  input  logic [15:0]         sc_fps_wdata_i,
  input  logic                sc_ints_we_i,
  input  logic [IntAddrW-1:0] sc_ints_waddr_i,
  input  logic [31:0]         sc_ints_wdata_i,
  input  logic                topk_fp_we_i,
  input  logic [31:0]         topk_fp_waddr_i,
  input  logic [15:0]         topk_fp_wdata_i,
  input  logic                topk_int_we_i,
  input  logic [31:0]         topk_int_waddr_i,
  input  logic [31:0]         topk_int_wdata_i,

  // BF16 ROMs
  input  logic [VramW-1:0]    vec_exp_addr_i,
  input  logic [VramW-1:0]    vec_reci_addr_i,
  input  logic [15:0]         topk_exp_addr_i,
  input  logic [15:0]         topk_reci_addr_i,
  input  logic [15:0]         sc_rom_addr_i,
  output logic [VramW-1:0]    exp_data_o,
  output logic [VramW-1:0]    reci_data_o,
  output logic [15:0]         sqrt_data_o,

  // Write observation (the writes that take effect at this cycle's edge)
  output logic                vram_we_o,
  output logic [VramRowW-1:0] vram_wrow_o,
  output logic                fpsram_we_o,
  output logic [FpAddrW-1:0]  fpsram_waddr_o,
  output logic                intsram_we_o,
  output logic [IntAddrW-1:0] intsram_waddr_o
);

  logic [VramW-1:0] vram    [VRAM_ROWS]      /*verilator public_flat_rw*/;
  logic [MramW-1:0] mram    [MramRows]       /*verilator public_flat_rw*/;
  logic [15:0]      fpsram  [FP_SRAM_WORDS]  /*verilator public_flat_rw*/;
  logic [31:0]      intsram [INT_SRAM_WORDS] /*verilator public_flat_rw*/;

  //////////////////
  // Port muxes   //
  //////////////////

  // VRAM read port A: vector A operand, top-k logits, matrix activations.
  logic                vram_a_re, vram_b_re;
  logic [VramRowW-1:0] vram_a_row, vram_b_row;
  assign vram_a_re = vec_a_re_i || topk_vram_re_i || mm_vram_re_i;
  always_comb begin
    unique case (act_unit_i)
      UNIT_TOPK:   vram_a_row = VramRowW'(topk_vram_row_i);
      UNIT_MATRIX: vram_a_row = VramRowW'(mm_vram_row_i);
      default:     vram_a_row = vec_a_row_i;
    endcase
  end
  assign vram_b_re  = vec_b_re_i;
  assign vram_b_row = vec_b_row_i;

  // The core's VRAM write port.
  logic                vram_we;
  logic [VramRowW-1:0] vram_wrow;
  logic [VramW-1:0]    vram_wdata;
  logic [VLEN-1:0]     vram_wmask;
  assign vram_we = vec_vram_we_i || map_vram_we_i || mm_vram_we_i;
  always_comb begin
    unique case (act_unit_i)
      UNIT_MAP: begin
        vram_wrow  = map_vram_wrow_i;
        vram_wdata = map_vram_wdata_i;
        vram_wmask = map_vram_wmask_i;
      end
      UNIT_MATRIX: begin
        vram_wrow  = VramRowW'(mm_vram_wrow_i);
        vram_wdata = mm_vram_wdata_i;
        vram_wmask = mm_vram_wmask_i;
      end
      default: begin
        vram_wrow  = vec_vram_wrow_i;
        vram_wdata = vec_vram_wdata_i;
        vram_wmask = '1;
      end
    endcase
  end

  // FP SRAM / INT SRAM write ports: scalar stores or top-k results.
  logic                fps_we, ints_we;
  logic [FpAddrW-1:0]  fps_waddr;
  logic [15:0]         fps_wdata;
  logic [IntAddrW-1:0] ints_waddr;
  logic [31:0]         ints_wdata;
  assign fps_we     = sc_fps_we_i || topk_fp_we_i;
  assign fps_waddr  = topk_fp_we_i ? FpAddrW'(topk_fp_waddr_i) : sc_fps_waddr_i;
  assign fps_wdata  = topk_fp_we_i ? topk_fp_wdata_i : sc_fps_wdata_i;
  assign ints_we    = sc_ints_we_i || topk_int_we_i;
  assign ints_waddr = topk_int_we_i ? IntAddrW'(topk_int_waddr_i) : sc_ints_waddr_i;
  assign ints_wdata = topk_int_we_i ? topk_int_wdata_i : sc_ints_wdata_i;

  // ROM port 0 serves the top-k unit while it runs, and the scalar unit in the issue cycle of
  // a one-cycle instruction (S_EXP_FP, S_RECI_FP).
  logic [VramW-1:0] exp_addr, reci_addr;
  always_comb begin
    exp_addr  = vec_exp_addr_i;
    reci_addr = vec_reci_addr_i;
    if (act_unit_i == UNIT_TOPK) begin
      exp_addr[15:0]  = topk_exp_addr_i;
      reci_addr[15:0] = topk_reci_addr_i;
    end else if (act_unit_i == UNIT_CORE) begin
      exp_addr[15:0]  = sc_rom_addr_i;
      reci_addr[15:0] = sc_rom_addr_i;
    end
  end

  moe_bf16_rom #(
    .NPorts (VLEN)
  ) u_exp_rom (
    .addr_i (exp_addr),
    .data_o (exp_data_o)
  );

  moe_bf16_rom #(
    .NPorts (VLEN)
  ) u_reci_rom (
    .addr_i (reci_addr),
    .data_o (reci_data_o)
  );

  // SQRT_BF16: S_SQRT_FP only.
  moe_bf16_rom #(
    .NPorts (1)
  ) u_sqrt_rom (
    .addr_i (sc_rom_addr_i),
    .data_o (sqrt_data_o)
  );

  ///////////////////
  // Clock gates   //
  ///////////////////

  // A read data register changes only in its read cycle (docs/performance.md).
  logic clk_vram_a, clk_vram_b, clk_vram_c, clk_mram;
  moe_clock_gate u_cg_vram_a (.clk_i, .en_i(vram_a_re),     .clk_o(clk_vram_a));
  moe_clock_gate u_cg_vram_b (.clk_i, .en_i(vram_b_re),     .clk_o(clk_vram_b));
  moe_clock_gate u_cg_vram_c (.clk_i, .en_i(dma_vram_re_i), .clk_o(clk_vram_c));
  moe_clock_gate u_cg_mram   (.clk_i, .en_i(mm_mram_re_i), .clk_o(clk_mram));

  ///////////////////////
  // Memory arrays     //
  ///////////////////////

  // The read data registers, clocked only in their read cycles (moe_clock_gate).
  always_ff @(posedge clk_vram_a) begin : vram_a_port
    vram_a_rdata_o <= vram[vram_a_row];
  end

  always_ff @(posedge clk_vram_b) begin : vram_b_port
    vram_b_rdata_o <= vram[vram_b_row];
  end

  always_ff @(posedge clk_vram_c) begin : vram_c_port
    vram_c_rdata_o <= vram[dma_vram_row_i];
  end

  // Both write ports: the scoreboard keeps them on different rows.
  always_ff @(posedge clk_i) begin : vram_port
    if (vram_we) begin
      for (int e = 0; e < int'(VLEN); e++) begin
        if (vram_wmask[e]) vram[vram_wrow][16*e +: 16] <= vram_wdata[16*e +: 16];
      end
    end
    if (dma_vram_we_i) vram[dma_vram_wrow_i] <= dma_vram_wdata_i;
  end

  always_ff @(posedge clk_mram) begin : mram_rd_port
    mram_rdata_o <= mram[MramRowW'(mm_mram_row_i)];
  end

  always_ff @(posedge clk_i) begin : mram_port
    if (dma_mram_we_i) mram[dma_mram_wrow_i] <= dma_mram_wdata_i;
  end

  assign fpsram_rdata_o  = fpsram[fpsram_raddr_i];
  assign intsram_rdata_o = intsram[intsram_raddr_i];

  always_ff @(posedge clk_i) begin : sram_ports
    if (fps_we) fpsram[fps_waddr] <= fps_wdata;
    if (ints_we) intsram[ints_waddr] <= ints_wdata;
  end

  assign vram_we_o       = vram_we;
  assign vram_wrow_o     = vram_wrow;
  assign fpsram_we_o     = fps_we;
  assign fpsram_waddr_o  = fps_waddr;
  assign intsram_we_o    = ints_we;
  assign intsram_waddr_o = ints_waddr;

  // Index bits beyond the memory depths (checked at issue) are not used.
  logic unused_bits;
  assign unused_bits = ^{topk_vram_row_i, topk_int_waddr_i, topk_fp_waddr_i,
                         mm_mram_row_i, mm_vram_row_i, mm_vram_wrow_i};

endmodule : moe_mem
