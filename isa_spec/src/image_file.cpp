// Initial-memory images from files (image_file.hpp, docs/images.md).
#include "moesim/isa/image_file.hpp"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <iterator>
#include <optional>
#include <random>
#include <set>

#include "moesim/isa/geometry.hpp"
#include "moesim/isa/input_file.hpp"
#include "moesim/isa/numerics.hpp"
#include "moesim/isa/usage_error.hpp"
#include "moesim/isa/yaml_reader.hpp"

namespace moesim::isa {

namespace fs = std::filesystem;

namespace {

/// Runs `f`; its UsageError "PATH: why" becomes "WHAT why" (`what` names the flag and the file).
template <class F>
auto with_prefix(const std::string& what, const std::string& path, F&& f) -> decltype(f()) {
  try {
    return f();
  } catch (const UsageError& e) {
    std::string m = e.what();
    if (m.rfind(path + ": ", 0) == 0) m = m.substr(path.size() + 2);
    throw UsageError(what + m);
  }
}

}  // namespace

YAML::Node ImageReader::load() const {
  // A regular file, no alias, bounded (yaml_reader.hpp); keys written twice are refused by
  // unique_keys, which names the key's path.
  YamlLoadOptions o;
  o.refuse_duplicate_keys = false;
  return load_yaml_file(path_.string(), o);
}

std::string ImageReader::where(const YAML::Node& n) const {
  if (n.IsDefined() && n.Mark().line >= 0)
    return path_.string() + ":" + std::to_string(n.Mark().line + 1);
  return path_.string();
}

void ImageReader::fail(const YAML::Node& at, const std::string& key, const std::string& msg) const {
  throw UsageError(where(at) + ": " + key + ": " + msg);
}

void ImageReader::unique_keys(const YAML::Node& m, const std::string& key) const {
  std::set<std::string> seen;
  for (const auto& kv : m)
    if (!seen.insert(kv.first.Scalar()).second)
      fail(kv.first, key.empty() ? kv.first.Scalar() : key + "." + kv.first.Scalar(),
           "written twice");
}

uint64_t ImageReader::number(const YAML::Node& n, const std::string& key, uint64_t max) const {
  if (!n.IsScalar()) fail(n, key, "expected a non-negative integer");
  const std::string t = n.Scalar();
  uint64_t v = 0;
  size_t used = 0;
  try {
    if (t.empty() || t[0] == '-' || t[0] == '+') throw std::invalid_argument(t);
    const bool hex = t.size() > 2 && t[0] == '0' && (t[1] == 'x' || t[1] == 'X');
    v = std::stoull(t, &used, hex ? 16 : 10);
  } catch (const std::exception&) {
    fail(n, key, "expected a non-negative integer (decimal or 0x hex), got '" + t + "'");
  }
  if (used != t.size())
    fail(n, key, "expected a non-negative integer (decimal or 0x hex), got '" + t + "'");
  if (v > max) fail(n, key, t + " is larger than " + std::to_string(max));
  return v;
}

uint16_t ImageReader::bf16(const YAML::Node& n, const std::string& key) const {
  if (!n.IsScalar()) fail(n, key, "expected a BF16 value");
  const std::string t = n.Scalar();
  if (t.size() > 2 && t[0] == '0' && (t[1] == 'x' || t[1] == 'X'))
    return static_cast<uint16_t>(number(n, key, 0xFFFF));
  double d = 0;
  try {
    d = n.as<double>();
  } catch (const YAML::Exception&) {
    fail(n, key, "expected a number or a 0x bit pattern, got '" + t + "'");
  }
  if (std::isnan(d)) fail(n, key, "write NaN as its bit pattern (e.g. \"0x7FC0\")");
  const uint16_t b = num::f32_to_bf16(static_cast<float>(d));
  if (static_cast<double>(num::bf16_to_f32(b)) != d || std::signbit(d) != ((b >> 15) != 0))
    fail(n, key, t + " is not exactly representable in BF16");
  return b;
}

std::vector<ImageRegion> ImageReader::regions(const YAML::Node& list, Space space,
                                              const std::string& key,
                                              const MachinePreset& preset) const {
  if (!list.IsSequence()) fail(list, key, "expected a list of regions");
  const uint64_t ub = unit_bytes(space, preset);
  std::vector<ImageRegion> out;
  for (size_t i = 0; i < list.size(); ++i) {
    const YAML::Node e = list[i];
    const std::string k = key + "[" + std::to_string(i) + "]";
    if (!e.IsMap()) fail(e, k, "expected a map");
    unique_keys(e, k);
    const bool rows = space == Space::Vram || space == Space::Mram;
    const char* at = rows ? "row" : "addr";
    std::set<std::string> allowed = {at};
    const char* data = space == Space::Vram || space == Space::FpSram ? "bf16"
                       : space == Space::IntSram                      ? "u32"
                                                                      : "bytes";
    allowed.insert(data);
    if (rows) allowed.insert({"fill", "rows"});
    for (const auto& kv : e) {
      const std::string name = kv.first.Scalar();
      if (allowed.count(name) == 0) fail(kv.first, k + "." + name, "unknown key here");
    }
    if (!e[at]) fail(e, k, std::string("missing '") + at + "'");
    ImageRegion r;
    r.space = space;
    r.begin = number(e[at], k + "." + at);
    r.where = where(e) + ": " + k;
    // One element of the unit's byte image.
    auto put = [&](std::vector<uint8_t>& b, const YAML::Node& v, const std::string& vk) {
      if (space == Space::Vram || space == Space::FpSram) {
        const uint16_t x = bf16(v, vk);
        b.push_back(static_cast<uint8_t>(x));
        b.push_back(static_cast<uint8_t>(x >> 8));
      } else if (space == Space::IntSram) {
        const uint64_t x = number(v, vk, UINT32_MAX);
        for (int s = 0; s < 32; s += 8) b.push_back(static_cast<uint8_t>(x >> s));
      } else {
        b.push_back(static_cast<uint8_t>(number(v, vk, 0xFF)));
      }
    };
    const uint64_t per_unit = space == Space::Vram   ? static_cast<uint64_t>(preset.vlen())
                              : space == Space::Mram ? ub
                                                     : 1;
    const uint64_t size = space_units(space, preset);
    if (r.begin >= size)
      fail(e[at], k + "." + at,
           std::to_string(r.begin) + " is past the end of " + space_name(space) + " (" +
               std::to_string(size) + " units on preset " + preset.name + ")");
    if (rows && e["fill"]) {
      if (e[data]) fail(e, k, std::string("give either 'fill' or '") + data + "', not both");
      r.count = e["rows"] ? number(e["rows"], k + ".rows", size - r.begin) : 1;
      if (r.count == 0) fail(e["rows"], k + ".rows", "must be at least 1");
      std::vector<uint8_t> one;
      put(one, e["fill"], k + ".fill");
      for (uint64_t u = 0; u < r.count * per_unit; ++u)
        r.bytes.insert(r.bytes.end(), one.begin(), one.end());
    } else {
      if (e["rows"]) fail(e["rows"], k + ".rows", "only with 'fill'");
      const YAML::Node vals = e[data];
      if (!vals || !vals.IsSequence() || vals.size() == 0)
        fail(vals ? vals : e, k, std::string("missing '") + data + "' (a non-empty list)");
      if (vals.size() % per_unit != 0)
        fail(vals, k + "." + data,
             std::to_string(vals.size()) + " values are not whole units of " +
                 std::to_string(per_unit));
      r.count = vals.size() / per_unit;
      if (r.count > size - r.begin)
        fail(e, k,
             "units [" + std::to_string(r.begin) + ", " + std::to_string(r.begin + r.count) +
                 ") run past the end of " + space_name(space) + " (" + std::to_string(size) +
                 " units on preset " + preset.name + ")");
      for (size_t j = 0; j < vals.size(); ++j)
        put(r.bytes, vals[j], k + "." + data + "[" + std::to_string(j) + "]");
    }
    out.push_back(std::move(r));
  }
  return out;
}

std::vector<ImageRegion> ImageReader::spaces(const YAML::Node& map, const std::string& key,
                                             const MachinePreset& preset) const {
  if (!map.IsMap()) fail(map, key, "expected a map of memory spaces");
  unique_keys(map, key);
  std::vector<ImageRegion> out;
  for (const auto& kv : map) {
    const std::string name = kv.first.Scalar();
    std::optional<Space> sp;
    for (Space s : kAllSpaces)
      if (name == space_name(s)) sp = s;
    if (!sp)
      fail(kv.first, key + "." + name, "unknown memory space (vram, mram, fp_sram, int_sram, hbm)");
    auto r = regions(kv.second, *sp, key + "." + name, preset);
    // Two regions of one space that share a unit would leave it to list order which value
    // the file means: refused, naming both.
    const auto key_of = [](const ImageRegion& x) {
      return x.where.substr(x.where.rfind(": ") + 2);
    };
    std::vector<const ImageRegion*> sorted;
    for (const ImageRegion& x : r) sorted.push_back(&x);
    std::sort(sorted.begin(), sorted.end(),
              [](const ImageRegion* a, const ImageRegion* b) { return a->begin < b->begin; });
    for (size_t i = 1; i < sorted.size(); ++i)
      if (sorted[i - 1]->begin + sorted[i - 1]->count > sorted[i]->begin)
        fail(kv.second, key + "." + name,
             "regions overlap: " + key_of(*sorted[i - 1]) + " and " + key_of(*sorted[i]) +
                 " share unit " + std::to_string(sorted[i]->begin));
    out.insert(out.end(), r.begin(), r.end());
  }
  return out;
}

std::vector<MemorySegment>& segments(MemoryImage& image, Space s) {
  switch (s) {
    case Space::Vram:
      return image.vram;
    case Space::Mram:
      return image.mram;
    case Space::FpSram:
      return image.fp_sram;
    case Space::IntSram:
      return image.int_sram;
    case Space::Hbm:
      break;
  }
  return image.hbm;
}

const std::vector<MemorySegment>& segments(const MemoryImage& image, Space s) {
  return segments(const_cast<MemoryImage&>(image), s);
}

void add_regions(MemoryImage& image, std::vector<ImageRegion> regions,
                 const MachinePreset& preset) {
  for (ImageRegion& r : regions)
    segments(image, r.space)
        .push_back(MemorySegment{r.begin * unit_bytes(r.space, preset), std::move(r.bytes)});
}

void read_image_file(const fs::path& path, const MachinePreset& preset, MemoryImage& image) {
  const ImageReader rd(path);
  const YAML::Node root = rd.load();
  if (!root.IsMap()) rd.fail(root, "(top)", "expected a map with init: (docs/images.md)");
  rd.unique_keys(root, "");
  for (const auto& kv : root) {
    const std::string k = kv.first.Scalar();
    if (k != "machine" && k != "init" && k != "budget" && k != "expect")
      rd.fail(kv.first, k,
              "unknown key (machine, init; a case file's budget and expect are not used)");
  }
  if (root["machine"] && root["machine"].Scalar() != preset.name)
    rd.fail(root["machine"], "machine",
            "the image is written for preset '" + root["machine"].Scalar() + "', the run uses '" +
                preset.name + "' (--machine)");
  if (!root["init"]) rd.fail(root, "init", "missing (the map of memory spaces)");
  add_regions(image, rd.spaces(root["init"], "init", preset), preset);
}

namespace {

std::optional<uint64_t> parse_u64(const std::string& t) {
  if (t.empty() || t[0] == '-' || t[0] == '+') return std::nullopt;
  try {
    size_t used = 0;
    const bool hex = t.size() > 2 && t[0] == '0' && (t[1] == 'x' || t[1] == 'X');
    const uint64_t v = std::stoull(t, &used, hex ? 16 : 10);
    if (used != t.size()) return std::nullopt;
    return v;
  } catch (const std::exception&) {
    return std::nullopt;
  }
}

}  // namespace

BinaryImageArg parse_binary_image_arg(const std::string& flag, const std::string& arg) {
  const size_t eq = arg.find('=');
  if (eq == std::string::npos)
    throw UsageError(flag + " " + arg +
                     ": expected SPACE=FILE[@OFFSET] (SPACE vram|mram|fp_sram|int_sram|hbm)");
  BinaryImageArg a;
  const std::string sp = arg.substr(0, eq);
  bool known = false;
  for (Space s : kAllSpaces)
    if (sp == space_name(s)) {
      a.space = s;
      known = true;
    }
  if (!known)
    throw UsageError(flag + " " + arg + ": unknown memory space '" + sp +
                     "' (vram, mram, fp_sram, int_sram, hbm)");
  std::string file = arg.substr(eq + 1);
  const size_t at = file.rfind('@');
  if (at != std::string::npos) {
    const auto off = parse_u64(file.substr(at + 1));
    if (!off)
      throw UsageError(flag + " " + arg + ": offset '" + file.substr(at + 1) +
                       "' is not a non-negative integer (decimal or 0x hex)");
    a.offset = *off;
    file = file.substr(0, at);
  }
  if (file.empty()) throw UsageError(flag + " " + arg + ": no file named");
  a.file = file;
  return a;
}

void read_binary_image(const std::string& flag, const BinaryImageArg& arg,
                       const MachinePreset& preset, MemoryImage& image) {
  const std::string what =
      flag + " " + std::string(space_name(arg.space)) + "=" + arg.file.string() + ": ";
  const uint64_t cap = space_geometry(arg.space, preset).bytes();
  // A regular file that fits the space from the offset on, checked before anything is read.
  const std::string file = arg.file.string();
  const uint64_t size = with_prefix(what, file, [&] {
    const uint64_t n = check_input_file(file, UINT64_MAX);
    if (arg.offset > cap || n > cap - arg.offset)
      throw UsageError(std::to_string(n) + " bytes at offset " + std::to_string(arg.offset) +
                       " do not fit " + space_name(arg.space) + " (" + std::to_string(cap) +
                       " bytes on preset " + preset.name + ")");
    return n;
  });
  MemorySegment seg{arg.offset,
                    with_prefix(what, file, [&] { return read_input_bytes(file, size); })};
  segments(image, arg.space).push_back(std::move(seg));
}

void add_random_image(uint64_t seed, const MachinePreset& preset, MemoryImage& image) {
  std::mt19937_64 rng(seed);
  // BF16: sign uniform, biased exponent uniform in [123, 130] (magnitudes in [2^-4, 2^4)),
  // mantissa uniform: finite normal numbers that sums and products keep in range.
  const auto bf16 = [&] {
    const uint64_t r = rng();
    const uint16_t sign = static_cast<uint16_t>((r & 1) << 15);
    const uint16_t exp = static_cast<uint16_t>(123 + ((r >> 1) & 7));
    const uint16_t man = static_cast<uint16_t>((r >> 4) & 0x7F);
    return static_cast<uint16_t>(sign | exp << 7 | man);
  };
  for (Space s : kAllSpaces) {
    const SpaceGeometry g = space_geometry(s, preset);
    MemorySegment seg{0, std::vector<uint8_t>(static_cast<size_t>(g.bytes()))};
    std::vector<uint8_t>& b = seg.bytes;
    switch (s) {
      case Space::Vram:
      case Space::FpSram:
        for (size_t i = 0; i + 1 < b.size(); i += 2) {
          const uint16_t v = bf16();
          b[i] = static_cast<uint8_t>(v);
          b[i + 1] = static_cast<uint8_t>(v >> 8);
        }
        break;
      case Space::Mram: {
        // Per tile row: MLEN E4M3 codes uniform over the non-NaN codes, then E8M0 scales
        // uniform in [123, 131] (2^-4 .. 2^4).
        const uint64_t mlen = static_cast<uint64_t>(preset.mlen());
        for (uint64_t u = 0; u < g.units; ++u) {
          uint8_t* row = b.data() + u * g.unit_bytes;
          for (uint64_t c = 0; c < mlen; ++c) {
            uint8_t code = 0;
            do code = static_cast<uint8_t>(rng());
            while ((code & 0x7F) == 0x7F);
            row[c] = code;
          }
          for (uint64_t c = mlen; c < g.unit_bytes; ++c)
            row[c] = static_cast<uint8_t>(123 + rng() % 9);
        }
        break;
      }
      case Space::IntSram:
        // u32 uniform in [0, 255]: values a program uses as an index or a count stay small.
        for (size_t i = 0; i + 3 < b.size(); i += 4) b[i] = static_cast<uint8_t>(rng());
        break;
      case Space::Hbm:
        // Bytes uniform in [0, 255], 8 per draw.
        for (size_t i = 0; i < b.size(); i += 8) {
          const uint64_t r = rng();
          for (size_t j = 0; j < 8 && i + j < b.size(); ++j)
            b[i + j] = static_cast<uint8_t>(r >> (8 * j));
        }
        break;
    }
    segments(image, s).push_back(std::move(seg));
  }
}

}  // namespace moesim::isa
