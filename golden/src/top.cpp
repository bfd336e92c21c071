#include "top.hpp"

#include <stdexcept>

namespace moesim::golden {

using isa::Space;

Top::Top(sc_core::sc_module_name name, const isa::Spec& spec, const isa::MachinePreset& preset,
         const Geometry& g)
    : sc_module(name),
      vram_mem(g.bytes(Space::Vram)),
      mram_mem(g.bytes(Space::Mram)),
      fp_sram_mem(g.bytes(Space::FpSram)),
      int_sram_mem(g.bytes(Space::IntSram)),
      hbm_mem(g.bytes(Space::Hbm)),
      vram("vram", vram_mem, {"sc2vram", "vec2vram", "topk2vram", "mat2vram", "dma2vram"}),
      mram("mram", mram_mem, {"mat2mram", "dma2mram"}),
      fp_sram("fp_sram", fp_sram_mem, {"sc2fp", "topk2fp"}),
      int_sram("int_sram", int_sram_mem, {"sc2int", "vec2int", "topk2int"}),
      hbm("hbm", hbm_mem, {"dma2hbm"}),
      scalar("scalar", g),
      vector("vector", g),
      topk("topk", spec, g),
      matrix("matrix", g),
      dma("dma", g),
      dma_engine("dma_engine", clock, records, static_cast<uint8_t>(isa::Unit::Dma)),
      core("core", spec, preset, g, clock, records) {
  scalar.fp_sram.socket.bind(fp_sram.port("sc2fp"));
  scalar.int_sram.socket.bind(int_sram.port("sc2int"));
  scalar.vram.socket.bind(vram.port("sc2vram"));
  vector.vram.socket.bind(vram.port("vec2vram"));
  vector.int_sram.socket.bind(int_sram.port("vec2int"));
  topk.vram.socket.bind(vram.port("topk2vram"));
  topk.int_sram.socket.bind(int_sram.port("topk2int"));
  topk.fp_sram.socket.bind(fp_sram.port("topk2fp"));
  matrix.vram.socket.bind(vram.port("mat2vram"));
  matrix.mram.socket.bind(mram.port("mat2mram"));
  dma.hbm.socket.bind(hbm.port("dma2hbm"));
  dma.mram.socket.bind(mram.port("dma2mram"));
  dma.vram.socket.bind(vram.port("dma2vram"));
  core.scalar(scalar);
  core.vector(vector);
  core.topk(topk);
  core.matrix(matrix);
  core.dma(dma);
  dma_engine.unit(dma);
  core.transfers(dma_engine);
}

Memory& Top::memory(Space s) {
  switch (s) {
    case Space::Vram:
      return vram_mem;
    case Space::Mram:
      return mram_mem;
    case Space::FpSram:
      return fp_sram_mem;
    case Space::IntSram:
      return int_sram_mem;
    case Space::Hbm:
      return hbm_mem;
  }
  throw std::logic_error("golden: unknown memory space");
}

}  // namespace moesim::golden
