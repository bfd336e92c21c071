// moesim numerics contract (docs/numerics.md): BF16 storage, IEEE-754 binary32
// arithmetic with round-to-nearest-even and subnormals, canonical NaN, OCP MX v1.0 MXFP8
// (E4M3 elements, E8M0 scales). This is the golden model's arithmetic; the RTL implements the
// same rules independently in SystemVerilog. Host `float` is used only where it is exactly
// IEEE binary32 RNE (compiled with -ffp-contract=off, no -ffast-math); NaNs are canonicalised.
#pragma once

#include <cstddef>
#include <cstdint>

namespace moesim::num {

constexpr uint32_t kF32CanonicalNaN = 0x7FC00000u;
constexpr uint16_t kBf16CanonicalNaN = 0x7FC0u;
constexpr uint8_t kE4M3NaN = 0x7F;  ///< S.1111.111 (either sign is NaN)
constexpr uint8_t kE8M0NaN = 0xFF;
constexpr float kE4M3Max = 448.0f;

float f32_from_bits(uint32_t bits);
uint32_t f32_bits(float f);
/// NaN -> 0x7FC00000, everything else unchanged.
float canon(float f);

/// BF16 -> FP32 (exact).
float bf16_to_f32(uint16_t b);
/// FP32 -> BF16 round-to-nearest-even; overflow rounds to +-inf; NaN -> 0x7FC0.
uint16_t f32_to_bf16(float f);

/// IEEE binary32 RNE with canonical NaN results.
float add(float a, float b);
float sub(float a, float b);
float mul(float a, float b);
/// max/min for V_MAX_VF/V_MIN_VF: NaN if either is NaN; max(-0,+0)=+0, min(-0,+0)=-0.
float max(float a, float b);
float min(float a, float b);

/// E4M3 (OCP): bias 7, no infinities, 0x7F/0xFF NaN, max 448, subnormals m/8 * 2^-6.
float e4m3_to_f32(uint8_t code);
/// FP32 -> E4M3 RNE with saturation to +-448 (inf saturates); NaN -> 0x7F.
uint8_t f32_to_e4m3(float f);
/// E8M0: 2^(code-127); 0xFF is NaN. Returned as FP32 (2^-127 is a binary32 subnormal).
float e8m0_to_f32(uint8_t code);

/// Dequantised element: bf16_rne(e4m3(code) * 2^(scale-127)) via FP32 RNE (H_PREFETCH_V).
uint16_t mx_dequant_bf16(uint8_t code, uint8_t scale);

/// Quantise n BF16 values (n = block size) per H_STORE_V (isa.yaml): NaN anywhere -> scale 0xFF,
/// codes 0x7F; else e = clamp(floor(log2(amax)) - 8, -127, 127), codes = RNE_sat(x / 2^e).
/// Writes n codes to `codes` and returns the scale byte.
uint8_t mx_quantize(const uint16_t* bf16, size_t n, uint8_t* codes);

/// MX dot product of one block of n = MX_BLOCK elements (M_MM, M_MV; isa.yaml "MXDOT"): the n
/// products bf16 x e4m3 formed exactly in FP32, summed by the pairwise tree over n (level 0 adds
/// (p[2i], p[2i+1]), each level halves: for n = 8 ((p0+p1)+(p2+p3))+((p4+p5)+(p6+p7))), times
/// 2^(scale-127), all FP32 RNE. n is MX_BLOCK (8 by default, 32 selectable by preset); any
/// power of two up to kMxDotMax is accepted, else std::invalid_argument.
constexpr size_t kMxDotMax = 256;
float mx_block_dot(const uint16_t* a_bf16, const uint8_t* w_e4m3, size_t n, uint8_t scale);

/// MX dot product of one K block of n = MX_BLOCK elements read across MX blocks (M_TMV, M_TMM;
/// isa.yaml "TXDOT": K runs over tile rows, so each element has its own scale):
/// q_t = (bf16 x e4m3, exact) x 2^(scales[t]-127) in FP32 RNE, then the pairwise tree over the n
/// q_t (as mx_block_dot) in FP32 RNE. n as mx_block_dot.
float mx_block_tdot(const uint16_t* a_bf16, const uint8_t* w_e4m3, const uint8_t* scales, size_t n);

/// V_RED_SUM's pairwise tree over n (a power of two) FP32 values, FP32 RNE.
float tree_sum(const float* x, size_t n);

/// Correctly rounded BF16 transcendentals, read from the generated ROM tables (isa_spec/gen,
/// built with MPFR; tested against an independent __float128 oracle).
uint16_t exp_bf16(uint16_t x);
uint16_t reci_bf16(uint16_t x);
/// sqrt(x) correctly rounded to BF16: sqrt(-0) = -0, x < 0 (and -inf) and NaN give 0x7FC0.
uint16_t sqrt_bf16(uint16_t x);
const uint16_t* exp_bf16_table();   ///< 65536 entries
const uint16_t* reci_bf16_table();  ///< 65536 entries
const uint16_t* sqrt_bf16_table();  ///< 65536 entries

}  // namespace moesim::num
