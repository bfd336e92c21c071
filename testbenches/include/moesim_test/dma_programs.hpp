// The DMA-queue program of docs/overlap.md section 7, shared by the tests of stage billing
// (testbenches/cosim/test_overlap_cli.cpp), windows (testbenches/checkpoint/test_windows_cli.cpp)
// and the DMA-queue track (testbenches/waveforms/test_vcd_sink.cpp); each test derives by hand,
// beside its use, the cycles of the queue depth it runs.
#pragma once

namespace moesim::test {

/// Two H_PREFETCH_V (VRAM rows [0, 4) and [8, 12)), a 12-iteration loop, a V_ADD_VV that reads
/// the second prefetch's rows (RAW) and an H_STORE_V of rows [16, 20), over four stages. VRAM row
/// r is element address 64 r.
inline constexpr const char* kDmaQueueProgram =
    "; @stage=residual_setup\n"
    "S_ADDI_INT gp3, gp0, 2048\n"
    "C_SET_SCALE_REG gp3\n"
    "S_ADDI_INT gp1, gp0, 512\n"
    "; @stage=expert_weight_prefetch\n"
    "H_PREFETCH_V gp0, gp0, a0, 0, 0\n"
    "H_PREFETCH_V gp1, gp0, a0, 0, 0\n"
    "; @stage=expert_projection\n"
    "S_ADDI_INT gp2, gp0, 1024\n"
    "V_ADD_VV gp2, gp0, gp0\n"
    "C_LOOP_START gp4, 12\n"
    "S_ADDI_INT gp5, gp5, 1\n"
    "C_LOOP_END gp4\n"
    "V_ADD_VV gp2, gp1, gp2\n"
    "; @stage=non_moe\n"
    "H_STORE_V gp2, gp0, a0, 0, 0\n";

}  // namespace moesim::test
