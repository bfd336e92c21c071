// safetensors files: see safetensors.hpp.
#include "moesim/workload/safetensors.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstring>
#include <filesystem>

#include "moesim/isa/input_file.hpp"
#include "moesim/isa/usage_error.hpp"
#include "moesim/workload/json_file.hpp"

namespace moesim::workload::safetensors {

namespace {

using Json = nlohmann::json;

struct DtypeRow {
  Dtype dtype;
  const char* name;
  unsigned bits;
};

constexpr std::array<DtypeRow, 22> kDtypes = {{
    {Dtype::BOOL, "BOOL", 8},
    {Dtype::F4, "F4", 4},
    {Dtype::F6_E2M3, "F6_E2M3", 6},
    {Dtype::F6_E3M2, "F6_E3M2", 6},
    {Dtype::U8, "U8", 8},
    {Dtype::I8, "I8", 8},
    {Dtype::F8_E5M2, "F8_E5M2", 8},
    {Dtype::F8_E4M3, "F8_E4M3", 8},
    {Dtype::F8_E8M0, "F8_E8M0", 8},
    {Dtype::F8_E4M3FNUZ, "F8_E4M3FNUZ", 8},
    {Dtype::F8_E5M2FNUZ, "F8_E5M2FNUZ", 8},
    {Dtype::I16, "I16", 16},
    {Dtype::U16, "U16", 16},
    {Dtype::F16, "F16", 16},
    {Dtype::BF16, "BF16", 16},
    {Dtype::I32, "I32", 32},
    {Dtype::U32, "U32", 32},
    {Dtype::F32, "F32", 32},
    {Dtype::C64, "C64", 64},
    {Dtype::F64, "F64", 64},
    {Dtype::I64, "I64", 64},
    {Dtype::U64, "U64", 64},
}};

const DtypeRow& row(Dtype d) { return kDtypes[static_cast<size_t>(d)]; }

std::string known_dtypes() {
  std::string s;
  for (const DtypeRow& r : kDtypes) s += (s.empty() ? "" : ", ") + std::string(r.name);
  return s;
}

std::string offsets_text(const Tensor& t) {
  return "[" + std::to_string(t.begin) + ", " + std::to_string(t.end) + "]";
}

/// A non-negative integer of the header, or a refusal naming `what`.
uint64_t unsigned_of(const Json& v, const std::string& what) {
  if (!v.is_number_unsigned())
    throw UsageError(what + ": " + v.dump() + " is not a non-negative integer below 2^64");
  return v.get<uint64_t>();
}

/// Parses one tensor entry; `who` is "PATH: tensor 'NAME'".
Tensor parse_entry(const std::string& name, const Json& e, const std::string& who) {
  if (!e.is_object()) throw UsageError(who + ": not an object of dtype, shape and data_offsets");
  for (const auto& [k, v] : e.items()) {
    (void)v;
    if (k != "dtype" && k != "shape" && k != "data_offsets")
      throw UsageError(who + ": unknown field '" + k +
                       "' (a tensor has dtype, shape, data_offsets)");
  }
  for (const char* k : {"dtype", "shape", "data_offsets"})
    if (!e.contains(k)) throw UsageError(who + ": no '" + k + "'");
  Tensor t;
  t.name = name;
  const Json& d = e["dtype"];
  if (!d.is_string()) throw UsageError(who + ": 'dtype': " + d.dump() + " is not a string");
  const std::optional<Dtype> dt = parse_dtype(d.get<std::string>());
  if (!dt)
    throw UsageError(who + ": 'dtype': '" + d.get<std::string>() + "' is not a dtype (" +
                     known_dtypes() + ")");
  t.dtype = *dt;
  const Json& s = e["shape"];
  if (!s.is_array()) throw UsageError(who + ": 'shape': " + s.dump() + " is not an array");
  for (size_t i = 0; i < s.size(); ++i)
    t.shape.push_back(unsigned_of(s[i], who + ": 'shape'[" + std::to_string(i) + "]"));
  const Json& o = e["data_offsets"];
  if (!o.is_array() || o.size() != 2)
    throw UsageError(who + ": 'data_offsets': " + o.dump() + " is not [begin, end]");
  t.begin = unsigned_of(o[0], who + ": 'data_offsets'[0]");
  t.end = unsigned_of(o[1], who + ": 'data_offsets'[1]");
  if (t.end < t.begin)
    throw UsageError(who + ": 'data_offsets' " + offsets_text(t) + ": end before begin");
  // The element count and the byte size of dtype x shape, without overflow.
  uint64_t n = 1;
  for (uint64_t dim : t.shape)
    if (__builtin_mul_overflow(n, dim, &n))
      throw UsageError(who + ": 'shape': the element count overflows 64 bits");
  uint64_t bits = 0;
  if (__builtin_mul_overflow(n, uint64_t{dtype_bits(t.dtype)}, &bits))
    throw UsageError(who + ": 'shape': the size of " + std::to_string(n) + " " +
                     dtype_name(t.dtype) + " elements overflows 64 bits");
  if (bits % 8 != 0)
    throw UsageError(who + ": 'shape': " + std::to_string(n) + " " + dtype_name(t.dtype) +
                     " elements of " + std::to_string(dtype_bits(t.dtype)) +
                     " bits are not a whole number of bytes");
  if (t.end - t.begin != bits / 8)
    throw UsageError(who + ": 'data_offsets' " + offsets_text(t) + ": " +
                     std::to_string(t.end - t.begin) + " bytes, but dtype " + dtype_name(t.dtype) +
                     " x shape holds " + std::to_string(bits / 8));
  return t;
}

}  // namespace

const char* dtype_name(Dtype d) { return row(d).name; }
unsigned dtype_bits(Dtype d) { return row(d).bits; }

std::optional<Dtype> parse_dtype(const std::string& name) {
  for (const DtypeRow& r : kDtypes)
    if (name == r.name) return r.dtype;
  return std::nullopt;
}

uint64_t Tensor::elements() const {
  uint64_t n = 1;
  for (uint64_t d : shape) n *= d;
  return n;
}

File::File(const std::string& path) : path_(path) {
  isa::check_input_file(path, UINT64_MAX);  // a regular file that can be opened
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) throw UsageError(path + ": cannot open (" + std::strerror(errno) + ")");
  struct stat st {};
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    ::close(fd);
    throw UsageError(path + ": not a regular file");
  }
  size_ = static_cast<uint64_t>(st.st_size);
  if (size_ < 8) {
    ::close(fd);
    throw UsageError(path + ": " + std::to_string(size_) +
                     " bytes, shorter than the 8-byte header length");
  }
  void* m = ::mmap(nullptr, size_, PROT_READ, MAP_PRIVATE, fd, 0);
  ::close(fd);
  if (m == MAP_FAILED)
    throw UsageError(path + ": cannot map (" + std::string(std::strerror(errno)) + ")");
  base_ = static_cast<const uint8_t*>(m);
  try {
    for (int i = 7; i >= 0; --i) header_bytes_ = header_bytes_ << 8 | base_[i];
    if (header_bytes_ > kMaxHeaderBytes)
      throw UsageError(path + ": header length " + std::to_string(header_bytes_) +
                       " is more than the limit of " + std::to_string(kMaxHeaderBytes) + " bytes");
    if (header_bytes_ > size_ - 8)
      throw UsageError(path + ": header length " + std::to_string(header_bytes_) +
                       " runs past the end of the file (" + std::to_string(size_) + " bytes)");
    const std::string text(reinterpret_cast<const char*>(base_ + 8), header_bytes_);
    if (text.empty() || text[0] != '{')
      throw UsageError(path + ": header: does not start with '{' (not a JSON object)");
    const Json h = parse_json_text(text, path + ": header");
    if (!h.is_object()) throw UsageError(path + ": header: not a JSON object");
    for (const auto& [name, e] : h.items()) {
      if (name == "__metadata__") {
        if (!e.is_object()) throw UsageError(path + ": '__metadata__': not an object of strings");
        for (const auto& [k, v] : e.items()) {
          if (!v.is_string())
            throw UsageError(path + ": '__metadata__': '" + k + "': " + v.dump() +
                             " is not a string");
          metadata_[k] = v.get<std::string>();
        }
        continue;
      }
      tensors_.push_back(parse_entry(name, e, path + ": tensor '" + name + "'"));
    }
    std::sort(tensors_.begin(), tensors_.end(), [](const Tensor& a, const Tensor& b) {
      return a.begin != b.begin ? a.begin < b.begin : a.end < b.end;
    });
    uint64_t at = 0;
    for (size_t i = 0; i < tensors_.size(); ++i) {
      const Tensor& t = tensors_[i];
      if (t.begin != at) {
        const std::string before = i == 0 ? "the data begins at 0"
                                          : "the tensor before it in offset order, '" +
                                                tensors_[i - 1].name + "', ends at " +
                                                std::to_string(at);
        throw UsageError(path + ": tensor '" + t.name + "': 'data_offsets' " + offsets_text(t) +
                         ": " + (t.begin < at ? "overlaps" : "leaves a gap") + ": " + before);
      }
      at = t.end;
      index_[t.name] = i;
    }
    if (at != size_ - 8 - header_bytes_)
      throw UsageError(path + ": the tensors' data ends at " + std::to_string(at) +
                       " bytes after the header, but the file has " +
                       std::to_string(size_ - 8 - header_bytes_) + " (the data must fill it)");
  } catch (...) {
    ::munmap(const_cast<uint8_t*>(base_), size_);
    throw;
  }
}

File::~File() { ::munmap(const_cast<uint8_t*>(base_), size_); }

const Tensor* File::find(const std::string& name) const {
  const auto it = index_.find(name);
  return it == index_.end() ? nullptr : &tensors_[it->second];
}

namespace fs = std::filesystem;

Checkpoint::Checkpoint(const std::string& dir) : dir_(dir) {
  const fs::path d(dir);
  std::error_code ec;
  if (!fs::is_directory(d, ec)) throw UsageError(dir + ": not a directory");
  const fs::path single = d / "model.safetensors", index = d / "model.safetensors.index.json";
  if (fs::exists(single, ec)) {
    source_ = single.string();
    single_ = true;
    return;
  }
  if (!fs::exists(index, ec))
    throw UsageError(dir + ": neither model.safetensors nor model.safetensors.index.json");
  source_ = index.string();
  const Json j = read_json_file(source_, source_);
  if (!j.is_object() || !j.contains("weight_map") || !j["weight_map"].is_object())
    throw UsageError(source_ + ": no 'weight_map' object (tensor name -> file)");
  for (const auto& [name, file] : j["weight_map"].items()) {
    const std::string who = source_ + ": 'weight_map': '" + name + "'";
    if (!file.is_string()) throw UsageError(who + ": " + file.dump() + " is not a file name");
    const std::string f = file.get<std::string>();
    if (f.empty() || f == "." || f == ".." || f.find('/') != std::string::npos ||
        f.find('\0') != std::string::npos)
      throw UsageError(who + ": " + file.dump() +
                       " is not a file name in the checkpoint directory");
    weight_map_[name] = f;
  }
}

Checkpoint::~Checkpoint() = default;

const File& Checkpoint::open(const std::string& file) {
  auto it = files_.find(file);
  if (it == files_.end())
    it = files_.emplace(file, std::make_unique<File>((fs::path(dir_) / file).string())).first;
  return *it->second;
}

std::pair<const File*, const Tensor*> Checkpoint::tensor(const std::string& name) {
  std::string file = "model.safetensors";
  if (!single_) {
    const auto it = weight_map_.find(name);
    if (it == weight_map_.end())
      throw UsageError(source_ + ": tensor '" + name + "': not in 'weight_map'");
    file = it->second;
  }
  const File& f = open(file);
  const Tensor* t = f.find(name);
  if (t == nullptr)
    throw UsageError(f.path() + ": tensor '" + name + "': not in the file" +
                     (single_ ? "" : " (" + source_ + " maps it there)"));
  return {&f, t};
}

std::vector<std::string> Checkpoint::opened() const {
  std::vector<std::string> v;
  for (const auto& [name, f] : files_) v.push_back(f->path());
  return v;
}

}  // namespace moesim::workload::safetensors
