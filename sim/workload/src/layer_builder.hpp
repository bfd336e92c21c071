// The MoE program builder's lowering of one layer (internal to sim/workload/src; build_moe_layer in
// builder.cpp drives it). One class, its parts in one file each: build_layout.cpp (checks and
// Layout), build_router.cpp, build_routed_experts.cpp (pair- and expert-major),
// build_shared_expert.cpp, build_common.cpp (emitters the parts share) and build_image.cpp.
#pragma once

#include <cstdint>
#include <deque>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "emitter.hpp"
#include "moesim/isa/program.hpp"
#include "moesim/isa/spec.hpp"
#include "moesim/workload/builder.hpp"
#include "moesim/workload/presets.hpp"

namespace moesim::workload::detail {

/// Token rows t < T of the column-block-major T_pad x H matrix `src` times R[t][e] (FP SRAM
/// fp_dense + t*E + e) into `dst` (same layout; dst = src in place). Expert-major; also emitted
/// by the score-scales-output rewrite (program_fault.cpp).
void emit_route_rows(Emitter& em, const Layout& L, uint64_t vlen, unsigned e, uint64_t src,
                     uint64_t dst);

class LayerBuilder {
 public:
  LayerBuilder(const isa::Spec& spec, const isa::MachinePreset& m, const BuildOptions& o);

  BuiltProgram build();
  /// The routing checks that need no machine preset (build_layout.cpp; check_model_routing).
  static void check_routing(const ModelPreset& m);

 private:
  // builder.cpp
  std::string emit_program();
  std::vector<Utilisation> utilisation() const;

  // build_layout.cpp
  /// Where the token count comes from, as the user gave it: "--tokens T" or the route trace.
  std::string tokens_source() const;
  [[noreturn]] void too_small(const std::string& what, uint64_t need, const std::string& key,
                              uint64_t have) const;
  void validate_and_lay_out();
  void check_recorded() const;

  // build_router.cpp
  void set_topk_policy(uint64_t experts, uint64_t k);
  void emit_router();
  void emit_biased_scores();
  void emit_group_scores_max();
  void emit_group_mask(uint64_t src);
  void emit_scatter_scores(unsigned t);
  void emit_softmax_weights(unsigned t);
  void emit_sigmoid_weights(unsigned t);
  void emit_input_scores(unsigned t);
  void emit_streamed_logits(const std::function<void(const std::function<void()>&)>& expert,
                            const std::function<void(unsigned, uint64_t)>& blocks);

  // build_routed_experts.cpp
  void emit_weight_address(unsigned p, uint64_t w_base, uint64_t expert_bytes, uint64_t n,
                           uint64_t k);
  void emit_expert_bias(unsigned p, uint64_t bias_vram, uint64_t blocks, uint64_t slot);
  void emit_token_rows(const std::string& mnemonic, unsigned p, uint64_t dst, uint64_t dst_rows,
                       uint64_t src, uint64_t src_rows);
  isa::WorkTag pair_tag(unsigned p) const;
  void set_next_after_routed(unsigned p);
  void emit_pair(unsigned p);
  void emit_scale_rows(uint64_t weight, uint64_t dst, uint64_t blocks, uint64_t stride);
  void emit_expert(unsigned e);

  // build_deployment.cpp
  void emit_rank_mask();

  // build_shared_expert.cpp
  void emit_shared();

  // build_common.cpp
  void emit_matrix_transfer(const std::string& mnemonic, const MxMatrix& mm, uint64_t vram,
                            unsigned areg);
  void emit_input_loads();
  void emit_loop_with_deferred_loads(uint64_t iterations, const std::function<void()>& body);
  void emit_deferred_loads_left();
  size_t deferred_run(size_t cap) const;
  void emit_deferred_setup(size_t n);
  void emit_first_prologue();
  void emit_transfer_regs(const MxMatrix& mm);
  void emit_scalar_sigmoid(unsigned fd);
  void emit_zero_rows(uint64_t base, uint64_t groups, uint64_t rows, uint64_t skip);
  void emit_accumulator_init();
  void emit_projection(uint64_t n, uint64_t k, uint64_t in_slot, uint64_t out_slot,
                       uint64_t groups = 1,
                       const std::string& prefetch_stage = "expert_weight_prefetch",
                       const std::string& mm_stage = "expert_projection");
  bool double_buffered(uint64_t n, uint64_t k) const;
  void emit_projection_pipelined(uint64_t n, uint64_t k, uint64_t in_slot, uint64_t out_slot,
                                 uint64_t groups, const std::string& prefetch_stage,
                                 const std::string& mm_stage);
  void emit_activation(uint64_t ib, uint64_t rows, uint64_t active, uint64_t h1, uint64_t act,
                       Activation kind);
  void emit_constants();
  void emit_static_weight_address(const MxMatrix& w);
  void emit_add_rows(uint64_t dst, uint64_t src, uint64_t blocks, bool src_per_row);
  void emit_output_store();

  // build_image.cpp
  isa::MemoryImage make_image();

  /// The projection emit_projection emits after the next one (with a DMA queue its first
  /// weight tiles are prefetched under the current one's last output tile): the code that sets
  /// its a[kAExpert], SCALE and STRIDE (may use gp4..gp6), N, K, its prefetch stage and work tag.
  /// Set by the caller before emit_projection, which consumes it; unset: none.
  struct NextProjection {
    std::function<void()> address;
    uint64_t n = 0, k = 0;
    std::string prefetch_stage;
    isa::WorkTag tag;
  };
  NextProjection next_;
  /// One H_PREFETCH_V (HBM_V_ROWS rows of one VLEN block) that emit_input_loads left for the
  /// router's loops to issue (DMA queue: docs/workloads.md, Programs that use the queue): its
  /// matrix, VRAM element address and HBM offset from the matrix's base.
  struct DeferredLoad {
    const MxMatrix* mm;
    uint64_t vram, hbm;
  };
  std::deque<DeferredLoad> deferred_;
  /// The matrix a0, SCALE and STRIDE were last set for by emit_deferred_setup.
  const MxMatrix* deferred_set_ = nullptr;
  /// Token 0's router loads W_r's row groups after the first (emit_streamed_logits).
  bool stream_wr_ = false;
  /// emit_first_prologue has run.
  bool first_prologue_ = false;
  /// The first MRAM tile of the buffer into which the previous projection prefetched the next
  /// one's output tile 0 (emit_projection_pipelined), or none.
  std::optional<uint64_t> prefetched_;

  const isa::Spec& spec_;
  const isa::MachinePreset& m_;
  const BuildOptions& opt_;
  uint64_t vlen_ = 0, mlen_ = 0, blen_ = 0, mxb_ = 0, vrows_ = 0;
  Layout L_;
  Emitter e_;
  bool constants_loaded_ = false;
};

}  // namespace moesim::workload::detail
