// Expert-parallel deployments (docs/deployments.md): the per-rank shapes of the shipped
// deployments file against the worked figures of docs/deployments.md (written here from the
// published deployment conventions, not from the code), the expert masks, and every refusal of a
// bad deployments file (exit 2 in the CLI: the UsageError names FILE:LINE and the key).
#include <boost/test/unit_test.hpp>
#include <filesystem>
#include <fstream>

#include "moesim/workload/deployment.hpp"

using namespace moesim;
namespace fs = std::filesystem;

namespace {

const workload::Deployment& find(const std::vector<workload::Deployment>& ds,
                                 const std::string& name) {
  for (const workload::Deployment& d : ds)
    if (d.name == name) return d;
  BOOST_FAIL("no deployment " + name + " in the shipped file");
  throw std::logic_error("unreachable");
}

struct Figures {
  const char* name;
  unsigned local, columns, mask;
};

/// Writes `text` to a fresh deployments file beside the test's config.json copies and returns
/// the UsageError message of loading it ("" if it loaded).
std::string load_error(const std::string& text) {
  const fs::path dir = fs::path(MOESIM_TEST_WORK_DIR) / "deployments";
  fs::create_directories(dir);
  fs::copy_file(fs::path(MOESIM_SOURCE_DIR) / "sim/workload/deployments/moe-288.config.json",
                dir / "moe-288.config.json", fs::copy_options::overwrite_existing);
  const fs::path f = dir / "bad.yaml";
  std::ofstream(f) << text;
  try {
    workload::load_deployments(f.string());
  } catch (const UsageError& e) {
    return e.what();
  }
  return "";
}

void check_refused(const std::string& text, const std::string& line, const std::string& key) {
  const std::string msg = load_error(text);
  BOOST_TEST_INFO("message: " << msg);
  BOOST_TEST(msg.find("bad.yaml:" + line + ":") != std::string::npos);
  BOOST_TEST(msg.find(key) != std::string::npos);
}

}  // namespace

BOOST_AUTO_TEST_SUITE(deployments)

BOOST_AUTO_TEST_CASE(worked_figures_of_the_shipped_file) {
  const auto ds = workload::load_deployments(workload::default_deployments_file());
  // 384 routed at EP 8 with 0 / 32 / 64 redundant -> 48 / 52 / 56 local experts and a
  // 385 / 417 / 449-entry mask (top-8, unfused: 8 columns); 288 routed, EP 4, one shared expert
  // -> 73 local, 10 columns, 290 mask entries fused, 72 / 8 / 289 unfused.
  const Figures figures[] = {{"kimi-k2-ep8", 48, 8, 385},
                             {"kimi-k2-ep8-r32", 52, 8, 417},
                             {"kimi-k2-ep8-r64", 56, 8, 449},
                             {"moe288-ep4-fused", 73, 10, 290},
                             {"moe288-ep4", 72, 8, 289}};
  for (const Figures& f : figures) {
    BOOST_TEST_CONTEXT(f.name) {
      const workload::DeploymentShape s = workload::derive_shape(find(ds, f.name));
      BOOST_TEST(s.routing_columns == f.columns);
      BOOST_TEST(s.mask_entries == f.mask);
      for (const workload::RankShape& r : s.ranks) {
        BOOST_TEST(r.local_experts == f.local);
        BOOST_TEST(r.routing_columns == f.columns);
        BOOST_TEST(r.mask.size() == f.mask);
      }
    }
  }
  BOOST_TEST(find(ds, "kimi-k2-ep8").model.experts == 384u);
  BOOST_TEST(derive_shape(find(ds, "kimi-k2-ep8-r64")).ranks.size() == 8u);
}

BOOST_AUTO_TEST_CASE(seed_models_figures_of_the_shipped_file) {
  const auto ds = workload::load_deployments(workload::default_deployments_file());
  // DeepSeek-V4-Pro: 384 routed, top-6, one shared expert, unfused (6 columns). EP 8 with
  // 0 / 32 / 64 redundant: 384 / 416 / 448 physical over 8 ranks = 48 / 52 / 56 local, masks of
  // P + 1 = 385 / 417 / 449 entries; EP 16: 384 / 16 = 24 local, 385 entries.
  // GLM-5.3-Flash: 288 routed, top-8, one shared expert. EP 2 / 4 / 8 unfused: 144 / 72 / 36
  // local, 8 columns, 289 entries; EP 4 fused: 72 + 1 = 73 local, 8 + 1 + 1 = 10 columns,
  // 288 + 1 + 1 = 290 entries.
  const struct {
    Figures f;
    unsigned ep;
  } rows[] = {
      {{"deepseek-v4-pro-ep8", 48, 6, 385}, 8},     {{"deepseek-v4-pro-ep8-r32", 52, 6, 417}, 8},
      {{"deepseek-v4-pro-ep8-r64", 56, 6, 449}, 8}, {{"deepseek-v4-pro-ep16", 24, 6, 385}, 16},
      {{"glm-5.3-flash-ep2", 144, 8, 289}, 2},      {{"glm-5.3-flash-ep4-fused", 73, 10, 290}, 4},
      {{"glm-5.3-flash-ep4", 72, 8, 289}, 4},       {{"glm-5.3-flash-ep8", 36, 8, 289}, 8}};
  for (const auto& row : rows) {
    BOOST_TEST_CONTEXT(row.f.name) {
      const workload::DeploymentShape s = workload::derive_shape(find(ds, row.f.name));
      BOOST_TEST(s.ranks.size() == row.ep);
      BOOST_TEST(s.routing_columns == row.f.columns);
      BOOST_TEST(s.mask_entries == row.f.mask);
      for (const workload::RankShape& r : s.ranks) {
        BOOST_TEST(r.local_experts == row.f.local);
        BOOST_TEST(r.routing_columns == row.f.columns);
        BOOST_TEST(r.mask.size() == row.f.mask);
      }
    }
  }
  BOOST_TEST(find(ds, "deepseek-v4-pro-ep8").model.name == "deepseek-v4-pro");
  BOOST_TEST(find(ds, "glm-5.3-flash-ep8").model.name == "glm-5.3-flash");
}

BOOST_AUTO_TEST_CASE(every_shipped_deployment_derives) {
  const auto ds = workload::load_deployments(workload::default_deployments_file());
  BOOST_TEST(ds.size() >= 12u);
  for (const workload::Deployment& d : ds) {
    BOOST_TEST_CONTEXT(d.name) {
      const workload::DeploymentShape s = workload::derive_shape(d);
      // Every physical routed expert is local on exactly one rank; shared experts on all ranks.
      for (unsigned g = 0; g < s.physical; ++g) {
        unsigned holders = 0;
        for (const workload::RankShape& r : s.ranks) holders += r.mask[g] >= 0 ? 1 : 0;
        BOOST_TEST(holders == 1u);
      }
      for (const workload::RankShape& r : s.ranks) {
        for (unsigned i = 0; i < s.shared; ++i)
          BOOST_TEST(r.mask[s.physical + i] == static_cast<int32_t>(r.local_routed + i));
        BOOST_TEST(r.mask.back() == -1);  // the sentinel
      }
    }
  }
}

BOOST_AUTO_TEST_CASE(masks_map_global_to_local_ids) {
  const auto ds = workload::load_deployments(workload::default_deployments_file());
  const workload::DeploymentShape s = workload::derive_shape(find(ds, "moe288-ep4-fused"));
  const workload::RankShape& r2 = s.ranks[2];
  BOOST_TEST(r2.first_physical == 144u);
  BOOST_TEST(r2.mask[143] == -1);
  BOOST_TEST(r2.mask[144] == 0);
  BOOST_TEST(r2.mask[215] == 71);
  BOOST_TEST(r2.mask[216] == -1);
  BOOST_TEST(r2.mask[288] == 72);  // the fused shared expert, local id 72 on every rank
  BOOST_TEST(r2.mask[289] == -1);  // the sentinel
  // Listed replicas: physical 32..35 hold logical 3, 7, 11, 19 (gpt-oss-20b, 32 routed).
  const workload::DeploymentShape g = workload::derive_shape(find(ds, "gpt-oss-20b-ep2-r4"));
  BOOST_TEST(g.physical_to_logical[33] == 7u);
  BOOST_TEST(g.physical_to_logical[35] == 19u);
  BOOST_TEST(g.ranks[1].local_experts == 18u);
  // Without a list, SGLang's trivial placement: physical E + i holds logical i.
  const workload::DeploymentShape k = workload::derive_shape(find(ds, "kimi-k2-ep8-r32"));
  BOOST_TEST(k.physical_to_logical[384] == 0u);
  BOOST_TEST(k.physical_to_logical[415] == 31u);
}

BOOST_AUTO_TEST_CASE(refusals_name_file_line_and_key) {
  const std::string head = "deployments:\n  - name: a\n";
  // Experts that do not split over EP: 288 over 5 ranks.
  check_refused(head + "    model: moe-288.config.json\n    ep: 5\n    max_tokens_per_rank: 8\n",
                "4", "'ep': 288 physical experts");
  // ... nor with redundant experts: 288 + 2 over 4.
  check_refused(head +
                    "    model: moe-288.config.json\n    ep: 4\n    redundant: 2\n"
                    "    max_tokens_per_rank: 8\n",
                "4", "'ep': 290 physical experts");
  // Fusing a model without shared experts.
  check_refused(head +
                    "    model: qwen3-30b-a3b\n    ep: 4\n    fuse_shared: true\n"
                    "    max_tokens_per_rank: 8\n",
                "5", "'fuse_shared': model qwen3-30b-a3b has no shared experts");
  // ... or with a gated, 4 x wide shared expert (not routed-expert-shaped).
  check_refused(head +
                    "    model: qwen1.5-moe-a2.7b\n    ep: 4\n    fuse_shared: true\n"
                    "    max_tokens_per_rank: 8\n",
                "5", "'fuse_shared'");
  // A replica id listed twice.
  check_refused(head +
                    "    model: moe-288.config.json\n    ep: 4\n    redundant: 4\n"
                    "    replicas: [1, 2, 1, 3]\n    max_tokens_per_rank: 8\n",
                "6", "'replicas': logical expert 1 listed twice");
  // A replica of an expert the model does not have, and a list of the wrong length.
  check_refused(head +
                    "    model: moe-288.config.json\n    ep: 4\n    redundant: 4\n"
                    "    replicas: [1, 2, 288, 3]\n    max_tokens_per_rank: 8\n",
                "6", "'replicas': 288 is out of range");
  check_refused(head +
                    "    model: moe-288.config.json\n    ep: 4\n    redundant: 4\n"
                    "    replicas: [1, 2]\n    max_tokens_per_rank: 8\n",
                "6", "'replicas': 2 ids for redundant: 4");
  // Unknown and missing keys.
  check_refused(head +
                    "    model: moe-288.config.json\n    ep: 4\n    max_tokens_per_rank: 8\n"
                    "    fuse_shared_experts: true\n",
                "6", "unknown key 'fuse_shared_experts'");
  check_refused(head + "    model: moe-288.config.json\n    max_tokens_per_rank: 8\n", "2",
                "missing key 'ep'");
  check_refused(head + "    ep: 4\n    max_tokens_per_rank: 8\n", "2", "missing key 'model'");
  check_refused(head + "    model: moe-288.config.json\n    ep: 4\n", "2",
                "missing key 'max_tokens_per_rank'");
  check_refused("deployment:\n  - name: a\n", "1", "unknown key 'deployment'");
  // Bad values: a name twice, a model that does not load, ep 0, a dispatch not known.
  const std::string ok = "    model: moe-288.config.json\n    ep: 4\n    max_tokens_per_rank: 8\n";
  check_refused(head + ok + "  - name: a\n" + ok, "6", "'name': a is also the deployment at");
  check_refused(head + "    model: no-such-model\n    ep: 4\n    max_tokens_per_rank: 8\n", "3",
                "'model': no-such-model: not a model preset");
  check_refused(head + "    model: moe-288.config.json\n    ep: 0\n    max_tokens_per_rank: 8\n",
                "4", "'ep': 0 is out of range");
  check_refused(head + ok + "    dispatch: hottest\n", "6", "'dispatch': unknown 'hottest'");
  check_refused("deployments:\n  - name: [a\n", "3",
                "end of sequence");  // YAML syntax: FILE:LINE:COL
  // A valid file loads (the helper itself can tell accepted from refused).
  BOOST_TEST(load_error(head + ok) == "");
}

BOOST_AUTO_TEST_SUITE_END()
