// `moesim cosim --deployment` as a subprocess (docs/deployments.md, Per-rank programs): every
// rank of a shipped preset deployment co-simulated golden vs RTL (EQUAL), the ranks' combined
// output bit for bit equal to the independent reference, the load table; and the refusals (exit
// 2, one `moesim: error:` line naming the flag or key, the config.json key of E for a model with
// more experts than MAX_TOPK_EXPERTS, a router that is not lowered).
#include <boost/test/unit_test.hpp>
#include <fstream>
#include <iterator>
#include <nlohmann/json.hpp>

#include "moesim_test/cli.hpp"

using namespace moesim;
using test::moesim_cli;
using test::workdir;

namespace {

const std::string kShape = " --tokens 4 --hidden 64 --intermediate 64";

unsigned count(const std::string& text, const std::string& what) {
  unsigned n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

/// --all-ranks of `name` (EP 2): exit 0, each rank EQUAL and bit-exact against the deployment
/// reference on both engines, the combine bit-exact on both engines, the report's load table.
void all_ranks_equal(const std::string& name, const std::string& dir_name) {
  const auto dir = workdir(dir_name);
  const auto r = moesim_cli(
      "cosim --deployment " + name + " --all-ranks" + kShape + " --report deploy.json", dir);
  BOOST_TEST(r.code == 0);
  BOOST_TEST(count(r.out, "VERDICT: EQUAL: outputs bit-exact, cycles match") == 2u);
  BOOST_TEST(count(r.out, "local pairs) vs golden: bit-exact") == 2u);
  BOOST_TEST(count(r.out, "local pairs) vs rtl: bit-exact") == 2u);
  BOOST_TEST(r.out.find("of golden vs the deployment reference: bit-exact") != std::string::npos);
  BOOST_TEST(r.out.find("of rtl vs the deployment reference: bit-exact") != std::string::npos);
  BOOST_TEST(r.out.find("VERDICT: EQUAL: 2 ranks each EQUAL, combined output bit-exact") !=
             std::string::npos);
  BOOST_TEST(r.out.find("stage table, all 2 ranks in total") != std::string::npos);
  const auto j = nlohmann::json::parse(test::slurp(dir / "deploy.json"));
  BOOST_TEST(j.at("verdict") == "EQUAL");
  BOOST_REQUIRE(j.at("load").size() == 2u);
  unsigned pairs = 0;
  for (const auto& l : j.at("load")) pairs += l.at("local_pairs").get<unsigned>();
  // Every pair (T x (k + S)) is local on exactly one rank; each rank computes all of them.
  BOOST_TEST(pairs == j.at("load").at(0).at("pairs_computed").get<unsigned>());
}

}  // namespace

BOOST_AUTO_TEST_CASE(deploy_cosim_gpt_oss_ep2_replicas_all_ranks) {
  all_ranks_equal("gpt-oss-20b-ep2-r4", "deploy_gpt_oss");
}

BOOST_AUTO_TEST_CASE(deploy_cosim_deepseek_v2_lite_fused_all_ranks) {
  all_ranks_equal("deepseek-v2-lite-ep2-fused", "deploy_deepseek");
}

BOOST_AUTO_TEST_CASE(deploy_cosim_glm_5_3_flash_ep2_all_ranks) {
  // DeepSeek-V3's router over 288 experts with the limited SwiGLU (docs/sources.md).
  all_ranks_equal("glm-5.3-flash-ep2", "deploy_glm");
}

BOOST_AUTO_TEST_CASE(deploy_cosim_refusals) {
  const auto dir = workdir("deploy_refusals");
  auto refused = [&](const std::string& args, const std::string& named) {
    const auto r = moesim_cli("cosim " + args, dir);
    BOOST_TEST_INFO("moesim cosim " << args << ": " << r.err);
    BOOST_TEST(r.code == 2);
    BOOST_TEST(r.err.rfind("moesim: error: ", 0) == 0u);
    BOOST_TEST(count(r.err, "\n") == 1u);
    BOOST_TEST(r.err.find(named) != std::string::npos);
  };
  refused("--deployment no-such-deployment --rank 0", "--deployment no-such-deployment");
  refused("--deployment gpt-oss-20b-ep2-r4 --rank 2" + kShape, "--rank 2");
  refused("--deployment gpt-oss-20b-ep2-r4" + kShape, "--rank R");
  refused("--deployment gpt-oss-20b-ep2-r4 --rank 0 --model mixtral-8x7b", "--model");
  refused("--deployment gpt-oss-20b-ep2-r4 --rank 0 --all-ranks", "--all-ranks");
  refused("--deployment deepseek-v2-lite-ep2-fused --rank 0 --shared", "--shared");
  refused("--deployment gpt-oss-20b-ep2-r4 --all-ranks --vcd x.vcd", "--vcd");
  refused("--rank 0", "--deployment");
  refused("--deployment gpt-oss-20b-ep2-r4 --rank 0 --tokens 33", "max_tokens_per_rank");
  // DeepSeek-V4-Pro's deployments derive their shapes, but its router is not lowered.
  refused("--deployment deepseek-v4-pro-ep8 --all-ranks" + kShape,
          "deepseek-v4-pro: scoring_func 'sqrtsoftplus'");
  refused("--deployment deepseek-v4-pro-ep16 --rank 3" + kShape,
          "deepseek-v4-pro: scoring_func 'sqrtsoftplus'");
  // More routed experts than MAX_TOPK_EXPERTS (a Kimi-K2 config with 1024): the config.json key.
  {
    std::ifstream in(std::string(MOESIM_SOURCE_DIR) +
                     "/sim/workload/deployments/kimi-k2.config.json");
    std::string cfg((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    cfg.replace(cfg.find("\"n_routed_experts\": 384"), 23, "\"n_routed_experts\": 1024");
    std::ofstream(dir / "wide.config.json") << cfg;
    std::ofstream(dir / "wide.yaml")
        << "deployments:\n  - name: wide\n    model: wide.config.json\n    ep: 8\n"
           "    max_tokens_per_rank: 32\n";
  }
  refused("--deployment wide --deployments wide.yaml --all-ranks" + kShape,
          "n_routed_experts 1024");
}
