// Reading safetensors files, the tensor format of Hugging Face checkpoints
// (docs/checkpoints-hf.md): an 8-byte little-endian header length N, N bytes of a JSON header that
// maps each tensor's name to its dtype, shape and data_offsets (bytes after the header, [begin,
// end)) with an optional
// "__metadata__" object of strings, then the tensors' bytes. A file is memory-mapped read-only
// and only its header is read when it is opened: the bytes of a tensor are touched when a reader
// uses them, so a checkpoint of many gigabytes costs the tensors read.
//
// The header is validated as the reference implementation (huggingface/safetensors) validates it,
// and every refusal is a UsageError naming the file, the tensor and the field.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace moesim::workload::safetensors {

/// The dtypes of the format, with their width in bits (the F4 and F6 MX element types are packed;
/// a tensor of them must hold a whole number of bytes).
enum class Dtype {
  BOOL,
  F4,
  F6_E2M3,
  F6_E3M2,
  U8,
  I8,
  F8_E5M2,
  F8_E4M3,
  F8_E8M0,
  F8_E4M3FNUZ,
  F8_E5M2FNUZ,
  I16,
  U16,
  F16,
  BF16,
  I32,
  U32,
  F32,
  C64,
  F64,
  I64,
  U64,
};

const char* dtype_name(Dtype d);
unsigned dtype_bits(Dtype d);
/// The dtype spelled `name` ("BF16"), or nothing.
std::optional<Dtype> parse_dtype(const std::string& name);

/// The reference implementation's bound on the header length N.
constexpr uint64_t kMaxHeaderBytes = 100'000'000;

struct Tensor {
  std::string name;
  Dtype dtype = Dtype::U8;
  std::vector<uint64_t> shape;  ///< outermost first (row-major); empty for a scalar
  uint64_t begin = 0, end = 0;  ///< data_offsets: bytes after the header
  uint64_t elements() const;    ///< the product of shape (checked against overflow when read)
};

/// One .safetensors file, memory-mapped read-only for as long as the object lives. The
/// constructor validates the header and refuses (UsageError "PATH: ..."):
///   * anything but a regular file (isa::check_input_file), a file shorter than 8 bytes;
///   * a header length N over kMaxHeaderBytes or past the end of the file;
///   * a header that is not a JSON object (its first byte must be '{'), invalid UTF-8, a key
///     given twice in one object;
///   * "__metadata__" that is not an object of strings;
///   * a tensor entry that is not an object of exactly dtype, shape and data_offsets; an unknown
///     dtype; a shape that is not an array of non-negative integers; data_offsets that are not
///     two non-negative integers [begin, end] with begin <= end;
///   * a shape whose element count or byte size overflows 64 bits, a packed dtype whose tensor is
///     not a whole number of bytes, end - begin different from the size of dtype x shape;
///   * offsets that are not contiguous from 0 in offset order (an overlap or a gap, named with
///     the tensor before it), and a last end that is not the end of the file.
class File {
 public:
  explicit File(const std::string& path);
  ~File();
  File(const File&) = delete;
  File& operator=(const File&) = delete;

  const std::string& path() const { return path_; }
  /// Every tensor, in offset order.
  const std::vector<Tensor>& tensors() const { return tensors_; }
  /// The tensor `name`, or nullptr.
  const Tensor* find(const std::string& name) const;
  const std::map<std::string, std::string>& metadata() const { return metadata_; }
  /// The first byte of `t`'s data in the mapping (t is one of tensors()).
  const uint8_t* data(const Tensor& t) const { return base_ + 8 + header_bytes_ + t.begin; }
  uint64_t header_bytes() const { return header_bytes_; }

 private:
  std::string path_;
  const uint8_t* base_ = nullptr;
  uint64_t size_ = 0, header_bytes_ = 0;
  std::vector<Tensor> tensors_;
  std::map<std::string, size_t> index_;
  std::map<std::string, std::string> metadata_;
};

/// A checkpoint directory as Hugging Face writes one: a single `model.safetensors`, or the shards
/// a `model.safetensors.index.json` lists in its "weight_map" (tensor name -> file name in the
/// directory). A shard is opened (and its header validated) when a tensor of it is first asked
/// for, so reading one layer opens only the shards that hold it. Refusals (UsageError naming the
/// directory, the index or the shard): neither file present; an index that is not an object with
/// a "weight_map" object of strings; a shard name that is not a plain file name in the directory;
/// a tensor the index maps to a shard that does not hold it.
class Checkpoint {
 public:
  explicit Checkpoint(const std::string& dir);
  ~Checkpoint();
  const std::string& dir() const { return dir_; }
  /// The path of the index, or of model.safetensors when there is no index.
  const std::string& source() const { return source_; }
  /// The tensor `name` and the file that holds it; UsageError naming source() if it has none.
  std::pair<const File*, const Tensor*> tensor(const std::string& name);
  /// The files opened so far.
  std::vector<std::string> opened() const;

 private:
  std::string dir_, source_;
  bool single_ = false;                            ///< one file, model.safetensors
  std::map<std::string, std::string> weight_map_;  ///< the index's, unless single_
  std::map<std::string, std::unique_ptr<File>> files_;
  const File& open(const std::string& file);
};

}  // namespace moesim::workload::safetensors
