// moesim RTL cover properties of moe_dma_unit, bound into it (docs/coverage.md).

`include "moe_cover.svh"

/* verilator lint_off SYNCASYNCNET */

/**
 * moe_dma_unit, on the unit's own clock: each kind of transfer started, a row completed of each
 * prefetch kind, and the E8M0 scale bytes 0x00, 0x7F, 0xFE, 0xFF through the MX codecs: a row
 * that H_PREFETCH_V decodes (the dequantisers' scales: row_scales in the cycle the row is
 * written to VRAM), a row that H_PREFETCH_M writes raw to MRAM, and a row that H_STORE_V encodes
 * (the quantisers' scales, in the cycle of the row's first scale beat).
 */
module moe_dma_unit_cov
  import moe_pkg::*;
#(
  parameter int unsigned NSCALE = 8
) (
  input logic              clk_i,
  input logic              rst_ni,
  input logic              start_i,
  input dma_op_e           op_i,
  input logic              vram_we,
  input logic              mram_we,
  input logic [NSCALE*8-1:0] row_scales,
  input logic              scale_beat,
  input logic [NSCALE*8-1:0] enc_scales
);
  `MOE_COVER(DmaStartPrefetchM_C, start_i && op_i == DMA_PREFETCH_M)
  `MOE_COVER(DmaStartPrefetchV_C, start_i && op_i == DMA_PREFETCH_V)
  `MOE_COVER(DmaStartStoreV_C,    start_i && op_i == DMA_STORE_V)
  `MOE_COVER(DmaRowToVram_C,      vram_we)
  `MOE_COVER(DmaRowToMram_C,      mram_we)

  function automatic logic has(logic [NSCALE*8-1:0] sc, logic [7:0] v);
    logic hit;
    hit = 1'b0;
    for (int unsigned i = 0; i < NSCALE; i++) hit |= (sc[8*i +: 8] == v);
    return hit;
  endfunction
  // Bits 0..3: the scales hold 0x00, 0x7F, 0xFE, 0xFF. On wires: Verilator 5.006 counts a cover
  // property whose expression calls a function as never hit.
  logic [3:0] row_sp, enc_sp;
  assign row_sp = {has(row_scales, 8'hFF), has(row_scales, 8'hFE), has(row_scales, 8'h7F),
                   has(row_scales, 8'h00)};
  assign enc_sp = {has(enc_scales, 8'hFF), has(enc_scales, 8'hFE), has(enc_scales, 8'h7F),
                   has(enc_scales, 8'h00)};
  `MOE_COVER(DmaDequantScale00_C, vram_we && row_sp[0])
  `MOE_COVER(DmaDequantScale7F_C, vram_we && row_sp[1])
  `MOE_COVER(DmaDequantScaleFE_C, vram_we && row_sp[2])
  `MOE_COVER(DmaDequantScaleFF_C, vram_we && row_sp[3])
  `MOE_COVER(DmaRawScale00_C,     mram_we && row_sp[0])
  `MOE_COVER(DmaRawScale7F_C,     mram_we && row_sp[1])
  `MOE_COVER(DmaRawScaleFE_C,     mram_we && row_sp[2])
  `MOE_COVER(DmaRawScaleFF_C,     mram_we && row_sp[3])
  `MOE_COVER(DmaQuantScale00_C,   scale_beat && enc_sp[0])
  `MOE_COVER(DmaQuantScale7F_C,   scale_beat && enc_sp[1])
  `MOE_COVER(DmaQuantScaleFE_C,   scale_beat && enc_sp[2])
  `MOE_COVER(DmaQuantScaleFF_C,   scale_beat && enc_sp[3])
endmodule : moe_dma_unit_cov
