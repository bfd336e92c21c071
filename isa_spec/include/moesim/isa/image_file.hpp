// Initial-memory images from files: the YAML region schema of conformance cases (`init:`), raw
// binary images of one space, and seeded random images (docs/images.md). The conformance runner
// and the moesim CLI (`--image`, `--image-bin`, `--random-image`) share this one loader. Every
// error is a UsageError naming the file (file:line and the key path for YAML).
#pragma once

#include <yaml-cpp/yaml.h>

#include <cstdint>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "moesim/isa/program.hpp"
#include "moesim/isa/spec.hpp"
#include "moesim/isa/trace.hpp"

namespace moesim::isa {

/// A memory region of an image or case file: units [begin, begin + count) of `space`, as their
/// byte image.
struct ImageRegion {
  Space space = Space::Vram;
  uint64_t begin = 0;          ///< first unit (VRAM/MRAM row, SRAM word, HBM byte)
  uint64_t count = 0;          ///< units
  std::vector<uint8_t> bytes;  ///< count * unit_bytes(space)
  std::string where;           ///< "file:line: key path" for messages
};

/// Reads the region schema from YAML nodes of one file. Every error throws UsageError
/// "FILE:LINE: KEY: message" (LINE 1-based, of the offending node).
class ImageReader {
 public:
  explicit ImageReader(std::filesystem::path path) : path_(std::move(path)) {}

  const std::filesystem::path& path() const { return path_; }

  /// Parses the file (a YAML syntax error names file:line).
  YAML::Node load() const;

  [[noreturn]] void fail(const YAML::Node& at, const std::string& key,
                         const std::string& msg) const;
  /// "FILE:LINE" of node `n` (FILE alone when the node has no position).
  std::string where(const YAML::Node& n) const;

  /// Rejects a key written twice in map `m` (yaml-cpp keeps one of them silently).
  void unique_keys(const YAML::Node& m, const std::string& key) const;
  /// A non-negative integer, decimal or 0x hex, at most `max`.
  uint64_t number(const YAML::Node& n, const std::string& key, uint64_t max = UINT64_MAX) const;
  /// A BF16 value: a number BF16 represents exactly, or a "0x...." bit pattern.
  uint16_t bf16(const YAML::Node& n, const std::string& key) const;

  /// The region list of space `space` under `key` (docs/images.md).
  std::vector<ImageRegion> regions(const YAML::Node& list, Space space, const std::string& key,
                                   const MachinePreset& preset) const;
  /// A map of space name -> region list (an `init:` or `expect.mem:` map); regions of one space
  /// that share a unit are refused.
  std::vector<ImageRegion> spaces(const YAML::Node& map, const std::string& key,
                                  const MachinePreset& preset) const;

 private:
  std::filesystem::path path_;
};

/// Appends `regions` to `image` as segments (byte offsets), in order.
void add_regions(MemoryImage& image, std::vector<ImageRegion> regions, const MachinePreset& preset);

/// The segments of `image` for space `s`.
std::vector<MemorySegment>& segments(MemoryImage& image, Space s);
const std::vector<MemorySegment>& segments(const MemoryImage& image, Space s);

/// An image file (docs/images.md): a map with `init:` (the region map of a conformance case)
/// and an optional `machine:` that must name `preset`; a conformance case file is one too (its
/// `budget` and `expect` keys are not used). Appends its regions to `image`.
void read_image_file(const std::filesystem::path& path, const MachinePreset& preset,
                     MemoryImage& image);

/// A raw binary image "SPACE=FILE[@OFFSET]" (OFFSET in bytes of the space's byte image, decimal
/// or 0x hex, default 0): the parts of the argument. Throws UsageError naming `flag`.
struct BinaryImageArg {
  Space space = Space::Hbm;
  std::filesystem::path file;
  uint64_t offset = 0;
};
BinaryImageArg parse_binary_image_arg(const std::string& flag, const std::string& arg);

/// Reads the file of `arg` and appends it to `image` as one segment; throws UsageError when the
/// file cannot be read or does not fit the space on `preset`.
void read_binary_image(const std::string& flag, const BinaryImageArg& arg,
                       const MachinePreset& preset, MemoryImage& image);

/// Seeded random contents for every space (std::mt19937_64 seeded with `seed`), one segment per
/// space covering all of it; the distribution per space is in docs/images.md.
void add_random_image(uint64_t seed, const MachinePreset& preset, MemoryImage& image);

}  // namespace moesim::isa
