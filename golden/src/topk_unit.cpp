#include "topk_unit.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <stdexcept>

#include "moesim/isa/numerics.hpp"

namespace moesim::golden {

using isa::Opcode;
using isa::TrapCause;

TopkUnit::TopkUnit(sc_core::sc_module_name name, const isa::Spec& spec, const Geometry& g)
    : sc_module(name), spec_(spec), g_(g) {}

bool TopkUnit::implements(Opcode op) const { return op == Opcode::V_TOPK; }

bool TopkUnit::register_policy(const Issue& is) const {
  const isa::TopkPolicySpec* p = spec_.topk_policy(is.d.r3);
  return p != nullptr && !p->hardwired();
}

TopkUnit::Shape TopkUnit::shape(const Issue& is) const {
  const isa::TopkPolicySpec* p = spec_.topk_policy(is.d.r3);
  if (p != nullptr && p->hardwired()) return {p->experts, p->k};
  return {isa::topk_policy_e(is.regs.topk_policy), isa::topk_policy_k(is.regs.topk_policy)};
}

TrapSet TopkUnit::check(const Issue& is) {
  TrapSet t;
  if (register_policy(is)) {
    if (!is.regs.topk_valid) {
      t.add(TrapCause::topk_policy_unset);
      return t;
    }
    const Shape s = shape(is);
    if (s.k == 0 || s.k > s.experts || s.experts > g_.max_topk_experts) {
      t.add(TrapCause::topk_policy_invalid);
      return t;
    }
  }
  const Shape s = shape(is);
  check_vram_rows(t, g_, is.gp(is.d.rs1), (s.experts + g_.vlen - 1) / g_.vlen, Access::Read);
  check_range(t, is.gp(is.d.rs2), s.k, g_.int_sram_words);
  check_range(t, is.gp(is.d.rd), s.k, g_.fp_sram_words);
  return t;
}

std::map<std::string, int64_t> TopkUnit::latency_vars(const Issue& is) const {
  const Shape s = shape(is);
  return {{"E", static_cast<int64_t>(s.experts)}, {"k", static_cast<int64_t>(s.k)}};
}

void TopkUnit::execute(const Issue& is, Effects& fx) {
  if (is.op != Opcode::V_TOPK) {
    throw std::logic_error("golden: top-k unit cannot execute opcode " +
                           std::to_string(is.d.opcode));
  }
  const Shape s = shape(is);
  const uint64_t rows = (s.experts + g_.vlen - 1) / g_.vlen;
  const uint64_t row0 = is.gp(is.d.rs1) / g_.vlen;
  const std::vector<uint16_t> logits = vram.read_u16(row0 * g_.vram_row_bytes(), rows * g_.vlen);

  // Selection: NaN counts as -inf; value descending, ties to the lower expert index.
  std::vector<float> key(s.experts);
  for (uint64_t e = 0; e < s.experts; ++e) {
    const float v = num::bf16_to_f32(logits[e]);
    key[e] = std::isnan(v) ? -std::numeric_limits<float>::infinity() : v;
  }
  std::vector<uint32_t> order(s.experts);
  std::iota(order.begin(), order.end(), 0u);
  std::stable_sort(order.begin(), order.end(),
                   [&](uint32_t a, uint32_t b) { return key[a] > key[b]; });

  // Softmax over the selected logits in rank order (as read: NaN is -inf here too).
  const float m = key[order[0]];
  std::vector<uint16_t> ex(s.k);
  float sum = 0.0f;
  for (uint64_t j = 0; j < s.k; ++j) {
    const uint16_t dj = num::f32_to_bf16(num::sub(key[order[j]], m));
    ex[j] = num::exp_bf16(dj);
    sum = num::add(sum, num::bf16_to_f32(ex[j]));
  }
  const uint16_t sum_bf16 = num::f32_to_bf16(sum);
  const float sum_f = num::bf16_to_f32(sum_bf16);
  const bool usable = !std::isnan(sum_f) && !std::isinf(sum_f) && sum_f > 0.0f;
  const float r = usable ? num::bf16_to_f32(num::reci_bf16(sum_bf16)) : 0.0f;
  std::vector<uint16_t> w(s.k, 0);
  std::vector<uint8_t> ids(4 * s.k);
  for (uint64_t j = 0; j < s.k; ++j) {
    if (usable) w[j] = num::f32_to_bf16(num::mul(num::bf16_to_f32(ex[j]), r));
    for (unsigned b = 0; b < 4; ++b) ids[4 * j + b] = static_cast<uint8_t>(order[j] >> (8 * b));
  }

  const uint64_t id_addr = is.gp(is.d.rs2);
  const uint64_t w_addr = is.gp(is.d.rd);
  int_sram.write(4 * id_addr, ids.data(), ids.size());
  fp_sram.write_u16(2 * w_addr, w);
  fx.wrote(isa::Space::IntSram, id_addr, id_addr + s.k);
  fx.wrote(isa::Space::FpSram, w_addr, w_addr + s.k);
}

}  // namespace moesim::golden
