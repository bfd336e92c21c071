// Per-rank programs of a deployment (docs/deployments.md, Per-rank programs), without engines:
// the mask tables of each rank's initial image against values worked out by hand from the
// shipped gpt-oss-20b-ep2-r4 deployment (written here from the definition, not from the code),
// the weights each slot holds, every pair landing on exactly one rank in the reference, the
// combine against the single-accelerator layer, Kimi-K2's rank programs, and the refusals (more
// experts than MAX_TOPK_EXPERTS naming n_routed_experts, max_tokens_per_rank).
#include <boost/test/unit_test.hpp>
#include <cstring>

#include "moesim/isa/numerics.hpp"
#include "moesim/isa/spec.hpp"
#include "moesim/workload/deployment_build.hpp"

using namespace moesim;

namespace {

workload::Deployment shipped(const std::string& name) {
  for (const workload::Deployment& d :
       workload::load_deployments(workload::default_deployments_file()))
    if (d.name == name) return d;
  throw std::logic_error("no deployment " + name);
}

workload::DeploymentBuild build(const std::string& name, unsigned tokens = 4) {
  const auto& spec = isa::Spec::builtin();
  workload::BuildOptions o;
  o.tokens = tokens;
  o.hidden = 64;
  o.intermediate = 64;
  return workload::build_deployment(spec, spec.preset("default"), shipped(name), o);
}

uint32_t int_word(const isa::MemoryImage& img, uint64_t w) {
  uint32_t v = 0;
  std::memcpy(&v, &img.int_sram.at(0).bytes.at(4 * w), 4);
  return v;
}

uint16_t fp_word(const isa::MemoryImage& img, uint64_t w) {
  uint16_t v = 0;
  std::memcpy(&v, &img.fp_sram.at(0).bytes.at(2 * w), 2);
  return v;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(deployment_programs)

BOOST_AUTO_TEST_CASE(gpt_oss_ep2_r4_mask_tables_and_slots) {
  const workload::DeploymentBuild b = build("gpt-oss-20b-ep2-r4");
  // E = 32 + 4 redundant (copies of 3, 7, 11, 19 at physical 32..35) = 36 physical, 18 a rank:
  // rank 0 holds physical 0..17, rank 1 physical 18..35 (local 14..17 the copies). Each listed
  // expert has 2 copies, so the tables have C = 2 rows (even and odd tokens); slot 18 is the
  // zero sentinel.
  BOOST_REQUIRE_EQUAL(b.ranks.size(), 2u);
  struct Want {
    unsigned rank, row, logical, slot;
  };
  const Want want[] = {
      {0, 0, 3, 3},   {0, 1, 3, 18},  {1, 0, 3, 18},  {1, 1, 3, 14},   // 3: physical 3, 32
      {0, 0, 19, 18}, {0, 1, 19, 18}, {1, 0, 19, 1},  {1, 1, 19, 17},  // 19: physical 19, 35
      {0, 0, 0, 0},   {0, 1, 0, 0},   {1, 0, 0, 18},  {1, 1, 0, 18},   // 0: no copy
      {0, 0, 17, 17}, {1, 1, 18, 0},  {1, 0, 31, 13}, {0, 1, 31, 18}};
  for (const Want& w : want) {
    const workload::Layout& L = b.ranks[w.rank].layout;
    const isa::MemoryImage& img = b.ranks[w.rank].image;
    BOOST_TEST_INFO("rank " << w.rank << " row " << w.row << " logical " << w.logical);
    BOOST_TEST(L.mask_modulus == 2u);
    BOOST_TEST(L.expert_slots == 19u);
    BOOST_TEST(int_word(img, L.int_local_of + w.row * 32 + w.logical) == w.slot);
    BOOST_TEST(fp_word(img, L.fp_keep + w.row * 32 + w.logical) ==
               (w.slot == 18 ? 0x0000 : 0x3F80));
  }
  // Rank 1's slot 14 holds logical expert 3's weights (the copy), slot 1 logical 19's; the
  // sentinel slot is zero.
  const workload::Layout& L = b.layer.layout;
  const workload::Layout& R = b.ranks[1].layout;
  const auto& src = b.layer.image.hbm.at(0).bytes;
  const auto& dst = b.ranks[1].image.hbm.at(0).bytes;
  auto same = [&](uint64_t a, uint64_t c, uint64_t n) {
    return std::memcmp(&src.at(a), &dst.at(c), n) == 0;
  };
  BOOST_TEST(same(L.w1 + 3 * L.w1_expert_bytes, R.w1 + 14 * R.w1_expert_bytes, L.w1_expert_bytes));
  BOOST_TEST(same(L.w2 + 19 * L.w2_expert_bytes, R.w2 + 1 * R.w2_expert_bytes, L.w2_expert_bytes));
  BOOST_TEST(!same(L.w1 + 4 * L.w1_expert_bytes, R.w1 + 14 * R.w1_expert_bytes, L.w1_expert_bytes));
  bool zero = true;
  for (uint64_t i = 0; i < R.w1_expert_bytes; ++i)
    zero = zero && dst.at(R.w1 + 18 * R.w1_expert_bytes + i) == 0;
  BOOST_TEST(zero);
}

BOOST_AUTO_TEST_CASE(every_pair_on_one_rank_and_the_combine_near_the_layer) {
  const auto& preset = isa::Spec::builtin().preset("default");
  // gpt-oss-20b: 4 tokens x top-4; deepseek-v2-lite fused: 4 x top-6 routed + 4 x 2 shared.
  for (const auto& [name, pairs] :
       {std::pair<std::string, unsigned>{"gpt-oss-20b-ep2-r4", 16},
        std::pair<std::string, unsigned>{"deepseek-v2-lite-ep2-fused", 32}}) {
    BOOST_TEST_INFO(name);
    const workload::DeploymentBuild b = build(name);
    const workload::DeploymentReference ref = workload::reference_deployment(preset, b);
    BOOST_TEST(ref.rank_pairs.size() == 2u);
    BOOST_TEST(ref.rank_pairs[0] + ref.rank_pairs[1] == pairs);
    BOOST_TEST(ref.rank_pairs[0] != 0u);
    BOOST_TEST(ref.rank_pairs[1] != 0u);
    std::vector<double> c, one;
    for (uint16_t v : ref.combined) c.push_back(num::bf16_to_f32(v));
    const workload::ErrorRow e = workload::error_row("combined", c, ref.layer.exact);
    BOOST_TEST_INFO("max |err| " << e.max_abs << " cosine " << e.cosine);
    BOOST_TEST(e.cosine > 0.999);
    // A rank's partial alone is far from the layer (each holds part of the pairs).
    for (unsigned r = 0; r < 2; ++r) {
      std::vector<double> part;
      for (uint16_t v : ref.rank_acc[r]) part.push_back(num::bf16_to_f32(v));
      BOOST_TEST(workload::error_row("rank", part, ref.layer.exact).cosine < 0.99);
    }
  }
}

BOOST_AUTO_TEST_CASE(refusals_name_the_key) {
  const auto& spec = isa::Spec::builtin();
  workload::BuildOptions o;
  o.tokens = 4;
  o.hidden = 64;
  o.intermediate = 64;
  auto message = [&](const workload::Deployment& d, unsigned tokens) {
    o.tokens = tokens;
    try {
      workload::build_deployment(spec, spec.preset("default"), d, o);
    } catch (const UsageError& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  // Kimi-K2's 384 experts fit MAX_TOPK_EXPERTS: every rank program builds (48 local experts).
  BOOST_TEST(message(shipped("kimi-k2-ep8"), 4).empty());
  BOOST_TEST(build("kimi-k2-ep8").ranks.size() == 8u);
  // More routed experts than MAX_TOPK_EXPERTS: refused naming the config.json key.
  const auto max_e = static_cast<unsigned>(spec.preset("default").get("MAX_TOPK_EXPERTS"));
  workload::Deployment wide = shipped("kimi-k2-ep8");
  wide.model.experts = 2 * max_e;
  const std::string kimi = message(wide, 4);
  BOOST_TEST_INFO(kimi);
  BOOST_TEST(kimi.find("n_routed_experts " + std::to_string(2 * max_e)) != std::string::npos);
  BOOST_TEST(kimi.find("MAX_TOPK_EXPERTS") != std::string::npos);
  const std::string many = message(shipped("gpt-oss-20b-ep2-r4"), 33);
  BOOST_TEST_INFO(many);
  BOOST_TEST(many.find("max_tokens_per_rank 32") != std::string::npos);
}

BOOST_AUTO_TEST_SUITE_END()
