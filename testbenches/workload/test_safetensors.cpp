// The safetensors reader (docs/checkpoints-hf.md) on files this test writes: a valid file is read
// (tensors in offset order, metadata, bytes), and every validation rule has a file that only that
// rule refuses, each refusal naming the file, the tensor and the field. Sharded checkpoints: the
// index's weight_map, only the shards asked for opened, and the index's refusals.
#include <boost/test/unit_test.hpp>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "moesim/isa/usage_error.hpp"
#include "moesim/workload/safetensors.hpp"

using namespace moesim;
namespace st = moesim::workload::safetensors;
namespace fs = std::filesystem;

namespace {

fs::path work_dir(const std::string& name) {
  const fs::path dir = fs::path(MOESIM_TEST_WORK_DIR) / "safetensors" / name;
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

/// The bytes of a safetensors file: `length` as the 8-byte header length, the header text and
/// `data` bytes of data.
std::string file_bytes(const std::string& header, size_t data, uint64_t length) {
  std::string s(8, '\0');
  for (int i = 0; i < 8; ++i) s[i] = static_cast<char>(length >> (8 * i));
  s += header;
  for (size_t i = 0; i < data; ++i) s += static_cast<char>(i);
  return s;
}

std::string file_bytes(const std::string& header, size_t data) {
  return file_bytes(header, data, header.size());
}

void write(const fs::path& p, const std::string& bytes) {
  std::ofstream(p, std::ios::binary) << bytes;
}

/// What st::File refuses a file of `bytes` with ("" if it reads it).
std::string refusal(const std::string& bytes) {
  const fs::path p = work_dir("bad") / "bad.safetensors";
  write(p, bytes);
  try {
    st::File f(p.string());
  } catch (const UsageError& e) {
    return e.what();
  }
  return "";
}

/// Refused, naming the file and each of `parts`.
void check_refused(const std::string& bytes, const std::vector<std::string>& parts) {
  const std::string msg = refusal(bytes);
  BOOST_TEST_INFO("message: " << msg);
  BOOST_TEST(msg.find("bad.safetensors: ") != std::string::npos);
  for (const std::string& p : parts) BOOST_TEST(msg.find(p) != std::string::npos, p);
}

const std::string kA = R"("a": {"dtype": "BF16", "shape": [2, 3], "data_offsets": [0, 12]})";
const std::string kB = R"("b": {"dtype": "F32", "shape": [2], "data_offsets": [12, 20]})";

}  // namespace

BOOST_AUTO_TEST_SUITE(safetensors)

BOOST_AUTO_TEST_CASE(reads_a_valid_file_in_offset_order) {
  // Header order b, a; metadata; padding spaces as the reference writer pads.
  const std::string header = "{" + kB + R"(, "__metadata__": {"format": "pt"}, )" + kA + "}    ";
  const fs::path p = work_dir("good") / "model.safetensors";
  write(p, file_bytes(header, 20));
  const st::File f(p.string());
  BOOST_TEST(f.tensors().size() == 2u);
  BOOST_TEST(f.tensors()[0].name == "a");
  BOOST_TEST(f.tensors()[1].name == "b");
  BOOST_TEST(f.metadata().at("format") == "pt");
  const st::Tensor* b = f.find("b");
  BOOST_TEST_REQUIRE(b != nullptr);
  BOOST_TEST((b->dtype == st::Dtype::F32));
  BOOST_TEST(b->elements() == 2u);
  BOOST_TEST(f.data(*b)[0] == 12);  // data byte i holds i
  BOOST_TEST(f.data(*f.find("a"))[11] == 11);
  BOOST_TEST(f.find("c") == nullptr);
  BOOST_TEST(f.header_bytes() == header.size());
}

BOOST_AUTO_TEST_CASE(every_dtype_of_the_format_is_known_with_its_width) {
  const std::vector<std::pair<std::string, unsigned>> rows = {
      {"BOOL", 8},        {"F4", 4},      {"F6_E2M3", 6}, {"F6_E3M2", 6}, {"U8", 8},
      {"I8", 8},          {"F8_E5M2", 8}, {"F8_E4M3", 8}, {"F8_E8M0", 8}, {"F8_E4M3FNUZ", 8},
      {"F8_E5M2FNUZ", 8}, {"I16", 16},    {"U16", 16},    {"F16", 16},    {"BF16", 16},
      {"I32", 32},        {"U32", 32},    {"F32", 32},    {"C64", 64},    {"F64", 64},
      {"I64", 64},        {"U64", 64}};
  for (const auto& [name, bits] : rows) {
    const auto d = st::parse_dtype(name);
    BOOST_TEST_REQUIRE(d.has_value(), name);
    BOOST_TEST(st::dtype_bits(*d) == bits, name);
    BOOST_TEST(st::dtype_name(*d) == name);
  }
  BOOST_TEST(!st::parse_dtype("bf16").has_value());
  // A packed dtype's tensor of whole bytes is read: 4 F4 elements are 2 bytes.
  BOOST_TEST(refusal(file_bytes(R"({"p": {"dtype": "F4", "shape": [4], "data_offsets": [0, 2]}})",
                                2)) == "");
}

BOOST_AUTO_TEST_CASE(header_length_is_bounded_and_inside_the_file) {
  check_refused("1234567", {"7 bytes, shorter than the 8-byte header length"});
  // 100,000,001: over the reference's bound (the file is small: the bound is checked first).
  check_refused(file_bytes("{}", 0, 100'000'001),
                {"header length 100000001 is more than the limit of 100000000"});
  check_refused(file_bytes("{}", 0, 3), {"header length 3 runs past the end of the file"});
  // Exactly at the bound is not refused by the bound (it runs past this file's end instead).
  check_refused(file_bytes("{}", 0, 100'000'000), {"runs past the end of the file"});
}

BOOST_AUTO_TEST_CASE(header_must_be_one_json_object) {
  check_refused(file_bytes(" {}", 0), {"header: does not start with '{'"});
  check_refused(file_bytes("[]", 0), {"header: does not start with '{'"});
  check_refused(file_bytes("{\"a\": ", 0), {"header: not valid JSON"});
  check_refused(file_bytes("{\"\xff\": 1}", 0), {"header: not valid JSON"});  // not UTF-8
  check_refused(file_bytes("{" + kA + ", " + kA + "}", 12),
                {"header:1: key 'a' appears twice in one object"});
  check_refused(file_bytes(R"({"__metadata__": {"format": 1}})", 0),
                {"'__metadata__': 'format': 1 is not a string"});
  check_refused(file_bytes(R"({"__metadata__": ["pt"]})", 0),
                {"'__metadata__': not an object of strings"});
}

BOOST_AUTO_TEST_CASE(tensor_entries_are_checked_field_by_field) {
  const auto one = [](const std::string& entry, size_t data) {
    return file_bytes("{\"t\": " + entry + "}", data);
  };
  check_refused(one("[]", 0), {"tensor 't': not an object"});
  check_refused(one(R"({"dtype": "U8", "shape": [1], "data_offsets": [0, 1], "x": 0})", 1),
                {"tensor 't': unknown field 'x'"});
  check_refused(one(R"({"dtype": "U8", "shape": [1]})", 1), {"tensor 't': no 'data_offsets'"});
  check_refused(one(R"({"dtype": "Q4", "shape": [1], "data_offsets": [0, 1]})", 1),
                {"tensor 't': 'dtype': 'Q4' is not a dtype", "BF16"});
  check_refused(one(R"({"dtype": 8, "shape": [1], "data_offsets": [0, 1]})", 1),
                {"tensor 't': 'dtype': 8 is not a string"});
  check_refused(one(R"({"dtype": "U8", "shape": [-1], "data_offsets": [0, 1]})", 1),
                {"tensor 't': 'shape'[0]: -1 is not a non-negative integer"});
  check_refused(one(R"({"dtype": "U8", "shape": [1.5], "data_offsets": [0, 1]})", 1),
                {"tensor 't': 'shape'[0]: 1.5 is not a non-negative integer"});
  check_refused(one(R"({"dtype": "U8", "shape": 1, "data_offsets": [0, 1]})", 1),
                {"tensor 't': 'shape': 1 is not an array"});
  check_refused(one(R"({"dtype": "U8", "shape": [1], "data_offsets": [0]})", 1),
                {"tensor 't': 'data_offsets': [0] is not [begin, end]"});
  check_refused(one(R"({"dtype": "U8", "shape": [0], "data_offsets": [1, 0]})", 1),
                {"tensor 't': 'data_offsets' [1, 0]: end before begin"});
  // dtype x shape against the offsets: 2 x 3 BF16 are 12 bytes, not 10.
  check_refused(one(R"({"dtype": "BF16", "shape": [2, 3], "data_offsets": [0, 10]})", 10),
                {"tensor 't': 'data_offsets' [0, 10]: 10 bytes, but dtype BF16 x shape holds 12"});
  check_refused(
      one(R"({"dtype": "U8", "shape": [4294967296, 4294967296], "data_offsets": [0, 1]})", 1),
      {"tensor 't': 'shape': the element count overflows 64 bits"});
  check_refused(
      one(R"({"dtype": "F64", "shape": [4294967296, 536870912], "data_offsets": [0, 1]})", 1),
      {"tensor 't': 'shape': the size of", "overflows 64 bits"});
  check_refused(one(R"({"dtype": "F4", "shape": [3], "data_offsets": [0, 2]})", 2),
                {"tensor 't': 'shape': 3 F4 elements of 4 bits are not a whole number of bytes"});
}

BOOST_AUTO_TEST_CASE(offsets_are_contiguous_and_fill_the_file) {
  // b overlaps a (a ends at 12).
  check_refused(file_bytes("{" + kA + R"(, "b": {"dtype": "F32", "shape": [2], )" +
                               R"("data_offsets": [8, 16]}})",
                           16),
                {"tensor 'b': 'data_offsets' [8, 16]: overlaps", "'a', ends at 12"});
  // A gap of 4 bytes between a and b.
  check_refused(file_bytes("{" + kA + R"(, "b": {"dtype": "F32", "shape": [2], )" +
                               R"("data_offsets": [16, 24]}})",
                           24),
                {"tensor 'b': 'data_offsets' [16, 24]: leaves a gap", "'a', ends at 12"});
  // The first tensor must begin at 0.
  check_refused(file_bytes(R"({"b": {"dtype": "F32", "shape": [2], "data_offsets": [4, 12]}})", 12),
                {"tensor 'b': 'data_offsets' [4, 12]: leaves a gap: the data begins at 0"});
  // Trailing bytes after the last tensor, and a file shorter than its tensors.
  check_refused(file_bytes("{" + kA + ", " + kB + "}", 21),
                {"the tensors' data ends at 20 bytes after the header, but the file has 21"});
  check_refused(file_bytes("{" + kA + ", " + kB + "}", 19),
                {"the tensors' data ends at 20 bytes after the header, but the file has 19"});
  BOOST_TEST(refusal(file_bytes("{" + kA + ", " + kB + "}", 20)) == "");
  BOOST_TEST(refusal(file_bytes("{}", 0)) == "");  // no tensors, no data
}

BOOST_AUTO_TEST_CASE(sharded_checkpoint_opens_only_the_shards_asked_for) {
  const fs::path d = work_dir("sharded");
  write(d / "model-00001-of-00002.safetensors", file_bytes("{" + kA + "}", 12));
  write(d / "model-00002-of-00002.safetensors",
        file_bytes(R"({"b": {"dtype": "F32", "shape": [2], "data_offsets": [0, 8]}})", 8));
  write(d / "model.safetensors.index.json",
        R"({"metadata": {"total_size": 20}, "weight_map": {"a": "model-00001-of-00002.safetensors",
            "b": "model-00002-of-00002.safetensors", "c": "model-00002-of-00002.safetensors"}})");
  st::Checkpoint c(d.string());
  BOOST_TEST(c.source() == (d / "model.safetensors.index.json").string());
  const auto [fb, tb] = c.tensor("b");
  BOOST_TEST(tb->name == "b");
  BOOST_TEST(fb->data(*tb)[1] == 1);
  BOOST_TEST(c.opened() ==
             std::vector<std::string>{(d / "model-00002-of-00002.safetensors").string()});
  const auto refused = [&](const std::string& name) {
    try {
      c.tensor(name);
    } catch (const UsageError& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  BOOST_TEST(refused("c").find("model-00002-of-00002.safetensors: tensor 'c': not in the file (") !=
             std::string::npos);
  BOOST_TEST(refused("z").find("model.safetensors.index.json: tensor 'z': not in 'weight_map'") !=
             std::string::npos);
  BOOST_TEST(refused("a") == "");
  BOOST_TEST(c.opened().size() == 2u);
}

BOOST_AUTO_TEST_CASE(checkpoint_directory_refusals_name_the_place) {
  const auto refused = [](const fs::path& d) {
    try {
      st::Checkpoint c(d.string());
    } catch (const UsageError& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  const fs::path d = work_dir("dirs");
  BOOST_TEST(refused(d).find("neither model.safetensors nor model.safetensors.index.json") !=
             std::string::npos);
  BOOST_TEST(refused(d / "none").find("none: not a directory") != std::string::npos);
  write(d / "model.safetensors.index.json", R"({"metadata": {}})");
  BOOST_TEST(refused(d).find("model.safetensors.index.json: no 'weight_map' object") !=
             std::string::npos);
  write(d / "model.safetensors.index.json", R"({"weight_map": {"a": "../x.safetensors"}})");
  BOOST_TEST(refused(d).find("'weight_map': 'a': \"../x.safetensors\" is not a file name in the "
                             "checkpoint directory") != std::string::npos);
  write(d / "model.safetensors.index.json", R"({"weight_map": {"a": "s\u0000.safetensors"}})");
  BOOST_TEST(refused(d).find("is not a file name in the checkpoint directory") !=
             std::string::npos);
  write(d / "model.safetensors.index.json", R"({"weight_map": {"a": ".."}})");
  BOOST_TEST(refused(d).find("\"..\" is not a file name in the checkpoint directory") !=
             std::string::npos);
  write(d / "model.safetensors.index.json", R"({"weight_map": {"a": 3}})");
  BOOST_TEST(refused(d).find("'weight_map': 'a': 3 is not a file name") != std::string::npos);
  write(d / "model.safetensors.index.json", R"({"weight_map": {"a": "s", "a": "t"}})");
  BOOST_TEST(refused(d).find("key 'a' appears twice") != std::string::npos);
  // With model.safetensors present the index is not read (a single-file checkpoint).
  write(d / "model.safetensors", file_bytes("{}", 0));
  BOOST_TEST(refused(d) == "");
}

BOOST_AUTO_TEST_SUITE_END()
