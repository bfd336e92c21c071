// Top of the golden design: the five memories (plain Memory objects behind MemoryTarget TLM
// targets), the five execution units, the DMA engine (the DMA queue of docs/overlap.md) and the
// core, bound in the constructor; the cycle clock and the record queue they share. Socket names
// follow source2destination ("mat2vram": matrix unit to VRAM), as in the NVDLA C-model.
#pragma once

#include "core.hpp"
#include "dma_engine.hpp"
#include "dma_unit.hpp"
#include "matrix_unit.hpp"
#include "memory.hpp"
#include "scalar_unit.hpp"
#include "topk_unit.hpp"
#include "vector_unit.hpp"

namespace moesim::golden {

class Top : public sc_core::sc_module {
 public:
  Top(sc_core::sc_module_name name, const isa::Spec& spec, const isa::MachinePreset& preset,
      const Geometry& g);

  /// Storage of a space (backdoor: image load and result read-out).
  Memory& memory(isa::Space s);
  const Memory& memory(isa::Space s) const { return const_cast<Top*>(this)->memory(s); }

  CycleClock clock;
  RecordQueue records;
  Memory vram_mem, mram_mem, fp_sram_mem, int_sram_mem, hbm_mem;
  MemoryTarget vram, mram, fp_sram, int_sram, hbm;
  ScalarUnit scalar;
  VectorUnit vector;
  TopkUnit topk;
  MatrixUnit matrix;
  DmaUnit dma;
  DmaEngine dma_engine;
  Core core;
};

}  // namespace moesim::golden
