// The MoE program builder without a simulator: its text path and stages, token padding and
// the V_TOPK policy it picks, and the size checks against the machine preset. Links the workload
// layer only.
#include <boost/test/unit_test.hpp>
#include <set>

#include "moesim/isa/assembler.hpp"
#include "moesim/isa/numerics.hpp"
#include "moesim/workload/builder.hpp"
#include "moesim_test/layers.hpp"

using namespace moesim;

namespace {

using test::build_shaped;

std::string usage_error(unsigned tokens, unsigned hidden, unsigned intermediate) {
  try {
    build_shaped(tokens, hidden, intermediate);
  } catch (const UsageError& e) {
    return e.what();
  }
  return "";
}

}  // namespace

BOOST_AUTO_TEST_CASE(builder_text_assembles_with_every_routed_stage) {
  const auto& spec = isa::Spec::builtin();
  const auto b = build_shaped(4, 128, 128);
  // The program is the assembled text: assembling it again gives the same words and stages.
  const auto again = isa::assemble(spec, b.asm_text, "again.asm");
  BOOST_TEST(again.words == b.program.words);
  BOOST_TEST(again.stages == b.program.stages);
  std::set<std::string> stages;
  for (uint8_t c : b.program.stages) stages.insert(spec.stage_by_code(c)->name);
  for (const char* s :
       {"residual_setup", "router_topk", "accumulator_init", "gather", "expert_weight_address",
        "expert_weight_prefetch", "expert_projection", "expert_bias", "expert_activation",
        "expert_route_weight", "scatter_combine", "non_moe"})
    BOOST_TEST(stages.count(s) == 1u, "stage " << s);
  BOOST_TEST(stages.count("other") == 0u);
  BOOST_TEST(b.asm_text.find("V_TOPK gp11, gp9, gp12, 0") != std::string::npos);  // rmask 0: 32/4
  BOOST_TEST(b.layout.pairs == 16u);
  // alpha is the BF16 constant 1.703125.
  BOOST_TEST(b.layout.alpha_bf16 == 0x3FDAu);
  BOOST_TEST(num::bf16_to_f32(b.layout.alpha_bf16) == 1.703125f);
  // Same seed, same image; another seed, another image.
  BOOST_TEST(build_shaped(4, 128, 128).image.hbm[0].bytes == b.image.hbm[0].bytes);
  BOOST_TEST(build_shaped(4, 128, 128, "default", 2).image.hbm[0].bytes != b.image.hbm[0].bytes);
}

BOOST_AUTO_TEST_CASE(builder_pads_tokens_and_uses_the_policy_register_for_other_shapes) {
  const auto b = build_shaped(5, 64, 64);
  BOOST_TEST(b.layout.tokens_padded == 8u);
  BOOST_TEST(b.layout.pairs == 20u);
  const auto big = build_shaped(2, 64, 64, "default", 1, "gpt-oss-120b");  // E=128, k=4: rmask 15
  BOOST_TEST(big.layout.topk_rmask == 15u);
  BOOST_TEST(big.layout.logit_rows == 2u);
  BOOST_TEST(big.asm_text.find("C_SET_TOPK_REG") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(builder_rejects_sizes_the_machine_cannot_hold) {
  BOOST_TEST(usage_error(4, 100, 128).find("--hidden 100") != std::string::npos);
  BOOST_TEST(usage_error(4, 128, 96).find("--intermediate 96") != std::string::npos);
  BOOST_TEST(usage_error(0, 128, 128).find("--tokens") != std::string::npos);
  BOOST_TEST(usage_error(4, 2880, 128).find("MRAM_TILES=16") != std::string::npos);
  BOOST_TEST(usage_error(4, 2880, 128).find("--hidden 2880") != std::string::npos);
  BOOST_TEST(usage_error(4, 128, 2880).find("--intermediate 2880") != std::string::npos);
  BOOST_TEST(usage_error(4000, 64, 64).find("VRAM_ROWS=8192") != std::string::npos);
  BOOST_TEST(usage_error(2000, 64, 64).find("FP_SRAM_WORDS=4096") != std::string::npos);
  BOOST_TEST(usage_error(4, 1024, 1024).find("HBM_BYTES=67108864") != std::string::npos);
  BOOST_TEST(usage_error(4, 128, 128).empty());
  BOOST_CHECK_THROW(workload::find_model("mixtral"), UsageError);
}
