// One layer of a Hugging Face checkpoint (load_hf_layer, read_hidden_states;
// docs/checkpoints-hf.md) on checkpoints this test writes: Mixtral's names (w1 the gate, w3 the up,
// w2 the down projection) laid into W1 / W2 with F32 and F16 values rounded to BF16 as documented,
// and the refusals of a missing tensor, a width the machine preset cannot hold, another model_type,
// a non-finite value and an input file of the wrong shape. The qwen3_moe layout is co-simulated by
// testbenches/cosim/hf_checkpoint_check.py.
#include <boost/test/unit_test.hpp>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include "moesim/isa/numerics.hpp"
#include "moesim/isa/spec.hpp"
#include "moesim/isa/usage_error.hpp"
#include "moesim/workload/hf_checkpoint.hpp"

using namespace moesim;
namespace fs = std::filesystem;

namespace {

struct T {
  std::string dtype;
  std::vector<uint64_t> shape;
  std::string bytes;
};

/// Writes a safetensors file of `tensors` (offsets in name order).
void write_safetensors(const fs::path& p, const std::map<std::string, T>& tensors) {
  std::string header = "{", data;
  for (const auto& [name, t] : tensors) {
    std::string shape;
    for (uint64_t d : t.shape) shape += (shape.empty() ? "" : ",") + std::to_string(d);
    header += (header.size() > 1 ? "," : "") + std::string("\"") + name + "\":{\"dtype\":\"" +
              t.dtype + "\",\"shape\":[" + shape + "],\"data_offsets\":[" +
              std::to_string(data.size()) + "," + std::to_string(data.size() + t.bytes.size()) +
              "]}";
    data += t.bytes;
  }
  header += "}";
  std::string len(8, '\0');
  for (int i = 0; i < 8; ++i) len[i] = static_cast<char>(uint64_t{header.size()} >> (8 * i));
  std::ofstream(p, std::ios::binary) << len << header << data;
}

/// n copies of a little-endian value of `width` bytes.
std::string fill(uint32_t v, int width, uint64_t n) {
  std::string one;
  for (int i = 0; i < width; ++i) one += static_cast<char>(v >> (8 * i));
  std::string s;
  for (uint64_t i = 0; i < n; ++i) s += one;
  return s;
}

constexpr unsigned kH = 64, kI = 64;
const std::string kMixtral =
    R"({"model_type": "mixtral", "hidden_size": 64, "intermediate_size": 64,
        "num_local_experts": 2, "num_experts_per_tok": 1, "num_hidden_layers": 1})";

/// A Mixtral checkpoint of 2 experts: router F32, experts F16 (gate 1.5, up -2, down 2^-24).
std::map<std::string, T> mixtral_tensors() {
  std::map<std::string, T> m;
  const std::string b = "model.layers.0.block_sparse_moe.";
  // 1 + 2^-8 + 2^-9 (0x3F818000) rounds up to 1 + 2^-7 (0x3F82): RNE, not truncation.
  m[b + "gate.weight"] = {"F32", {2, kH}, fill(0x3F818000u, 4, 2 * kH)};
  for (int e = 0; e < 2; ++e) {
    const std::string x = b + "experts." + std::to_string(e) + ".";
    m[x + "w1.weight"] = {"F16", {kI, kH}, fill(0x3E00, 2, kI * kH)};  // 1.5
    m[x + "w3.weight"] = {"F16", {kI, kH}, fill(0xC000, 2, kI * kH)};  // -2
    m[x + "w2.weight"] = {"F16", {kH, kI}, fill(0x0001, 2, kH * kI)};  // 2^-24, subnormal
  }
  return m;
}

fs::path checkpoint(const std::string& name, const std::string& config,
                    const std::map<std::string, T>& tensors) {
  const fs::path d = fs::path(MOESIM_TEST_WORK_DIR) / "hf_checkpoint" / name;
  fs::remove_all(d);
  fs::create_directories(d);
  std::ofstream(d / "config.json") << config;
  write_safetensors(d / "model.safetensors", tensors);
  return d;
}

const isa::MachinePreset& machine() { return isa::Spec::builtin().preset("default"); }

std::string refusal(const fs::path& d) {
  try {
    workload::load_hf_layer(d.string(), 0, machine());
  } catch (const UsageError& e) {
    return e.what();
  }
  return "";
}

}  // namespace

BOOST_AUTO_TEST_SUITE(hf_checkpoint)

BOOST_AUTO_TEST_CASE(mixtral_names_and_dtypes_are_laid_out_as_documented) {
  const fs::path d = checkpoint("mixtral", kMixtral, mixtral_tensors());
  const workload::HfLayer h = workload::load_hf_layer(d.string(), 0, machine());
  BOOST_TEST(h.model.experts == 2u);
  BOOST_TEST(h.files.size() == 1u);
  std::vector<uint16_t> v;
  h.weights->router(v);
  BOOST_TEST(v.size() == 2u * kH);
  BOOST_TEST(v[0] == 0x3F82);
  h.weights->expert_w1(1, v);
  BOOST_TEST_REQUIRE(v.size() == 2u * kI * kH);
  BOOST_TEST(v[0] == num::f32_to_bf16(1.5f));  // gate rows first (w1)
  BOOST_TEST(v[kI * kH - 1] == num::f32_to_bf16(1.5f));
  BOOST_TEST(v[kI * kH] == num::f32_to_bf16(-2.0f));  // then the up rows (w3)
  h.weights->expert_w2(0, v);
  BOOST_TEST(v.size() == uint64_t{kH} * kI);
  BOOST_TEST(v[5] == num::f32_to_bf16(std::ldexp(1.0f, -24)));  // F16 subnormal, exact
}

BOOST_AUTO_TEST_CASE(refusals_name_file_tensor_and_field) {
  auto missing = mixtral_tensors();
  missing.erase("model.layers.0.block_sparse_moe.experts.1.w2.weight");
  BOOST_TEST(refusal(checkpoint("missing", kMixtral, missing))
                 .find("model.safetensors: tensor "
                       "'model.layers.0.block_sparse_moe.experts.1.w2.weight': not in the file") !=
             std::string::npos);

  auto transposed = mixtral_tensors();
  transposed["model.layers.0.block_sparse_moe.gate.weight"].shape = {kH, 2};
  BOOST_TEST(refusal(checkpoint("transposed", kMixtral, transposed))
                 .find("'model.layers.0.block_sparse_moe.gate.weight': 'shape' [64, 2], but "
                       "config.json gives [2, 64]") != std::string::npos);

  // I = 96 is not a multiple of VLEN = 64.
  std::string wide = kMixtral;
  wide.replace(wide.find("\"intermediate_size\": 64"), 23, "\"intermediate_size\": 96");
  auto m96 = mixtral_tensors();
  for (int e = 0; e < 2; ++e) {
    const std::string x = "model.layers.0.block_sparse_moe.experts." + std::to_string(e) + ".";
    m96[x + "w1.weight"] = {"F16", {96, kH}, fill(0x3E00, 2, 96 * kH)};
    m96[x + "w3.weight"] = {"F16", {96, kH}, fill(0x3E00, 2, 96 * kH)};
    m96[x + "w2.weight"] = {"F16", {kH, 96}, fill(0x3E00, 2, 96 * kH)};
  }
  BOOST_TEST(refusal(checkpoint("wide", wide, m96))
                 .find("'model.layers.0.block_sparse_moe.experts.0.w1.weight': 'shape' [96, 64]: "
                       "the expert intermediate size 96 is not a multiple of VLEN = 64 of "
                       "machine preset 'default'") != std::string::npos);

  auto nan = mixtral_tensors();
  nan["model.layers.0.block_sparse_moe.experts.0.w3.weight"].bytes.replace(2 * 67, 2, "\x00\x7E",
                                                                           2);
  const fs::path dn = checkpoint("nan", kMixtral, nan);
  const workload::HfLayer h = workload::load_hf_layer(dn.string(), 0, machine());
  std::vector<uint16_t> v;
  try {
    h.weights->expert_w1(0, v);
    BOOST_FAIL("a NaN weight was read");
  } catch (const UsageError& e) {
    BOOST_TEST(std::string(e.what()).find("'model.layers.0.block_sparse_moe.experts.0.w3.weight': "
                                          "element [1, 3] is infinite or NaN in BF16") !=
               std::string::npos);
  }

  const std::string oss = R"({"model_type": "gpt_oss", "hidden_size": 64,
      "intermediate_size": 64, "num_local_experts": 8, "num_experts_per_tok": 2})";
  BOOST_TEST(refusal(checkpoint("oss", oss, {}))
                 .find("key 'model_type': 'gpt_oss': --checkpoint reads the layers of qwen3_moe, "
                       "olmoe, mixtral, deepseek_v2 and deepseek_v3") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(hidden_states_file_gives_the_tokens) {
  const fs::path d = fs::path(MOESIM_TEST_WORK_DIR) / "hf_checkpoint";
  fs::create_directories(d);
  write_safetensors(d / "x.safetensors", {{"x", {"BF16", {3, kH}, fill(0x4040, 2, 3 * kH)}}});
  unsigned tokens = 0;
  const std::vector<uint16_t> x =
      workload::read_hidden_states((d / "x.safetensors").string(), kH, tokens);
  BOOST_TEST(tokens == 3u);
  BOOST_TEST(x.size() == 3u * kH);
  BOOST_TEST(x[kH] == 0x4040);
  const auto refused = [&](const std::map<std::string, T>& t) {
    write_safetensors(d / "bad.safetensors", t);
    try {
      workload::read_hidden_states((d / "bad.safetensors").string(), kH, tokens);
    } catch (const UsageError& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  BOOST_TEST(refused({{"x", {"BF16", {3, 32}, fill(0, 2, 96)}}})
                 .find("tensor 'x': 'shape' [3, 32]: not [tokens, 64]") != std::string::npos);
  BOOST_TEST(refused({{"x", {"BF16", {0, kH}, ""}}}).find("no tokens") != std::string::npos);
  BOOST_TEST(refused({{"x", {"I32", {1, kH}, fill(0, 4, kH)}}})
                 .find("'dtype' I32: moesim reads BF16, F16 and F32") != std::string::npos);
  BOOST_TEST(refused({}).find("0 tensors; the input hidden states are one tensor") !=
             std::string::npos);
}

BOOST_AUTO_TEST_SUITE_END()
