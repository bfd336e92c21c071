// Checkpoint state, identity and file format (checkpoint.hpp, docs/checkpoints.md).
#include "moesim/isa/checkpoint.hpp"

#include <algorithm>
#include <cstring>
#include <map>
#include <sstream>

#include "moesim/isa/file_output.hpp"
#include "moesim/isa/format.hpp"
#include "moesim/isa/geometry.hpp"
#include "moesim/isa/image_file.hpp"
#include "moesim/isa/input_file.hpp"
#include "moesim/isa/usage_error.hpp"

namespace moesim::isa {
namespace {

constexpr char kMagic[8] = {'M', 'O', 'E', 'S', 'I', 'M', 'C', 'K'};
constexpr uint32_t kPageBytes = 4096;  ///< memory sections store changed pages of this size

/// The memory section tag of each space, in isa::Space order.
constexpr std::array<const char*, kAllSpaces.size()> kMemTags{"VRAM", "MRAM", "FPSR", "INTS",
                                                              "HBM_"};

uint64_t fnv_bytes(const void* p, size_t n, uint64_t seed) {
  return fnv1a64(static_cast<const uint8_t*>(p), n, seed);
}

class Writer {
 public:
  void u8(uint8_t v) { out_.push_back(static_cast<char>(v)); }
  void u16(uint16_t v) { le(v, 2); }
  void u32(uint32_t v) { le(v, 4); }
  void u64(uint64_t v) { le(v, 8); }
  void raw(const void* p, size_t n) { out_.append(static_cast<const char*>(p), n); }
  std::string& str() { return out_; }

 private:
  void le(uint64_t v, int n) {
    for (int i = 0; i < n; ++i) out_.push_back(static_cast<char>((v >> (8 * i)) & 0xff));
  }
  std::string out_;
};

class Reader {
 public:
  Reader(const std::string& b, size_t begin, size_t end, std::string what)
      : b_(b), pos_(begin), end_(end), what_(std::move(what)) {}
  uint8_t u8() { return static_cast<uint8_t>(le(1)); }
  uint16_t u16() { return static_cast<uint16_t>(le(2)); }
  uint32_t u32() { return static_cast<uint32_t>(le(4)); }
  uint64_t u64() { return le(8); }
  void raw(void* p, size_t n) {
    need(n);
    std::memcpy(p, b_.data() + pos_, n);
    pos_ += n;
  }
  size_t pos() const { return pos_; }
  void skip(uint64_t n) {
    need(n);
    pos_ += n;
  }
  size_t left() const { return end_ - pos_; }
  /// A count read from the file: `n` items of `size` bytes must fit in what is left (checked
  /// without multiplying, which a corrupt count could overflow).
  void need_items(uint64_t n, uint64_t size) const {
    if (n > left() / size)
      throw CheckpointError(what_ + ": a count of " + std::to_string(n) + " items of " +
                            std::to_string(size) + " bytes, more than the " +
                            std::to_string(left()) + " bytes left (truncated or corrupt)");
  }
  void need(uint64_t n) const {
    if (n > end_ - pos_)
      throw CheckpointError(what_ + " ends after " + std::to_string(end_ - pos_) + " bytes where " +
                            std::to_string(n) + " more are needed (truncated)");
  }

 private:
  uint64_t le(int n) {
    need(static_cast<uint64_t>(n));
    uint64_t v = 0;
    for (int i = 0; i < n; ++i)
      v |= static_cast<uint64_t>(static_cast<uint8_t>(b_[pos_ + i])) << (8 * i);
    pos_ += static_cast<size_t>(n);
    return v;
  }
  const std::string& b_;
  size_t pos_, end_;
  std::string what_;
};

void section(Writer& w, const char* tag, const std::string& body) {
  w.raw(tag, 4);
  w.u64(body.size());
  w.raw(body.data(), body.size());
}

std::string words_body(const std::vector<uint32_t>& v) {
  Writer w;
  w.u64(v.size());
  for (uint32_t x : v) w.u32(x);
  return w.str();
}

/// `want`: the number of words the preset's state has (checked before the vector is made), or
/// SIZE_MAX when no preset is known.
std::vector<uint32_t> read_words(Reader& r, const std::string& where, const char* what, size_t want,
                                 const std::string& preset) {
  const uint64_t n = r.u64();
  if (want != SIZE_MAX && n != want)
    throw CheckpointError(where + ": " + what + " has " + std::to_string(n) +
                          " words, the state of machine preset '" + preset + "' has " +
                          std::to_string(want));
  r.need_items(n, 4);
  std::vector<uint32_t> v(n);
  for (auto& x : v) x = r.u32();
  return v;
}

/// The initial contents of one space, page by page in increasing order: zero, then the image's
/// segments applied in their order (as the engines load them; a later segment wins where two
/// overlap). Only the segments that overlap the current page are visited.
class InitialPages {
 public:
  explicit InitialPages(const std::vector<MemorySegment>& segs) : segs_(segs) {
    for (size_t i = 0; i < segs.size(); ++i)
      if (!segs[i].bytes.empty()) by_base_.push_back(i);
    std::stable_sort(by_base_.begin(), by_base_.end(),
                     [&](size_t a, size_t b) { return segs[a].base < segs[b].base; });
  }
  /// Writes bytes [begin, begin + n) of the initial space to `out` (pages in increasing order).
  void page(uint64_t begin, size_t n, uint8_t* out) {
    const uint64_t end = begin + n;
    for (; next_ < by_base_.size() && segs_[by_base_[next_]].base < end; ++next_)
      active_.push_back(by_base_[next_]);
    active_.erase(std::remove_if(active_.begin(), active_.end(),
                                 [&](size_t i) { return seg_end(i) <= begin; }),
                  active_.end());
    std::memset(out, 0, n);
    std::sort(active_.begin(), active_.end());  // the image's order: a later segment wins
    for (size_t i : active_) {
      const MemorySegment& g = segs_[i];
      const uint64_t lo = std::max(begin, g.base), hi = std::min(end, seg_end(i));
      if (lo < hi) std::memcpy(out + (lo - begin), g.bytes.data() + (lo - g.base), hi - lo);
    }
  }

 private:
  uint64_t seg_end(size_t i) const { return segs_[i].base + segs_[i].bytes.size(); }
  const std::vector<MemorySegment>& segs_;
  std::vector<size_t> by_base_, active_;
  size_t next_ = 0;
};

/// Indices of the pages of `m` that differ from the initial image's.
std::vector<uint64_t> changed_pages(const std::vector<uint8_t>& m,
                                    const std::vector<MemorySegment>& initial) {
  std::vector<uint64_t> pages;
  InitialPages base(initial);
  std::array<uint8_t, kPageBytes> want{};
  for (uint64_t p = 0; p * kPageBytes < m.size(); ++p) {
    const size_t n = std::min<size_t>(kPageBytes, m.size() - p * kPageBytes);
    base.page(p * kPageBytes, n, want.data());
    if (std::memcmp(m.data() + p * kPageBytes, want.data(), n) != 0) pages.push_back(p);
  }
  return pages;
}

std::string mem_body(const std::vector<uint8_t>& m, const std::vector<MemorySegment>& initial) {
  Writer w;
  w.u64(m.size());
  w.u32(kPageBytes);
  const std::vector<uint64_t> pages = changed_pages(m, initial);
  w.u64(pages.size());
  for (uint64_t p : pages) {
    w.u64(p);
    w.raw(m.data() + p * kPageBytes, std::min<size_t>(kPageBytes, m.size() - p * kPageBytes));
  }
  return w.str();
}

/// `want`: the space's size on the machine preset, or UINT64_MAX when no preset is known (then
/// kMaxCheckpointSpaceBytes bounds it). Checked before the space is allocated.
std::vector<uint8_t> read_mem(Reader& r, const std::string& where,
                              const std::vector<MemorySegment>& initial, uint64_t want,
                              const std::string& preset) {
  const uint64_t size = r.u64();
  const uint32_t page = r.u32();
  if (page == 0) throw CheckpointError(where + ": page size 0");
  if (want != UINT64_MAX && size != want)
    throw CheckpointError(where + ": a space of " + std::to_string(size) +
                          " bytes, machine preset '" + preset + "' has " + std::to_string(want));
  if (size > kMaxCheckpointSpaceBytes)
    throw CheckpointError(where + ": a space of " + std::to_string(size) +
                          " bytes, more than a checkpoint holds (" +
                          std::to_string(kMaxCheckpointSpaceBytes) + ")");
  const uint64_t n = r.u64();
  const uint64_t pages_total = (size + page - 1) / page;
  if (n > pages_total)
    throw CheckpointError(where + ": " + std::to_string(n) + " pages in a space of " +
                          std::to_string(pages_total));
  r.need_items(n, 8);  // at least the indices: no huge allocation from a corrupt count
  std::vector<uint8_t> m(size, 0);
  for (const MemorySegment& g : initial) {  // the initial image, then the pages that changed
    if (g.base > size || g.bytes.size() > size - g.base)
      throw CheckpointError(where + ": the initial image has bytes " + std::to_string(g.base) +
                            ".." + std::to_string(g.base + g.bytes.size()) +
                            " beyond the space's " + std::to_string(size));
    std::copy(g.bytes.begin(), g.bytes.end(), m.begin() + static_cast<std::ptrdiff_t>(g.base));
  }
  uint64_t prev = 0;
  for (uint64_t i = 0; i < n; ++i) {
    const uint64_t p = r.u64();
    if (p >= pages_total || (i > 0 && p <= prev))
      throw CheckpointError(where + ": page index " + std::to_string(p) + " out of order or range");
    prev = p;
    r.raw(m.data() + p * page, std::min<uint64_t>(page, size - p * page));
  }
  return m;
}

std::string ctrl_name(size_t i) {
  for (const CtrlRegName& c : kCtrlRegNames)
    if (static_cast<size_t>(c.reg) == i) return c.name;
  return "ctrl" + std::to_string(i);
}

}  // namespace

StateShape state_shape(const MachinePreset& preset) {
  StateShape s;
  const auto mlen = static_cast<size_t>(preset.get("MLEN"));
  const auto blen = static_cast<size_t>(preset.get("BLEN"));
  const auto hlen = static_cast<size_t>(preset.get("HLEN"));
  s.acc = blen * blen;
  s.vacc = blen;
  s.hv = mlen / hlen * mlen;
  s.hm = mlen / hlen * mlen * mlen;
  for (Space sp : kAllSpaces)
    s.mem_bytes[static_cast<size_t>(sp)] = space_geometry(sp, preset).bytes();
  s.loop_depth = static_cast<uint64_t>(preset.get("LOOP_DEPTH"));
  return s;
}

void check_state_shape(const ArchState& s, const MachinePreset& preset) {
  const StateShape want = state_shape(preset);
  auto check = [&](const char* what, uint64_t have, uint64_t need) {
    if (have != need)
      throw std::invalid_argument(std::string("checkpoint state: ") + what + " has " +
                                  std::to_string(have) + " entries, machine preset '" +
                                  preset.name + "' has " + std::to_string(need));
  };
  check("acc", s.acc.size(), want.acc);
  check("vacc", s.vacc.size(), want.vacc);
  check("hv", s.hv.size(), want.hv);
  check("hm", s.hm.size(), want.hm);
  for (Space sp : kAllSpaces)
    check(space_name(sp), s.mem[static_cast<size_t>(sp)].size(),
          want.mem_bytes[static_cast<size_t>(sp)]);
  if (s.loops.size() > want.loop_depth)
    throw std::invalid_argument("checkpoint state: " + std::to_string(s.loops.size()) +
                                " active loops, LOOP_DEPTH is " + std::to_string(want.loop_depth));
}

void check_state_position(const ArchState& s, size_t program_words) {
  auto bad = [](const std::string& why) {
    throw std::invalid_argument("checkpoint state: " + why);
  };
  if (s.pc > program_words)
    bad("pc " + std::to_string(s.pc) + " is past the program's " + std::to_string(program_words) +
        " instructions");
  if (s.instruction_budget == 0) bad("instruction budget 0");
  if (s.retired > s.instruction_budget)
    bad(std::to_string(s.retired) + " instructions retired, more than the instruction budget " +
        std::to_string(s.instruction_budget));
  if (s.cycle < s.retired)
    bad("cycle " + std::to_string(s.cycle) + " is less than the " + std::to_string(s.retired) +
        " instructions retired (one cycle at least each)");
  for (const LoopEntry& l : s.loops)
    if (l.body >= program_words)
      bad("a loop body starts at pc " + std::to_string(l.body) + ", past the program's " +
          std::to_string(program_words) + " instructions");
}

std::array<StoredPages, kAllSpaces.size()> stored_pages(const ArchState& s,
                                                        const MemoryImage& initial) {
  std::array<StoredPages, kAllSpaces.size()> out{};
  for (Space sp : kAllSpaces) {
    const std::vector<uint8_t>& m = s.mem[static_cast<size_t>(sp)];
    out[static_cast<size_t>(sp)] = {changed_pages(m, segments(initial, sp)).size(),
                                    (m.size() + kPageBytes - 1) / kPageBytes};
  }
  return out;
}

std::vector<std::string> state_differences(const ArchState& a, const ArchState& b,
                                           size_t max_lines) {
  std::vector<std::string> out;
  auto add = [&](const std::string& s) {
    if (out.size() < max_lines) out.push_back(s);
  };
  auto num = [&](const std::string& name, uint64_t x, uint64_t y) {
    if (x != y) add(name + ": " + hex(x) + " vs " + hex(y));
  };
  num("pc", a.pc, b.pc);
  num("retired", a.retired, b.retired);
  num("cycle", a.cycle, b.cycle);
  num("instruction_budget", a.instruction_budget, b.instruction_budget);
  for (size_t i = 0; i < a.regs.gp.size(); ++i)
    num("gp" + std::to_string(i), a.regs.gp[i], b.regs.gp[i]);
  for (size_t i = 0; i < a.regs.fp.size(); ++i)
    num("f" + std::to_string(i), a.regs.fp[i], b.regs.fp[i]);
  for (size_t i = 0; i < a.regs.addr.size(); ++i)
    num("a" + std::to_string(i), a.regs.addr[i], b.regs.addr[i]);
  const std::array<uint32_t, 4> ca{a.regs.scale, a.regs.stride, a.regs.v_mask, a.regs.topk_policy};
  const std::array<uint32_t, 4> cb{b.regs.scale, b.regs.stride, b.regs.v_mask, b.regs.topk_policy};
  static_assert(kNumCtrlRegs == 4, "isa.yaml control_registers: update ArchRegs and this");
  for (size_t i = 0; i < ca.size(); ++i) num(ctrl_name(i), ca[i], cb[i]);
  num("TOPK_VALID", a.regs.topk_valid, b.regs.topk_valid);
  if (a.loops != b.loops) {
    auto show = [](const std::vector<LoopEntry>& l) {
      std::string s = "[";
      for (const LoopEntry& e : l)
        s += (s.size() > 1 ? " " : "") + std::to_string(e.body) + (e.broken ? "b" : "");
      return s + "]";
    };
    add("loop stack: " + show(a.loops) + " vs " + show(b.loops));
  }
  auto acc = [&](const char* name, const std::vector<uint32_t>& x, const std::vector<uint32_t>& y) {
    if (x.size() != y.size()) {
      add(std::string(name) + ": " + std::to_string(x.size()) + " vs " + std::to_string(y.size()) +
          " words");
      return;
    }
    size_t n = 0, first = 0;
    for (size_t i = 0; i < x.size(); ++i)
      if (x[i] != y[i] && n++ == 0) first = i;
    if (n != 0)
      add(std::string(name) + ": " + std::to_string(n) + " words differ, first [" +
          std::to_string(first) + "] " + hex(x[first]) + " vs " + hex(y[first]));
  };
  acc("acc", a.acc, b.acc);
  acc("vacc", a.vacc, b.vacc);
  acc("hv", a.hv, b.hv);
  acc("hm", a.hm, b.hm);
  for (Space sp : kAllSpaces) {
    const auto& x = a.mem[static_cast<size_t>(sp)];
    const auto& y = b.mem[static_cast<size_t>(sp)];
    if (x.size() != y.size()) {
      add(std::string(space_name(sp)) + ": " + std::to_string(x.size()) + " vs " +
          std::to_string(y.size()) + " bytes");
      continue;
    }
    if (x == y) continue;
    size_t n = 0, first = 0;
    for (size_t i = 0; i < x.size(); ++i)
      if (x[i] != y[i] && n++ == 0) first = i;
    add(std::string(space_name(sp)) + ": " + std::to_string(n) + " bytes differ, first byte " +
        std::to_string(first) + " " + hex(x[first]) + " vs " + hex(y[first]));
  }
  return out;
}

uint64_t program_identity(const Program& p) {
  uint64_t h = fnv1a64(nullptr, 0);
  const uint64_t n = p.words.size();
  h = fnv_bytes(&n, sizeof n, h);
  for (size_t i = 0; i < p.words.size(); ++i) {
    const uint32_t w = p.words[i];
    const uint8_t s = i < p.stages.size() ? p.stages[i] : 0;
    h = fnv_bytes(&w, sizeof w, h);
    h = fnv_bytes(&s, sizeof s, h);
  }
  return h;
}

uint64_t image_identity(const MemoryImage& image) {
  uint64_t h = fnv1a64(nullptr, 0);
  for (const auto* segs : {&image.vram, &image.mram, &image.fp_sram, &image.int_sram, &image.hbm}) {
    const uint64_t n = segs->size();
    h = fnv_bytes(&n, sizeof n, h);
    for (const MemorySegment& s : *segs) {
      const uint64_t len = s.bytes.size();
      h = fnv_bytes(&s.base, sizeof s.base, h);
      h = fnv_bytes(&len, sizeof len, h);
      h = fnv_bytes(s.bytes.data(), s.bytes.size(), h);
    }
  }
  return h;
}

namespace {

uint64_t file_identity(const std::filesystem::path& p) {
  const std::string b = read_input_file(p.string(), kMaxYamlInputBytes);  // a spec file
  return fnv_bytes(b.data(), b.size(), fnv1a64(nullptr, 0));
}

}  // namespace

CheckpointId checkpoint_id(const Spec& spec, const MachinePreset& preset, const Program& program,
                           const MemoryImage& image) {
  CheckpointId id;
  id.preset = preset.name;
  id.isa_yaml = file_identity(spec.dir / "isa.yaml");
  id.machine_yaml = file_identity(spec.dir / "machine.yaml");
  id.program = program_identity(program);
  id.image = image_identity(image);
  return id;
}

std::string encode_checkpoint(const Checkpoint& c, const MemoryImage& initial) {
  const ArchState& s = c.state;
  Writer id;
  id.u64(c.id.isa_yaml);
  id.u64(c.id.machine_yaml);
  id.u64(c.id.program);
  id.u64(c.id.image);
  id.u16(static_cast<uint16_t>(c.id.preset.size()));
  id.raw(c.id.preset.data(), c.id.preset.size());

  Writer payload;
  {
    Writer w;
    w.u32(s.pc);
    w.u64(s.retired);
    w.u64(s.cycle);
    w.u64(s.instruction_budget);
    section(payload, "CORE", w.str());
  }
  {
    Writer w;
    w.u32(static_cast<uint32_t>(s.regs.gp.size()));
    for (uint32_t v : s.regs.gp) w.u32(v);
    w.u32(static_cast<uint32_t>(s.regs.fp.size()));
    for (uint16_t v : s.regs.fp) w.u16(v);
    w.u32(static_cast<uint32_t>(s.regs.addr.size()));
    for (uint64_t v : s.regs.addr) w.u64(v);
    w.u32(s.regs.scale);
    w.u32(s.regs.stride);
    w.u32(s.regs.v_mask);
    w.u32(s.regs.topk_policy);
    w.u8(s.regs.topk_valid ? 1 : 0);
    section(payload, "REGS", w.str());
  }
  {
    Writer w;
    w.u32(static_cast<uint32_t>(s.loops.size()));
    for (const LoopEntry& l : s.loops) {
      w.u32(l.body);
      w.u8(l.broken ? 1 : 0);
    }
    section(payload, "LOOP", w.str());
  }
  {
    std::string body = words_body(s.acc) + words_body(s.vacc) + words_body(s.hv) + words_body(s.hm);
    section(payload, "MACC", body);
  }
  for (Space sp : kAllSpaces)
    section(payload, kMemTags[static_cast<size_t>(sp)],
            mem_body(s.mem[static_cast<size_t>(sp)], segments(initial, sp)));

  Writer out;
  out.raw(kMagic, sizeof kMagic);
  out.u32(kCheckpointVersion);
  out.u32(static_cast<uint32_t>(id.str().size()));
  out.raw(id.str().data(), id.str().size());
  out.u64(payload.str().size());
  uint64_t sum = fnv_bytes(id.str().data(), id.str().size(), fnv1a64(nullptr, 0));
  sum = fnv_bytes(payload.str().data(), payload.str().size(), sum);
  out.u64(sum);
  out.raw(payload.str().data(), payload.str().size());
  return std::move(out.str());
}

Checkpoint decode_checkpoint(const std::string& b, const std::string& name,
                             const MemoryImage& initial, const CheckpointId* expected,
                             const MachinePreset* preset) {
  const StateShape shape = preset != nullptr ? state_shape(*preset) : StateShape{};
  const std::string preset_name = preset != nullptr ? preset->name : "";
  Reader r(b, 0, b.size(), name);
  char magic[8];
  if (b.size() < sizeof magic || std::memcmp(b.data(), kMagic, sizeof magic) != 0)
    throw CheckpointError(name + ": not a moesim checkpoint (no MOESIMCK magic)");
  r.raw(magic, sizeof magic);
  const uint32_t version = r.u32();
  if (version != kCheckpointVersion)
    throw CheckpointError(name + ": checkpoint format version " + std::to_string(version) +
                          ", this moesim reads version " + std::to_string(kCheckpointVersion));
  const uint32_t id_len = r.u32();
  r.need(id_len);
  const size_t id_begin = r.pos();
  Checkpoint c;
  {
    Reader ir(b, id_begin, id_begin + id_len, name + " (identity block)");
    c.id.isa_yaml = ir.u64();
    c.id.machine_yaml = ir.u64();
    c.id.program = ir.u64();
    c.id.image = ir.u64();
    const uint16_t n = ir.u16();
    c.id.preset.resize(n);
    ir.raw(c.id.preset.data(), n);
  }
  Reader after(b, id_begin + id_len, b.size(), name);
  const uint64_t payload_len = after.u64();
  const uint64_t sum = after.u64();
  if (payload_len != after.left())
    throw CheckpointError(name + ": payload of " + std::to_string(after.left()) +
                          " bytes, the header says " + std::to_string(payload_len) +
                          (payload_len > after.left() ? " (truncated)" : " (trailing bytes)"));
  const size_t pay = after.pos();
  uint64_t got = fnv_bytes(b.data() + id_begin, id_len, fnv1a64(nullptr, 0));
  got = fnv_bytes(b.data() + pay, payload_len, got);
  if (got != sum)
    throw CheckpointError(name + ": checksum " + hex(got) + " differs from the header's " +
                          hex(sum) + " (corrupt file)");
  if (expected != nullptr) {
    if (c.id.preset != expected->preset)
      throw CheckpointError(name + ": made for machine preset '" + c.id.preset +
                            "', this run uses '" + expected->preset + "'");
    auto same = [&](const char* what, uint64_t have, uint64_t want) {
      if (have != want)
        throw CheckpointError(name + ": made with another " + what + " (FNV-1a " + hex(have) +
                              ", this run's " + hex(want) + ")");
    };
    same("isa.yaml", c.id.isa_yaml, expected->isa_yaml);
    same("machine.yaml", c.id.machine_yaml, expected->machine_yaml);
    same("program", c.id.program, expected->program);
    same("initial memory image", c.id.image, expected->image);
  } else if (image_identity(initial) != c.id.image) {
    throw CheckpointError(name + ": made from another initial memory image (FNV-1a " +
                          hex(c.id.image) + ", the image given " + hex(image_identity(initial)) +
                          "); its memories are stored as changes to that image");
  }

  std::map<std::string, std::pair<size_t, size_t>> sections;
  Reader sr(b, pay, b.size(), name);
  while (sr.left() > 0) {
    char tag[4];
    sr.raw(tag, 4);
    const uint64_t len = sr.u64();
    sr.need(len);
    const std::string t(tag, 4);
    if (!sections.emplace(t, std::make_pair(sr.pos(), sr.pos() + len)).second)
      throw CheckpointError(name + ": section " + t + " appears twice");
    sr.skip(len);
  }
  auto open = [&](const std::string& tag) {
    auto it = sections.find(tag);
    if (it == sections.end()) throw CheckpointError(name + ": section " + tag + " missing");
    return Reader(b, it->second.first, it->second.second, name + " section " + tag);
  };
  // A section read to its end: bytes after its fields are refused (a well-formed checksum only
  // says the bytes are the ones written, not that they are a checkpoint).
  auto done = [&](const Reader& x, const std::string& tag) {
    if (x.left() != 0)
      throw CheckpointError(name + " section " + tag + ": " + std::to_string(x.left()) +
                            " trailing bytes after its fields");
  };
  std::vector<std::string> known{"CORE", "REGS", "LOOP", "MACC"};
  for (const char* t : kMemTags) known.emplace_back(t);
  for (const auto& [t, range] : sections)
    if (std::find(known.begin(), known.end(), t) == known.end())
      throw CheckpointError(name + ": unknown section '" + t + "'");

  ArchState& s = c.state;
  {
    Reader x = open("CORE");
    s.pc = x.u32();
    s.retired = x.u64();
    s.cycle = x.u64();
    s.instruction_budget = x.u64();
    done(x, "CORE");
  }
  {
    Reader x = open("REGS");
    auto count = [&](size_t want, const char* what) {
      const uint32_t n = x.u32();
      if (n != want)
        throw CheckpointError(name + ": " + std::to_string(n) + " " + what +
                              " registers, this build has " + std::to_string(want));
    };
    count(s.regs.gp.size(), "gp");
    for (auto& v : s.regs.gp) v = x.u32();
    count(s.regs.fp.size(), "fp");
    for (auto& v : s.regs.fp) v = x.u16();
    count(s.regs.addr.size(), "addr");
    for (auto& v : s.regs.addr) v = x.u64();
    s.regs.scale = x.u32();
    s.regs.stride = x.u32();
    s.regs.v_mask = x.u32();
    s.regs.topk_policy = x.u32();
    s.regs.topk_valid = x.u8() != 0;
    done(x, "REGS");
  }
  {
    Reader x = open("LOOP");
    const uint32_t n = x.u32();
    if (preset != nullptr && n > shape.loop_depth)
      throw CheckpointError(name + " section LOOP: " + std::to_string(n) +
                            " active loops, LOOP_DEPTH of machine preset '" + preset_name +
                            "' is " + std::to_string(shape.loop_depth));
    x.need_items(n, 5);
    for (uint32_t i = 0; i < n; ++i) {
      LoopEntry l;
      l.body = x.u32();
      l.broken = x.u8() != 0;
      s.loops.push_back(l);
    }
    done(x, "LOOP");
  }
  {
    Reader x = open("MACC");
    const std::string where = name + " section MACC";
    auto want = [&](size_t n) { return preset != nullptr ? n : SIZE_MAX; };
    s.acc = read_words(x, where, "acc", want(shape.acc), preset_name);
    s.vacc = read_words(x, where, "vacc", want(shape.vacc), preset_name);
    s.hv = read_words(x, where, "hv", want(shape.hv), preset_name);
    s.hm = read_words(x, where, "hm", want(shape.hm), preset_name);
    done(x, "MACC");
  }
  for (Space sp : kAllSpaces) {
    const char* tag = kMemTags[static_cast<size_t>(sp)];
    Reader x = open(tag);
    s.mem[static_cast<size_t>(sp)] = read_mem(
        x, name + " section " + tag, segments(initial, sp),
        preset != nullptr ? shape.mem_bytes[static_cast<size_t>(sp)] : UINT64_MAX, preset_name);
    done(x, tag);
  }
  return c;
}

void write_checkpoint(const Checkpoint& c, const MemoryImage& initial,
                      const std::filesystem::path& path) {
  write_file(path, encode_checkpoint(c, initial));
}

Checkpoint read_checkpoint(const std::filesystem::path& path, const MemoryImage& initial,
                           const CheckpointId* expected, const MachinePreset* preset,
                           const Program* program) {
  // The largest file a checkpoint of the preset can be: every page of every space stored with
  // its index, the accumulators and the registers (without a preset: every space at
  // kMaxCheckpointSpaceBytes). A regular file only: a device or a FIFO might never end.
  uint64_t max_bytes = uint64_t{1} << 20;
  if (preset != nullptr) {
    const StateShape shape = state_shape(*preset);
    for (uint64_t m : shape.mem_bytes) max_bytes += m + (m / kPageBytes + 1) * 8;
    max_bytes += 4 * (shape.acc + shape.vacc + shape.hv + shape.hm) + 5 * shape.loop_depth;
  } else {
    max_bytes += kAllSpaces.size() * (kMaxCheckpointSpaceBytes + kMaxCheckpointSpaceBytes / 512);
  }
  std::string b;
  try {
    b = read_input_file(path.string(), max_bytes);
  } catch (const UsageError& e) {
    throw CheckpointError(e.what());
  }
  Checkpoint c = decode_checkpoint(b, path.string(), initial, expected, preset);
  if (preset != nullptr || program != nullptr) {
    try {
      if (preset != nullptr) check_state_shape(c.state, *preset);
      if (program != nullptr) check_state_position(c.state, program->words.size());
    } catch (const std::invalid_argument& e) {
      throw CheckpointError(path.string() + ": " + e.what());
    }
  }
  return c;
}

}  // namespace moesim::isa
