// MoE program builder: the shared expert over all tokens, with its gate.
#include <string>

#include "layer_builder.hpp"

namespace moesim::workload::detail {

void LayerBuilder::emit_shared() {
  const uint64_t H = L_.hidden, IS = L_.shared_intermediate;
  const uint64_t hb = H / vlen_, isb = IS / vlen_, tp = L_.tokens_padded;
  const uint64_t groups = tp / blen_;
  e_.pair({});
  e_.comment("---- shared expert (I_s = " + std::to_string(IS) + ") over all " +
             std::to_string(tp) + " rows, " + std::to_string(groups) + " BLEN-row groups");
  e_.stage("shared_expert_projection");
  e_.comment("gate/up projection: [g, u] = W1_s x (2I_s x H)");
  emit_static_weight_address(L_.ws1);
  next_ = {[this] {
             e_.stage("shared_expert_projection");
             emit_static_weight_address(L_.ws2);
           },
           H,
           IS,
           "shared_expert_projection",
           {}};
  emit_projection(2 * IS, H, L_.v_x, L_.v_sh1, groups, "shared_expert_projection",
                  "shared_expert_projection");
  e_.stage("shared_expert_activation");
  emit_constants();
  emit_activation(isb, tp, L_.tokens, L_.v_sh1, L_.v_shact, shared_activation(*opt_.model));
  e_.stage("shared_expert_projection");
  e_.comment("down projection: s = W2_s h (H x I_s)");
  emit_static_weight_address(L_.ws2);
  emit_projection(H, IS, L_.v_shact, L_.v_shout, groups, "shared_expert_projection",
                  "shared_expert_projection");
  if (L_.shared_gate) {
    e_.stage("shared_expert_gate");
    e_.comment("s_t *= sigmoid(w_g . x_t): dot product, sigmoid on the scalar FP unit, broadcast");
    for (unsigned t = 0; t < L_.tokens; ++t) {
      e_.pair({static_cast<int32_t>(t), -1, -1, -1});
      e_.op("S_LD_FP " + fr(kFAcc) + ", gp0, " + std::to_string(L_.fp_zero));
      e_.li(4, L_.v_x + uint64_t{t} * vlen_);
      e_.li(5, L_.v_wg);
      e_.li(6, L_.v_tmp);
      e_.loop_start(kL1, hb);
      e_.op("V_MUL_VV gp6, gp4, gp5, 0");
      e_.op("V_RED_SUM " + fr(kFAcc) + ", gp6, 0");
      e_.addi(4, 4, tp * vlen_);
      e_.addi(5, 5, L_.wg.rows * vlen_);
      e_.loop_end(kL1);
      emit_scalar_sigmoid(kFAcc);
      e_.li(7, L_.v_gate);
      e_.li(8, L_.v_zero);
      e_.op("V_ADD_VF gp7, gp8, " + fr(kFAcc) + ", 0");
      e_.li(9, L_.v_shout + uint64_t{t} * vlen_);
      e_.loop_start(kL1, hb);
      e_.op("V_MUL_VV gp9, gp9, gp7, 0");
      e_.addi(9, 9, tp * vlen_);
      e_.loop_end(kL1);
    }
    e_.pair({});
  }
  e_.stage("scatter_combine");
  e_.comment("y_t += s_t (unweighted)");
  emit_add_rows(L_.v_acc, L_.v_shout, hb, true);
  e_.blank();
}

}  // namespace moesim::workload::detail
