// Helpers of the RTL unit benches: bit-field access to Verilated ports of any width (CData ..
// QData, VlWide<N>), element order as in the RTL (element i of a packed vector of w-bit elements
// is bits [w*i +: w]).
#pragma once

#include <cstddef>
#include <cstdint>
#include <type_traits>

namespace moesim::rtlu {

template <typename Port>
constexpr size_t port_bits(const Port&) {
  return sizeof(Port) * 8;
}

/// Writes `width` (<= 32) bits of `value` at bit `lsb` of `port`.
template <typename Port>
void put_bits(Port& port, size_t lsb, size_t width, uint32_t value) {
  const uint64_t mask = (width >= 64) ? ~uint64_t{0} : ((uint64_t{1} << width) - 1);
  if constexpr (std::is_integral_v<Port>) {
    const uint64_t cur = static_cast<uint64_t>(port);
    port = static_cast<Port>((cur & ~(mask << lsb)) | ((uint64_t{value} & mask) << lsb));
  } else {
    for (size_t b = 0; b < width; ++b) {
      const size_t bit = lsb + b;
      const uint32_t m = uint32_t{1} << (bit % 32);
      if ((value >> b) & 1u)
        port[bit / 32] |= m;
      else
        port[bit / 32] &= ~m;
    }
  }
}

/// Reads `width` (<= 32) bits at bit `lsb` of `port`.
template <typename Port>
uint32_t get_bits(const Port& port, size_t lsb, size_t width) {
  const uint64_t mask = (uint64_t{1} << width) - 1;
  if constexpr (std::is_integral_v<Port>) {
    return static_cast<uint32_t>((static_cast<uint64_t>(port) >> lsb) & mask);
  } else {
    uint32_t v = 0;
    for (size_t b = 0; b < width; ++b) {
      const size_t bit = lsb + b;
      v |= ((port[bit / 32] >> (bit % 32)) & 1u) << b;
    }
    return v;
  }
}

}  // namespace moesim::rtlu
