// Test helper: an MXFP8 matrix of the builder's HBM image dequantised to doubles, for float64
// evaluations of a generated layer (test_builder.cpp, test_workloads.cpp).
#pragma once

#include <cstdint>
#include <vector>

#include "moesim/isa/numerics.hpp"

namespace moesim::test {

/// Dequantised MXFP8 matrix (rows x cols): codes row-major at `base`, E8M0 scales (one per
/// `mx_block` codes) at base + rows*cols.
inline std::vector<double> dequant(const std::vector<uint8_t>& hbm, uint64_t base, uint64_t rows,
                                   uint64_t cols, uint64_t mx_block) {
  std::vector<double> v(rows * cols);
  for (uint64_t o = 0; o < rows * cols; ++o)
    v[o] = num::bf16_to_f32(
        num::mx_dequant_bf16(hbm[base + o], hbm[base + rows * cols + o / mx_block]));
  return v;
}

}  // namespace moesim::test
