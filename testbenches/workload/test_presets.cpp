// Workloads at real model shapes, without a simulator (docs/workloads.md): the model presets
// against the published configurations, config.json loading, routing the builder must refuse,
// the V_TOPK encoding each program takes (read back from the instruction words), and the expert-
// major lowering's weight traffic. Links the workload layer only: all cases run in one process.
#include <boost/test/unit_test.hpp>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>

#include "moesim/isa/encoding.hpp"
#include "moesim/isa/numerics.hpp"
#include "moesim/workload/builder.hpp"
#include "moesim/workload/reference.hpp"
#include "moesim_test/layers.hpp"

using namespace moesim;
namespace fs = std::filesystem;

namespace {

const std::string kModels = std::string(MOESIM_SOURCE_DIR) + "/testbenches/models/";

using test::build;
using test::shape;

std::string build_error(const workload::ModelPreset& m, bool shared = false) {
  try {
    build(m, 2, shared);
  } catch (const UsageError& e) {
    return e.what();
  }
  return "";
}

/// The V_TOPK rmasks of the program and the (E << 8) | k values its C_SET_TOPK_REGs set, from
/// the decoded words (the C_SET_TOPK_REG source register's last S_ADDI_INT gpX, gp0, imm).
struct TopkEncodingSeen {
  std::vector<unsigned> rmasks;
  std::vector<uint32_t> policies;
  size_t first_set = SIZE_MAX, first_topk = SIZE_MAX;
};

TopkEncodingSeen topk_encoding(const isa::Program& p) {
  const auto& spec = isa::Spec::builtin();
  TopkEncodingSeen s;
  std::map<unsigned, uint32_t> gp;  // gp value set by S_ADDI_INT gpX, gp0, imm
  for (size_t pc = 0; pc < p.words.size(); ++pc) {
    const isa::Decoded d = isa::decode(spec, p.words[pc]);
    BOOST_REQUIRE(d.spec != nullptr);
    const std::string& m = d.spec->mnemonic;
    if (m == "S_ADDI_INT" && d.rs1 == 0) {
      gp[d.rd] = d.imm18;
    } else if (m == "S_ADDI_INT" || m == "S_LUI_INT" || m == "S_ADD_INT") {
      gp.erase(d.rd);
    } else if (m == "C_SET_TOPK_REG") {
      BOOST_REQUIRE(gp.count(d.rd) == 1u);
      s.policies.push_back(gp[d.rd]);
      s.first_set = std::min(s.first_set, pc);
    } else if (m == "V_TOPK") {
      s.rmasks.push_back(d.r3);
      s.first_topk = std::min(s.first_topk, pc);
    }
  }
  return s;
}

}  // namespace

BOOST_AUTO_TEST_CASE(workload_presets_hold_the_config_values_of_models_md) {
  struct Row {
    const char* name;
    unsigned hidden, inter, experts, k, shared, shared_inter;
    bool gate, norm;
    const char* scoring;
  };
  // docs/sources.md, Config table: one row per model.
  const Row rows[] = {{"gpt-oss-20b", 2880, 2880, 32, 4, 0, 0, false, true, "softmax"},
                      {"gpt-oss-120b", 2880, 2880, 128, 4, 0, 0, false, true, "softmax"},
                      {"qwen3-30b-a3b", 2048, 768, 128, 8, 0, 0, false, true, "softmax"},
                      {"qwen1.5-moe-a2.7b", 2048, 1408, 60, 4, 1, 5632, true, false, "softmax"},
                      {"deepseek-v2-lite", 2048, 1408, 64, 6, 2, 2816, false, false, "softmax"},
                      {"deepseek-v3", 7168, 2048, 256, 8, 1, 2048, false, true, "sigmoid"},
                      {"deepseek-v2", 5120, 1536, 160, 6, 2, 3072, false, false, "softmax"},
                      {"kimi-k2", 7168, 2048, 384, 8, 1, 2048, false, true, "sigmoid"},
                      {"deepseek-v4-pro", 7168, 3072, 384, 6, 1, 3072, false, true, "sqrtsoftplus"},
                      {"glm-5.3-flash", 4096, 2048, 288, 8, 1, 2048, false, true, "sigmoid"},
                      {"olmoe", 2048, 1024, 64, 8, 0, 0, false, false, "softmax"},
                      {"qwen3-next", 2048, 512, 512, 10, 1, 512, true, true, "softmax"},
                      {"llama-4-scout", 5120, 8192, 16, 1, 1, 8192, false, false, "sigmoid"},
                      {"mixtral-8x7b", 4096, 14336, 8, 2, 0, 0, false, true, "softmax"}};
  BOOST_TEST(workload::model_presets().size() == std::size(rows));
  for (const Row& r : rows) {
    const workload::ModelPreset& m = workload::find_model(r.name);
    BOOST_TEST_CONTEXT(r.name) {
      BOOST_TEST(m.hidden == r.hidden);
      BOOST_TEST(m.intermediate == r.inter);
      BOOST_TEST(m.experts == r.experts);
      BOOST_TEST(m.top_k == r.k);
      BOOST_TEST(m.shared_experts == r.shared);
      BOOST_TEST(m.shared_intermediate == r.shared_inter);
      BOOST_TEST(m.shared_gate == r.gate);
      BOOST_TEST(m.norm_topk_prob == r.norm);
      BOOST_TEST(m.scoring_func == r.scoring);
      const bool gpt = std::string(r.name).rfind("gpt-oss", 0) == 0;
      const bool limited =
          std::string(r.name) == "deepseek-v4-pro" || std::string(r.name) == "glm-5.3-flash";
      BOOST_TEST((m.activation == workload::Activation::clamped_swiglu) == gpt);
      BOOST_TEST((m.activation == workload::Activation::limited_swiglu) == limited);
      BOOST_TEST(m.swiglu_limit == (gpt ? 7.0 : limited ? 10.0 : 0.0));
      BOOST_TEST(m.router_bias == gpt);
      BOOST_TEST(m.expert_bias == gpt);
    }
  }
  const auto& v3 = workload::find_model("deepseek-v3");
  BOOST_TEST(v3.routed_scaling_factor == 2.5);
  BOOST_TEST(v3.n_group == 8u);
  BOOST_TEST(v3.topk_group == 4u);
  BOOST_TEST(v3.correction_bias);
  const auto& v2 = workload::find_model("deepseek-v2");
  BOOST_TEST(v2.routed_scaling_factor == 16.0);
  BOOST_TEST(v2.n_group == 8u);
  BOOST_TEST(v2.topk_group == 3u);
  BOOST_TEST(v2.topk_method == "group_limited_greedy");
  BOOST_TEST(!v2.correction_bias);
  const auto& kimi = workload::find_model("kimi-k2");
  BOOST_TEST(kimi.routed_scaling_factor == 2.827);
  BOOST_TEST(kimi.n_group == 1u);
  BOOST_TEST(kimi.correction_bias);
  const auto& v4 = workload::find_model("deepseek-v4-pro");
  BOOST_TEST(v4.routed_scaling_factor == 2.5);
  BOOST_TEST(v4.n_group == 1u);
  BOOST_TEST(v4.correction_bias);
  const auto& glm = workload::find_model("glm-5.3-flash");
  BOOST_TEST(glm.routed_scaling_factor == 2.5);
  BOOST_TEST(glm.n_group == 1u);
  BOOST_TEST(glm.correction_bias);
  BOOST_TEST(workload::find_model("gpt-oss-20b").swiglu_limit == 7.0);
  BOOST_TEST(workload::find_model("gpt-oss-20b").swiglu_alpha == 1.702);
  BOOST_TEST(workload::find_model("llama-4-scout").scores_scale_input);
}

BOOST_AUTO_TEST_CASE(workload_config_json_files_load_to_the_presets) {
  for (const auto& preset : workload::model_presets()) {
    if (preset.name == "gpt-oss-120b") continue;  // no config.json written for it
    BOOST_TEST_CONTEXT(preset.name) {
      std::vector<std::string> ignored;
      // Kimi-K2's config.json is the one the shipped deployments use.
      const std::string file =
          preset.name == "kimi-k2"
              ? std::string(MOESIM_SOURCE_DIR) + "/sim/workload/deployments/kimi-k2.config.json"
              : kModels + preset.name + ".config.json";
      const workload::ModelPreset m = workload::resolve_model(file, &ignored);
      BOOST_TEST(m.model_type == preset.model_type);
      BOOST_TEST(m.hidden == preset.hidden);
      BOOST_TEST(m.intermediate == preset.intermediate);
      BOOST_TEST(m.experts == preset.experts);
      BOOST_TEST(m.top_k == preset.top_k);
      BOOST_TEST((m.activation == preset.activation));
      BOOST_TEST(m.swiglu_limit == preset.swiglu_limit);
      BOOST_TEST(m.swiglu_alpha == preset.swiglu_alpha);
      BOOST_TEST(m.router_bias == preset.router_bias);
      BOOST_TEST(m.expert_bias == preset.expert_bias);
      BOOST_TEST(m.scoring_func == preset.scoring_func);
      BOOST_TEST(m.norm_topk_prob == preset.norm_topk_prob);
      BOOST_TEST(m.routed_scaling_factor == preset.routed_scaling_factor);
      BOOST_TEST(m.n_group == preset.n_group);
      BOOST_TEST(m.topk_group == preset.topk_group);
      BOOST_TEST(m.correction_bias == preset.correction_bias);
      BOOST_TEST(m.scores_scale_input == preset.scores_scale_input);
      BOOST_TEST(m.shared_experts == (preset.shared_experts != 0 ? m.shared_experts : 0u));
      BOOST_TEST(m.shared_intermediate == preset.shared_intermediate);
      BOOST_TEST(m.shared_gate == preset.shared_gate);
      BOOST_TEST_MESSAGE("ignored keys: " << ignored.size());
    }
  }
  // gpt-oss-20b's config has one key moesim does not list (initial_context_length).
  std::vector<std::string> ignored;
  workload::load_model_config(kModels + "gpt-oss-20b.config.json", &ignored);
  BOOST_TEST(ignored == std::vector<std::string>{"initial_context_length"});
}

namespace {

/// Writes `json` to a file and returns load_model_config's UsageError message ("" if none).
std::string config_error(const std::string& json) {
  const fs::path dir = fs::path(MOESIM_TEST_WORK_DIR) / "configs";
  fs::create_directories(dir);
  const fs::path p = dir / "config.json";
  std::ofstream(p) << json;
  try {
    workload::load_model_config(p.string());
  } catch (const UsageError& e) {
    return e.what();
  }
  return "";
}

const char* kMixtral =
    R"({"model_type": "mixtral", "hidden_size": 4096, "intermediate_size": 14336,
        "num_local_experts": 8, "num_experts_per_tok": 2, "hidden_act": "silu" %s})";

std::string mixtral_with(const std::string& extra) {
  std::string s = kMixtral;
  s.replace(s.find("%s"), 2, extra);
  return s;
}

}  // namespace

BOOST_AUTO_TEST_CASE(workload_config_json_rejects_what_changes_the_math) {
  BOOST_TEST(config_error(mixtral_with("")).empty());
  // Fields with no effect on inference are accepted.
  BOOST_TEST(config_error(mixtral_with(R"(, "router_aux_loss_coef": 0.02,
      "output_router_logits": true, "torch_dtype": "bfloat16", "dtype": "float32")"))
                 .empty());
  // An unknown key naming MoE math is an error naming it; another unknown key is not.
  const std::string unknown = config_error(mixtral_with(R"(, "moe_router_temperature": 2.0)"));
  BOOST_TEST(unknown.find("key 'moe_router_temperature'") != std::string::npos, unknown);
  BOOST_TEST(config_error(mixtral_with(R"(, "vision_tower_depth": 2)")).empty());
  // Wrong types and unknown values name the key.
  BOOST_TEST(config_error(mixtral_with(R"(, "hidden_act": "gelu")")).find("key 'hidden_act'") !=
             std::string::npos);
  std::string s = kMixtral;
  s.replace(s.find("\"num_local_experts\": 8"), 22, "\"num_local_experts\": \"8\"");
  BOOST_TEST(
      config_error(std::string(s).replace(s.find("%s"), 2, "")).find("key 'num_local_experts'") !=
      std::string::npos);
  BOOST_TEST(config_error(R"({"model_type": "dbrx", "hidden_size": 6144})")
                 .find("key 'model_type': 'dbrx'") != std::string::npos);
  BOOST_TEST(config_error("{not json").find("not valid JSON") != std::string::npos);
  // Qwen2-MoE's class default is norm_topk_prob false: a config without the key gets it.
  const std::string q = R"({"model_type": "qwen3_moe", "hidden_size": 2048,
      "moe_intermediate_size": 768, "num_experts": 128, "num_experts_per_tok": 8})";
  const fs::path p = fs::path(MOESIM_TEST_WORK_DIR) / "configs" / "qwen3.json";
  std::ofstream(p) << q;
  BOOST_TEST(!workload::load_model_config(p.string()).norm_topk_prob);
}

BOOST_AUTO_TEST_CASE(workload_config_json_swiglu_limit_on_deepseek_style_configs) {
  // DeepSeek-V4's clamp (docs/sources.md, Clamped SwiGLU) wherever a DeepSeek-style config
  // carries swiglu_limit: the clamp alone, no GPT-OSS alpha.
  const fs::path dir = fs::path(MOESIM_TEST_WORK_DIR) / "configs";
  fs::create_directories(dir);
  for (const char* type : {"deepseek_v2", "deepseek_v3", "kimi_k2", "glm4_moe"}) {
    BOOST_TEST_CONTEXT(type) {
      const fs::path p = dir / (std::string(type) + "-limit.json");
      std::ofstream(p) << R"({"model_type": ")" << type << R"(", "hidden_size": 2048,
          "moe_intermediate_size": 1408, "n_routed_experts": 64, "num_experts_per_tok": 6,
          "swiglu_limit": 2.5})";
      const workload::ModelPreset m = workload::load_model_config(p.string());
      BOOST_TEST((m.activation == workload::Activation::limited_swiglu));
      BOOST_TEST(m.swiglu_limit == 2.5);
      BOOST_TEST(m.swiglu_alpha == 1.0);
      BOOST_TEST((workload::shared_activation(m) == workload::Activation::limited_swiglu));
    }
  }
  // Without the key: plain SwiGLU, as before.
  const fs::path p = dir / "v3-nolimit.json";
  std::ofstream(p) << R"({"model_type": "deepseek_v3", "hidden_size": 2048,
      "moe_intermediate_size": 1408, "n_routed_experts": 64, "num_experts_per_tok": 6})";
  BOOST_TEST((workload::load_model_config(p.string()).activation == workload::Activation::swiglu));
  // The limit is checked as GPT-OSS's is.
  const std::string bad = config_error(R"({"model_type": "deepseek_v3", "hidden_size": 2048,
      "moe_intermediate_size": 1408, "n_routed_experts": 64, "num_experts_per_tok": 6,
      "swiglu_limit": -1})");
  BOOST_TEST(bad.find("key 'swiglu_limit': must be a positive number") != std::string::npos, bad);
}

BOOST_AUTO_TEST_CASE(workload_builder_refuses_routing_it_cannot_lower) {
  // Every preset's routing is lowered, DeepSeek-V3's and Llama-4's included, but for
  // DeepSeek-V4's sqrtsoftplus scores (the machine has no logarithm for softplus).
  for (const auto& preset : workload::model_presets()) {
    const std::string err = build_error(preset);
    if (preset.name == "deepseek-v4-pro")
      BOOST_TEST(err.find("deepseek-v4-pro: scoring_func 'sqrtsoftplus'") == 0u, err);
    else
      BOOST_TEST(err.empty(), preset.name);
  }
  struct Case {
    const char* base;
    std::function<void(workload::ModelPreset&)> change;
    const char* expect;
  };
  const Case cases[] = {
      {"deepseek-v3", [](workload::ModelPreset& m) { m.scoring_func = "sqrtsoftplus"; },
       "scoring_func 'sqrtsoftplus'"},
      {"deepseek-v3", [](workload::ModelPreset& m) { m.n_group = 7; },
       "n_group 7 (sigmoid, + e_score_correction_bias for selection, group-limited top-k (8/4), "
       "renormalised, times 2.5): does not divide the 256 routed experts"},
      {"deepseek-v3", [](workload::ModelPreset& m) { m.topk_group = 9; }, "topk_group 9"},
      {"deepseek-v3", [](workload::ModelPreset& m) { m.n_group = 256; }, "2 experts per group"},
      {"deepseek-v3", [](workload::ModelPreset& m) { m.n_group = 64, m.topk_group = 1; },
       "topk_group 1 (sigmoid"},
      {"deepseek-v3",
       [](workload::ModelPreset& m) {
         m.correction_bias = false;
         m.topk_method = "greedy";
       },
       "topk_method 'greedy'"},
      // Softmax scores are grouped by group_limited_greedy only (HF's greedy ignores groups).
      {"deepseek-v2-lite",
       [](workload::ModelPreset& m) {
         m.n_group = 8;
         m.topk_group = 3;
       },
       "n_group 8 / topk_group 3 (topk_method 'greedy')"},
      {"deepseek-v2", [](workload::ModelPreset& m) { m.n_group = 7; },
       "n_group 7 (softmax over all E, group-limited greedy top-k (8/3, group score = max), not "
       "renormalised, times 16): does not divide the 160 routed experts"},
      {"deepseek-v2",
       [](workload::ModelPreset& m) {
         m.n_group = 80;
         m.topk_group = 2;
       },
       "topk_group 2 (softmax"},
      {"deepseek-v2", [](workload::ModelPreset& m) { m.router_bias = true; },
       "group-limited selection with a router bias"},
      {"deepseek-v2-lite", [](workload::ModelPreset& m) { m.routed_scaling_factor = 0; },
       "routed_scaling_factor 0"},
      {"deepseek-v2-lite", [](workload::ModelPreset& m) { m.correction_bias = true; },
       "e_score_correction_bias"},
      {"llama-4-scout", [](workload::ModelPreset& m) { m.routed_scaling_factor = 2; },
       "model_type 'llama4_text' router"},
      {"llama-4-scout", [](workload::ModelPreset& m) { m.scoring_func = "softmax"; },
       "scoring_func 'softmax'"},
  };
  for (const Case& c : cases) {
    workload::ModelPreset m = workload::find_model(c.base);
    c.change(m);
    const std::string err = build_error(m);
    BOOST_TEST(err.find(c.expect) != std::string::npos, c.base << ": " << err);
  }
  // norm_topk_prob false needs V_TOPK over all E: at most 255.
  workload::ModelPreset wide = shape(256, 8);
  wide.norm_topk_prob = false;
  BOOST_TEST(build_error(wide).find("num_experts 256: V_TOPK cannot select 256 of 256") !=
             std::string::npos);
  // More experts than MAX_TOPK_EXPERTS: the refusal names the config.json key of E.
  const unsigned max_e =
      static_cast<unsigned>(isa::Spec::builtin().preset("default").get("MAX_TOPK_EXPERTS"));
  for (const char* name : {"kimi-k2", "qwen3-next", "mixtral-8x7b"}) {
    workload::ModelPreset m = workload::find_model(name);
    m.experts = max_e + 8;
    const std::string err = build_error(m);
    BOOST_TEST(err.find(workload::experts_key(m) + " " + std::to_string(max_e + 8) +
                        ": V_TOPK cannot select") != std::string::npos,
               err);
    BOOST_TEST(err.find("MAX_TOPK_EXPERTS=" + std::to_string(max_e)) != std::string::npos, err);
  }
  BOOST_TEST(workload::experts_key(workload::find_model("kimi-k2")) == "n_routed_experts");
  BOOST_TEST(workload::experts_key(workload::find_model("qwen3-next")) == "num_experts");
  BOOST_TEST(workload::experts_key(workload::find_model("olmoe")) == "num_experts");
  BOOST_TEST(workload::experts_key(workload::find_model("mixtral-8x7b")) == "num_local_experts");
  // --shared where the model has none.
  BOOST_TEST(build_error(workload::find_model("qwen3-30b-a3b"), true)
                 .find("--shared: model qwen3-30b-a3b has no shared expert") != std::string::npos);
  BOOST_TEST(build_error(workload::find_model("deepseek-v2-lite"), true).empty());
}

BOOST_AUTO_TEST_CASE(workload_glm_and_kimi_configs_route_like_deepseek_v3) {
  // GLM-4.5-Air (docs/sources.md, Config table; Routing functions: Kimi-K2 and GLM-4.5): no
  // scoring_func / topk_method keys, one group.
  const fs::path dir = fs::path(MOESIM_TEST_WORK_DIR) / "configs";
  fs::create_directories(dir);
  std::ofstream(dir / "glm.json") << R"({"model_type": "glm4_moe", "hidden_size": 4096,
      "intermediate_size": 10944, "moe_intermediate_size": 1408, "n_routed_experts": 128,
      "num_experts_per_tok": 8, "n_shared_experts": 1, "n_group": 1, "topk_group": 1,
      "norm_topk_prob": true, "routed_scaling_factor": 1.0, "first_k_dense_replace": 1,
      "partial_rotary_factor": 0.5})";
  std::vector<std::string> ignored;
  const workload::ModelPreset glm =
      workload::load_model_config((dir / "glm.json").string(), &ignored);
  BOOST_TEST(glm.scoring_func == "sigmoid");
  BOOST_TEST(glm.correction_bias);
  BOOST_TEST(glm.n_group == 1u);
  BOOST_TEST(ignored == std::vector<std::string>{"partial_rotary_factor"});
  const auto b = build(glm, 2, true);
  BOOST_TEST(!b.layout.group_limited());
  BOOST_TEST((b.layout.routing == workload::Layout::Routing::sigmoid_biased));
  // One V_TOPK per token (no group selection), on 128/8's hardwired rmask 1.
  const TopkEncodingSeen seen = topk_encoding(b.program);
  BOOST_TEST(seen.rmasks == std::vector<unsigned>(2, 1u), boost::test_tools::per_element());
  BOOST_TEST(seen.policies.empty());
  // Kimi-K2: 384 experts, one V_TOPK per token on the policy register (no hardwired 384/8);
  // with more experts than MAX_TOPK_EXPERTS its config.json is refused naming file and key.
  const std::string kimi_json = R"({"model_type": "kimi_k2", "hidden_size": 7168,
      "moe_intermediate_size": 2048, "n_routed_experts": 384, "num_experts_per_tok": 8,
      "n_shared_experts": 1, "n_group": 1, "topk_group": 1, "norm_topk_prob": true,
      "routed_scaling_factor": 2.827, "topk_method": "noaux_tc", "scoring_func": "sigmoid"})";
  std::ofstream(dir / "kimi.json") << kimi_json;
  const workload::ModelPreset kimi = workload::load_model_config((dir / "kimi.json").string());
  const auto kb = build(kimi, 2, true);
  BOOST_TEST((kb.layout.routing == workload::Layout::Routing::sigmoid_biased));
  BOOST_TEST(!kb.layout.group_limited());
  BOOST_TEST(topk_encoding(kb.program).policies == std::vector<uint32_t>{(384u << 8) | 8u},
             boost::test_tools::per_element());
  const unsigned max_e =
      static_cast<unsigned>(isa::Spec::builtin().preset("default").get("MAX_TOPK_EXPERTS"));
  std::string big = kimi_json;
  big.replace(big.find("384"), 3, std::to_string(2 * max_e));
  std::ofstream(dir / "kimi-big.json") << big;
  const std::string err =
      build_error(workload::load_model_config((dir / "kimi-big.json").string()));
  BOOST_TEST(
      err.find("kimi-big.json: n_routed_experts " + std::to_string(2 * max_e)) != std::string::npos,
      err);
  // DeepSeek-V3's groups: per token a group V_TOPK (8 groups, keep 4), then the top-8 of 256.
  const auto v3 = build(workload::find_model("deepseek-v3"), 2);
  BOOST_TEST(v3.layout.group_limited());
  const std::vector<uint32_t> v3_policies = {(8u << 8) | 4u, (256u << 8) | 8u, (8u << 8) | 4u,
                                             (256u << 8) | 8u};
  BOOST_TEST(topk_encoding(v3.program).policies == v3_policies, boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(workload_deepseek_v2_limits_the_groups_and_scales_the_weights) {
  // DeepSeek-V2 (group_limited_greedy 8/3, norm_topk_prob false, rsf 16): per token V_TOPK over
  // all 160 (the softmax over E), the group V_TOPK (8 groups, keep 3), then the top-6 of the
  // masked logits, all on the policy register.
  const workload::ModelPreset& v2 = workload::find_model("deepseek-v2");
  const auto b = build(v2, 4);
  BOOST_TEST(b.layout.group_limited());
  BOOST_TEST(b.layout.topk_select == 160u);
  std::vector<uint32_t> policies;
  for (int t = 0; t < 4; ++t)
    policies.insert(policies.end(), {(160u << 8) | 160u, (8u << 8) | 3u, (160u << 8) | 6u});
  BOOST_TEST(topk_encoding(b.program).policies == policies, boost::test_tools::per_element());
  // The reference's selections lie in at most 3 groups of 20, and the group limit changes the
  // selection of some token of this layer (the same image without groups selects otherwise).
  const auto& preset = isa::Spec::builtin().preset("default");
  const workload::ReferenceResult r = workload::reference_layer(preset, v2, b);
  workload::ModelPreset ungrouped = v2;
  ungrouped.n_group = ungrouped.topk_group = 1;
  const auto bu = build(ungrouped, 4);
  const workload::ReferenceResult ru = workload::reference_layer(preset, ungrouped, bu);
  BOOST_TEST(r.selection_differs == 0u);
  unsigned changed = 0;
  for (unsigned t = 0; t < 4; ++t) {
    std::set<uint32_t> groups;
    for (unsigned j = 0; j < 6; ++j) groups.insert(r.expert_ids[t * 6 + j] / 20);
    BOOST_TEST(groups.size() <= 3u);
    changed += !std::equal(r.expert_ids.begin() + t * 6, r.expert_ids.begin() + t * 6 + 6,
                           ru.expert_ids.begin() + t * 6);
  }
  BOOST_TEST(changed > 0u);
  // The weights: the softmax over all E of each selected expert, times bf16(16) = 16 exactly;
  // the ungrouped layer's weight of the same expert is the same softmax value.
  for (unsigned p = 0; p < 24; ++p) {
    const unsigned t = p / 6;
    for (unsigned q = t * 6; q < t * 6 + 6; ++q)
      if (ru.expert_ids[q] == r.expert_ids[p])
        BOOST_TEST(num::bf16_to_f32(r.route_weights[p]) == num::bf16_to_f32(ru.route_weights[q]));
  }
}

BOOST_AUTO_TEST_CASE(workload_topk_encodings_read_back_from_the_words) {
  struct Case {
    unsigned e, k;
    workload::TopkEncoding enc;
    unsigned rmask;
  };
  using workload::TopkEncoding;
  const Case cases[] = {
      {32, 4, TopkEncoding::automatic, 0},        {128, 8, TopkEncoding::automatic, 1},
      {32, 4, TopkEncoding::register_policy, 15}, {128, 8, TopkEncoding::register_policy, 15},
      {60, 4, TopkEncoding::automatic, 15},       {64, 6, TopkEncoding::automatic, 15},
      {256, 8, TopkEncoding::automatic, 15},      {16, 1, TopkEncoding::automatic, 15}};
  for (const Case& c : cases) {
    BOOST_TEST_CONTEXT(c.e << "/" << c.k << " rmask " << c.rmask) {
      const auto b = build(shape(c.e, c.k), 3, false, c.enc);
      const TopkEncodingSeen s = topk_encoding(b.program);
      BOOST_TEST(s.rmasks == std::vector<unsigned>(3, c.rmask), boost::test_tools::per_element());
      if (c.rmask == 15) {
        // One C_SET_TOPK_REG with (E << 8) | k, before the first V_TOPK.
        BOOST_TEST(s.policies == std::vector<uint32_t>{(c.e << 8) | c.k},
                   boost::test_tools::per_element());
        BOOST_TEST(s.first_set < s.first_topk);
      } else {
        BOOST_TEST(s.policies.empty());
      }
      BOOST_TEST(b.layout.logit_rows == (c.e + 63) / 64);
    }
  }
  // norm_topk_prob false: the register selects all E (the full softmax), the layer k of them.
  const auto q = build(workload::find_model("qwen1.5-moe-a2.7b"), 2);
  BOOST_TEST(topk_encoding(q.program).policies == std::vector<uint32_t>{(60u << 8) | 60u},
             boost::test_tools::per_element());
  BOOST_TEST(q.layout.pairs == 8u);
}

// ---------------------------------------------------------------- golden vs RTL, per shape

// ---------------------------------------------------------------- expert-major lowering

BOOST_AUTO_TEST_CASE(workload_expert_major_fetches_each_expert_once) {
  const auto& m = workload::find_model("qwen3-30b-a3b");
  const auto pair = build(m, 8);
  const auto expert =
      build(m, 8, false, workload::TopkEncoding::automatic, workload::Lowering::expert);
  const workload::Utilisation& p = pair.utilisation.at(0);
  const workload::Utilisation& e = expert.utilisation.at(0);
  BOOST_TEST(p.lowering == "pair");
  BOOST_TEST(e.lowering == "expert");
  // H = I = 64 on the default preset (MLEN 64): W1 is 2 tiles, W2 1 tile per expert.
  BOOST_TEST(p.weight_tiles == 8u * 8u * 3u);  // T*k pairs
  BOOST_TEST(e.weight_tiles == 128u * 3u);     // E experts
  BOOST_TEST(p.useful_rows_per_tile == 1.0);
  BOOST_TEST(e.useful_rows_per_tile == 64.0 * 4 / (128 * 8));
  // Expert-major reads the token rows in place: no V_GATHER.
  BOOST_TEST(expert.asm_text.find("V_GATHER") == std::string::npos);
  BOOST_TEST(pair.asm_text.find("V_GATHER") != std::string::npos);
}
