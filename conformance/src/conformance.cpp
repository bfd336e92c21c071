// ISA conformance suite: case loading, running and coverage (conformance.hpp).
#include "moesim/conformance/conformance.hpp"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cmath>
#include <regex>
#include <set>
#include <sstream>

#include "moesim/cosim/cosim.hpp"
#include "moesim/isa/assembler.hpp"
#include "moesim/isa/encoding.hpp"
#include "moesim/isa/format.hpp"
#include "moesim/isa/geometry.hpp"
#include "moesim/isa/numerics.hpp"
#include "moesim/isa/usage_error.hpp"

namespace moesim::conformance {
namespace {

namespace fs = std::filesystem;

using isa::hex;

/// Reads one case file; every error names the file and the key path.
class CaseReader {
 public:
  CaseReader(const isa::Spec& spec, fs::path path) : spec_(spec), path_(std::move(path)) {}

  [[noreturn]] void fail(const std::string& key, const std::string& msg) const {
    throw UsageError(path_.string() + ": " + key + ": " + msg);
  }

  /// Rejects a key written twice in map `m` (yaml-cpp keeps one of them silently).
  void unique_keys(const YAML::Node& m, const std::string& key) const {
    std::set<std::string> seen;
    for (const auto& kv : m)
      if (!seen.insert(kv.first.Scalar()).second)
        fail(key.empty() ? kv.first.Scalar() : key + "." + kv.first.Scalar(), "written twice");
  }

  uint64_t number(const YAML::Node& n, const std::string& key, uint64_t max = UINT64_MAX) const {
    if (!n.IsScalar()) fail(key, "expected a non-negative integer");
    const std::string t = n.Scalar();
    uint64_t v = 0;
    size_t used = 0;
    try {
      if (t.empty() || t[0] == '-' || t[0] == '+') throw std::invalid_argument(t);
      const bool hex = t.size() > 2 && t[0] == '0' && (t[1] == 'x' || t[1] == 'X');
      v = std::stoull(t, &used, hex ? 16 : 10);
    } catch (const std::exception&) {
      fail(key, "expected a non-negative integer (decimal or 0x hex), got '" + t + "'");
    }
    if (used != t.size())
      fail(key, "expected a non-negative integer (decimal or 0x hex), got '" + t + "'");
    if (v > max) fail(key, t + " is larger than " + std::to_string(max));
    return v;
  }

  /// A BF16 value: a number BF16 represents exactly, or a "0x...." bit pattern.
  uint16_t bf16(const YAML::Node& n, const std::string& key) const {
    if (!n.IsScalar()) fail(key, "expected a BF16 value");
    const std::string t = n.Scalar();
    if (t.size() > 2 && t[0] == '0' && (t[1] == 'x' || t[1] == 'X'))
      return static_cast<uint16_t>(number(n, key, 0xFFFF));
    double d = 0;
    try {
      d = n.as<double>();
    } catch (const YAML::Exception&) {
      fail(key, "expected a number or a 0x bit pattern, got '" + t + "'");
    }
    if (std::isnan(d)) fail(key, "write NaN as its bit pattern (e.g. \"0x7FC0\")");
    const uint16_t b = num::f32_to_bf16(static_cast<float>(d));
    if (static_cast<double>(num::bf16_to_f32(b)) != d || std::signbit(d) != ((b >> 15) != 0))
      fail(key, t + " is not exactly representable in BF16");
    return b;
  }

  /// A list of region entries of space `space` under `key`.
  std::vector<Region> regions(const YAML::Node& list, isa::Space space, const std::string& key,
                              const isa::MachinePreset& preset) const {
    if (!list.IsSequence()) fail(key, "expected a list of regions");
    const uint64_t ub = isa::unit_bytes(space, preset);
    std::vector<Region> out;
    for (size_t i = 0; i < list.size(); ++i) {
      const YAML::Node e = list[i];
      const std::string k = key + "[" + std::to_string(i) + "]";
      if (!e.IsMap()) fail(k, "expected a map");
      unique_keys(e, k);
      const bool rows = space == isa::Space::Vram || space == isa::Space::Mram;
      const char* at = rows ? "row" : "addr";
      std::set<std::string> allowed = {at};
      const char* data = space == isa::Space::Vram || space == isa::Space::FpSram ? "bf16"
                         : space == isa::Space::IntSram                           ? "u32"
                                                                                  : "bytes";
      allowed.insert(data);
      if (rows) allowed.insert({"fill", "rows"});
      for (const auto& kv : e) {
        const std::string name = kv.first.Scalar();
        if (allowed.count(name) == 0) fail(k + "." + name, "unknown key here");
      }
      if (!e[at]) fail(k, std::string("missing '") + at + "'");
      Region r;
      r.space = space;
      r.begin = number(e[at], k + "." + at);
      r.where = path_.string() + ": " + k;
      // One element of the unit's byte image.
      auto put = [&](std::vector<uint8_t>& b, const YAML::Node& v, const std::string& vk) {
        if (space == isa::Space::Vram || space == isa::Space::FpSram) {
          const uint16_t x = bf16(v, vk);
          b.push_back(static_cast<uint8_t>(x));
          b.push_back(static_cast<uint8_t>(x >> 8));
        } else if (space == isa::Space::IntSram) {
          const uint64_t x = number(v, vk, UINT32_MAX);
          for (int s = 0; s < 32; s += 8) b.push_back(static_cast<uint8_t>(x >> s));
        } else {
          b.push_back(static_cast<uint8_t>(number(v, vk, 0xFF)));
        }
      };
      const uint64_t per_unit = space == isa::Space::Vram   ? static_cast<uint64_t>(preset.vlen())
                                : space == isa::Space::Mram ? ub
                                                            : 1;
      const uint64_t size = isa::space_units(space, preset);
      if (r.begin >= size)
        fail(k + "." + at, std::to_string(r.begin) + " is past the end of " +
                               isa::space_name(space) + " (" + std::to_string(size) +
                               " units on preset " + preset.name + ")");
      if (rows && e["fill"]) {
        if (e[data]) fail(k, std::string("give either 'fill' or '") + data + "', not both");
        r.count = e["rows"] ? number(e["rows"], k + ".rows", size - r.begin) : 1;
        if (r.count == 0) fail(k + ".rows", "must be at least 1");
        std::vector<uint8_t> one;
        put(one, e["fill"], k + ".fill");
        for (uint64_t u = 0; u < r.count * per_unit; ++u)
          r.bytes.insert(r.bytes.end(), one.begin(), one.end());
      } else {
        if (e["rows"]) fail(k + ".rows", "only with 'fill'");
        const YAML::Node vals = e[data];
        if (!vals || !vals.IsSequence() || vals.size() == 0)
          fail(k, std::string("missing '") + data + "' (a non-empty list)");
        if (vals.size() % per_unit != 0)
          fail(k + "." + data, std::to_string(vals.size()) + " values are not whole units of " +
                                   std::to_string(per_unit));
        r.count = vals.size() / per_unit;
        if (r.count > size - r.begin)
          fail(k, "units [" + std::to_string(r.begin) + ", " + std::to_string(r.begin + r.count) +
                      ") run past the end of " + isa::space_name(space) + " (" +
                      std::to_string(size) + " units on preset " + preset.name + ")");
        for (size_t j = 0; j < vals.size(); ++j)
          put(r.bytes, vals[j], k + "." + data + "[" + std::to_string(j) + "]");
      }
      out.push_back(std::move(r));
    }
    return out;
  }

  std::vector<Region> spaces(const YAML::Node& map, const std::string& key,
                             const isa::MachinePreset& preset) const {
    if (!map.IsMap()) fail(key, "expected a map of memory spaces");
    unique_keys(map, key);
    std::vector<Region> out;
    for (const auto& kv : map) {
      const std::string name = kv.first.Scalar();
      std::optional<isa::Space> sp;
      for (isa::Space s : isa::kAllSpaces)
        if (name == isa::space_name(s)) sp = s;
      if (!sp) fail(key + "." + name, "unknown memory space (vram, mram, fp_sram, int_sram, hbm)");
      auto r = regions(kv.second, *sp, key + "." + name, preset);
      // Two regions of one space that share a unit would leave it to list order which value
      // the case means: refused, naming both.
      const auto key_of = [](const Region& x) { return x.where.substr(x.where.rfind(": ") + 2); };
      std::vector<const Region*> sorted;
      for (const Region& x : r) sorted.push_back(&x);
      std::sort(sorted.begin(), sorted.end(),
                [](const Region* a, const Region* b) { return a->begin < b->begin; });
      for (size_t i = 1; i < sorted.size(); ++i)
        if (sorted[i - 1]->begin + sorted[i - 1]->count > sorted[i]->begin)
          fail(key + "." + name, "regions overlap: " + key_of(*sorted[i - 1]) + " and " +
                                     key_of(*sorted[i]) + " share unit " +
                                     std::to_string(sorted[i]->begin));
      out.insert(out.end(), r.begin(), r.end());
    }
    return out;
  }

  /// Register name -> value; f registers take BF16 values.
  std::map<std::string, uint64_t> regs(const YAML::Node& map, const std::string& key) const {
    if (!map.IsMap()) fail(key, "expected a map register: value");
    unique_keys(map, key);
    std::set<std::string> known;
    for (uint8_t i = 1; i < 16; ++i) known.insert(cosim::reg_name(isa::RegFile::Gp, i));
    for (uint8_t i = 0; i < 8; ++i) known.insert(cosim::reg_name(isa::RegFile::Addr, i));
    for (uint8_t i = 0; i < 4; ++i) known.insert(cosim::reg_name(isa::RegFile::Ctrl, i));
    std::map<std::string, uint64_t> out;
    for (const auto& kv : map) {
      const std::string name = kv.first.Scalar();
      const std::string k = key + "." + name;
      if (name.size() == 2 && name[0] == 'f' && name[1] >= '1' && name[1] <= '7') {
        out[name] = bf16(kv.second, k);
      } else if (known.count(name) != 0) {
        out[name] = number(kv.second, k, name[0] == 'a' ? UINT64_MAX : UINT32_MAX);
      } else {
        fail(k,
             "unknown register (gp1..gp15, f1..f7, a0..a7, SCALE, STRIDE, V_MASK, "
             "TOPK_POLICY; gp0 and f0 are constant)");
      }
    }
    return out;
  }

  void read(Case& c) const {
    YAML::Node root;
    try {
      root = YAML::LoadFile(path_.string());
    } catch (const YAML::Exception& e) {
      throw UsageError(path_.string() + ":" + std::to_string(e.mark.line + 1) + ": " + e.msg);
    }
    if (!root.IsMap()) fail("(top)", "expected a map with init / expect");
    unique_keys(root, "");
    for (const auto& kv : root) {
      const std::string k = kv.first.Scalar();
      if (k != "machine" && k != "budget" && k != "init" && k != "expect")
        fail(k, "unknown key (machine, budget, init, expect)");
    }
    if (root["machine"]) c.machine = root["machine"].Scalar();
    if (spec_.presets().count(c.machine) == 0)
      fail("machine", "unknown preset '" + c.machine + "'");
    const isa::MachinePreset& preset = spec_.preset(c.machine);
    c.budget = static_cast<uint64_t>(preset.get("INSTRUCTION_BUDGET"));
    if (root["budget"]) {
      c.budget = number(root["budget"], "budget",
                        static_cast<uint64_t>(spec_.runtime_max("INSTRUCTION_BUDGET")));
      if (c.budget == 0) fail("budget", "must be at least 1");
    }
    if (root["init"]) {
      for (Region& r : spaces(root["init"], "init", preset)) {
        isa::MemorySegment seg{r.begin * isa::unit_bytes(r.space, preset), std::move(r.bytes)};
        switch (r.space) {
          case isa::Space::Vram:
            c.image.vram.push_back(std::move(seg));
            break;
          case isa::Space::Mram:
            c.image.mram.push_back(std::move(seg));
            break;
          case isa::Space::FpSram:
            c.image.fp_sram.push_back(std::move(seg));
            break;
          case isa::Space::IntSram:
            c.image.int_sram.push_back(std::move(seg));
            break;
          case isa::Space::Hbm:
            c.image.hbm.push_back(std::move(seg));
            break;
        }
      }
    }
    const YAML::Node ex = root["expect"];
    if (!ex || !ex.IsMap()) fail("expect", "missing (a map)");
    unique_keys(ex, "expect");
    for (const auto& kv : ex) {
      const std::string k = kv.first.Scalar();
      if (k != "retired" && k != "cycles" && k != "trap" && k != "regs" && k != "mem")
        fail("expect." + k, "unknown key (retired, cycles, trap, regs, mem)");
    }
    for (const char* k : {"retired", "cycles"})
      if (!ex[k]) fail(std::string("expect.") + k, "missing");
    c.expect.retired = number(ex["retired"], "expect.retired");
    c.expect.cycles = number(ex["cycles"], "expect.cycles");
    if (ex["trap"]) {
      const YAML::Node t = ex["trap"];
      if (!t.IsMap() || !t["cause"] || !t["pc"])
        fail("expect.trap", "expected {cause: NAME, pc: P}");
      for (const auto& kv : t)
        if (kv.first.Scalar() != "cause" && kv.first.Scalar() != "pc")
          fail("expect.trap." + kv.first.Scalar(), "unknown key (cause, pc)");
      const std::string cause = t["cause"].Scalar();
      const bool known = std::any_of(spec_.traps().begin(), spec_.traps().end(),
                                     [&](const isa::TrapSpec& s) { return s.name == cause; });
      if (!known) fail("expect.trap.cause", "unknown trap '" + cause + "' (isa.yaml traps)");
      c.expect.trap = cause;
      c.expect.trap_pc = static_cast<uint32_t>(number(t["pc"], "expect.trap.pc", UINT32_MAX));
    }
    if (ex["regs"]) c.expect.regs = regs(ex["regs"], "expect.regs");
    if (ex["mem"]) c.expect.mem = spaces(ex["mem"], "expect.mem", preset);
  }

 private:
  const isa::Spec& spec_;
  fs::path path_;
};

}  // namespace

fs::path default_suite() { return MOESIM_CONFORMANCE_DIR; }

std::vector<Case> load_suite(const isa::Spec& spec, const fs::path& suite,
                             const std::string& filter) {
  std::error_code ec;
  if (!fs::is_directory(suite, ec)) throw UsageError(suite.string() + ": not a directory");
  std::optional<std::regex> re;
  // std::regex compiles and matches by recursion: a pattern of many thousand characters
  // overflows the stack (a crash, not an error), so the length is bounded.
  constexpr size_t kMaxFilter = 1000;
  if (filter.size() > kMaxFilter)
    throw UsageError("--filter: " + std::to_string(filter.size()) + " characters; at most " +
                     std::to_string(kMaxFilter));
  if (!filter.empty()) {
    try {
      re.emplace(filter);
    } catch (const std::regex_error& e) {
      throw UsageError("--filter '" + filter + "': invalid regular expression (" + e.what() + ")");
    }
  }
  std::vector<Case> out;
  std::vector<fs::path> dirs;
  for (const auto& d : fs::directory_iterator(suite)) dirs.push_back(d.path());
  std::sort(dirs.begin(), dirs.end());
  // A malformed case (or a stray file) becomes a Case with `error` set, so the rest of the suite
  // still runs and the report lists it as an error.
  const auto malformed = [&](const std::string& name, const std::string& mnemonic,
                             const std::string& why) {
    if (re && !std::regex_search(name, *re)) return;
    Case c;
    c.name = name;
    c.mnemonic = mnemonic;
    c.error = why;
    out.push_back(std::move(c));
  };
  for (const fs::path& d : dirs) {
    if (!fs::is_directory(d)) continue;
    const std::string mnemonic = d.filename().string();
    if (mnemonic != kGlobalDir && spec.by_mnemonic(mnemonic) == nullptr) {
      malformed(mnemonic, mnemonic,
                d.string() + ": directory is not an isa.yaml mnemonic (or " +
                    std::string(kGlobalDir) + ")");
      continue;
    }
    std::vector<fs::path> files;
    for (const auto& f : fs::directory_iterator(d)) files.push_back(f.path());
    std::sort(files.begin(), files.end());
    for (const fs::path& f : files) {
      const std::string ext = f.extension().string();
      const std::string name = mnemonic + "/" + f.stem().string();
      fs::path other = f;
      if (ext == ".yaml") {
        if (!fs::exists(other.replace_extension(".asm")))
          malformed(name, mnemonic,
                    f.string() + ": no " + other.filename().string() + " beside it");
        continue;
      }
      if (ext != ".asm") {
        malformed(mnemonic + "/" + f.filename().string(), mnemonic,
                  f.string() + ": unexpected file (only .asm and .yaml)");
        continue;
      }
      if (re && !std::regex_search(name, *re)) continue;
      Case c;
      c.mnemonic = mnemonic;
      c.name = name;
      c.asm_path = f;
      c.yaml_path = other.replace_extension(".yaml");
      try {
        if (!fs::exists(c.yaml_path))
          throw UsageError(f.string() + ": no " + c.yaml_path.filename().string() + " beside it");
        c.program = isa::assemble_file(spec, f.string());
        if (c.program.size() == 0) throw UsageError(f.string() + ": no instructions");
        CaseReader(spec, c.yaml_path).read(c);
      } catch (const std::runtime_error& e) {  // UsageError, isa::AsmError, a file error
        malformed(name, mnemonic, e.what());
        continue;
      }
      out.push_back(std::move(c));
    }
  }
  if (out.empty())
    throw UsageError(filter.empty()
                         ? suite.string() + ": no cases"
                         : "--filter '" + filter + "' matches no case in " + suite.string());
  return out;
}

Outcome run_case(const isa::Spec& spec, isa::Engine& engine, const Case& c,
                 uint64_t max_instructions) {
  Outcome o;
  engine.set_instruction_budget(c.budget);
  engine.load(c.program, c.image);
  std::map<std::string, uint64_t> written;  // register name -> last value written
  std::vector<isa::MemWrite> mems;
  uint64_t n = 0;
  for (;;) {
    isa::RetireRecord r;
    if (!engine.step(r)) break;
    o.words.push_back(r.word);
    if (r.trap) o.trap = r.trap;
    for (const auto& w : r.regs) written[cosim::reg_name(w.file, w.index)] = w.value;
    mems.insert(mems.end(), r.mems.begin(), r.mems.end());
    engine.take_unit_spans();
    if (++n > max_instructions) {
      o.failures.push_back("did not end within " + std::to_string(max_instructions) +
                           " instructions");
      break;
    }
  }
  o.retired = engine.retired();
  o.cycles = engine.cycles();
  const Expect& ex = c.expect;
  auto failure = [&](const std::string& s) { o.failures.push_back(s); };
  // Trap.
  auto trap_text = [&](const std::optional<isa::Trap>& t) {
    if (!t) return std::string("no trap");
    const isa::TrapSpec* ts = spec.trap_by_code(t->cause);
    return (ts ? ts->name : "cause " + std::to_string(t->cause)) + " at pc " +
           std::to_string(t->pc);
  };
  const std::string want_trap =
      ex.trap ? *ex.trap + " at pc " + std::to_string(ex.trap_pc) : std::string("no trap");
  if (trap_text(o.trap) != want_trap)
    failure("trap: expected " + want_trap + ", got " + trap_text(o.trap));
  if (o.retired != ex.retired)
    failure("retired: expected " + std::to_string(ex.retired) + ", got " +
            std::to_string(o.retired));
  if (o.cycles != ex.cycles)
    failure("cycles: expected " + std::to_string(ex.cycles) + ", got " + std::to_string(o.cycles));
  // Registers: the listed ones, and no unlisted write.
  const auto named = cosim::named_registers(engine.regs());
  const std::map<std::string, uint64_t> now(named.begin(), named.end());
  for (const auto& [name, want] : ex.regs) {
    const uint64_t got = now.at(name);
    if (got != want)
      failure(name + ": expected " + isa::register_value(name, want) + ", got " +
              isa::register_value(name, got));
  }
  for (const auto& [name, value] : written)
    if (ex.regs.count(name) == 0)
      failure(name + " written (" + isa::register_value(name, value) +
              ") but not listed in expect.regs");
  // Memory: the listed regions, and no write outside them.
  for (const Region& r : ex.mem) {
    std::vector<uint8_t> got;
    try {
      got = engine.read(r.space, r.begin, r.count);
    } catch (const std::out_of_range&) {
      failure(r.where + ": region leaves " + isa::space_name(r.space));
      continue;
    }
    const uint64_t ub = got.size() / r.count;
    const auto first = std::mismatch(got.begin(), got.end(), r.bytes.begin()).first;
    if (first == got.end()) continue;
    const uint64_t i = static_cast<uint64_t>(first - got.begin()), u = i / ub, b = i % ub;
    uint64_t differ = 0;
    for (size_t k = 0; k < got.size(); ++k) differ += got[k] != r.bytes[k] ? 1 : 0;
    const uint64_t mlen = static_cast<uint64_t>(spec.preset(c.machine).mlen());
    const std::string elem = isa::element_name(r.space, mlen, b);
    failure(std::string(isa::space_name(r.space)) + " " + isa::unit_noun(r.space) + " " +
            std::to_string(r.begin + u) + (elem.empty() ? "" : " " + elem) + ": expected " +
            isa::element_value(r.space, r.bytes.data() + u * ub, mlen, b) + ", got " +
            isa::element_value(r.space, got.data() + u * ub, mlen, b) + " (" + r.where +
            "; first difference; " + std::to_string(differ) + " of " + std::to_string(got.size()) +
            " bytes differ)");
  }
  for (const isa::MemWrite& w : mems) {
    for (uint64_t u = w.begin; u < w.end; ++u) {
      const bool listed = std::any_of(ex.mem.begin(), ex.mem.end(), [&](const Region& r) {
        return r.space == w.space && u >= r.begin && u < r.begin + r.count;
      });
      if (listed) continue;
      failure(std::string(isa::space_name(w.space)) + " unit " + std::to_string(u) +
              " written but not in any expect.mem region");
      break;
    }
  }
  o.pass = o.failures.empty();
  return o;
}

std::vector<Waiver> load_waivers(const isa::Spec& spec, const fs::path& suite) {
  const fs::path path = suite / "waivers.yaml";
  std::vector<Waiver> out;
  if (!fs::exists(path)) return out;
  YAML::Node root;
  try {
    root = YAML::LoadFile(path.string());
  } catch (const YAML::Exception& e) {
    throw UsageError(path.string() + ":" + std::to_string(e.mark.line + 1) + ": " + e.msg);
  }
  if (!root.IsSequence()) throw UsageError(path.string() + ": expected a list of {item, reason}");
  const std::set<std::string> items = coverage(spec, {}, {}).names();
  for (size_t i = 0; i < root.size(); ++i) {
    const std::string k = path.string() + ": [" + std::to_string(i) + "]";
    const YAML::Node w = root[i];
    if (!w.IsMap() || !w["item"] || !w["reason"] || w.size() != 2)
      throw UsageError(k + ": expected {item: NAME, reason: TEXT}");
    Waiver v{w["item"].Scalar(), w["reason"].Scalar()};
    if (items.count(v.item) == 0)
      throw UsageError(k + ".item: '" + v.item + "' is not a coverage item of isa.yaml");
    if (v.reason.empty()) throw UsageError(k + ".reason: empty");
    out.push_back(std::move(v));
  }
  return out;
}

std::set<std::string> Coverage::names() const {
  std::set<std::string> n;
  for (const auto* list : {&opcodes, &forms, &traps})
    for (const Item& i : *list) n.insert(i.name);
  return n;
}

std::vector<std::string> Coverage::missing() const {
  std::vector<std::string> m;
  for (const auto* list : {&opcodes, &forms, &traps})
    for (const Item& i : *list)
      if (!i.covered) m.push_back(i.name);
  return m;
}

Coverage coverage(const isa::Spec& spec, const std::vector<Case>& cases,
                  const std::vector<Outcome>& outcomes) {
  std::set<std::string> hit;
  for (size_t i = 0; i < cases.size() && i < outcomes.size(); ++i) {
    if (!outcomes[i].pass) continue;
    const Outcome& o = outcomes[i];
    for (size_t w = 0; w < o.words.size(); ++w) {
      const isa::Decoded d = isa::decode(spec, o.words[w]);
      const bool trapped = o.trap && w + 1 == o.words.size();
      if (trapped) {
        const isa::TrapSpec* ts = spec.trap_by_code(o.trap->cause);
        const std::string t = ts ? ts->name : "?";
        hit.insert("trap " + t);
        if (d.spec) {
          hit.insert(d.spec->mnemonic + " trap " + t);
          // An instruction whose only declared trap is illegal_instruction and that raised it is
          // one declared never to execute (C_HADAMARD_TRANSFORM): the trap covers its opcode.
          if (d.spec->traps == std::vector<std::string>{"illegal_instruction"} &&
              t == "illegal_instruction")
            hit.insert(d.spec->mnemonic);
        }
        continue;
      }
      if (!d.spec) continue;
      const isa::InstrSpec& ins = *d.spec;
      hit.insert(ins.mnemonic);
      for (const isa::OperandSpec& op : ins.operands) {
        if (op.kind != isa::OperandKind::Imm) continue;
        const uint32_t v = isa::extract(o.words[w], spec.field(op.field));
        if (!op.allowed.empty()) {
          hit.insert(ins.mnemonic + " " + op.name + "=" + std::to_string(v));
        } else if (op.name == "rmask") {
          hit.insert(ins.mnemonic + (v == 0 ? " rmask=0" : " rmask!=0"));
        }
      }
    }
  }
  Coverage c;
  auto item = [&](std::vector<Coverage::Item>& list, const std::string& name) {
    list.push_back({name, hit.count(name) != 0});
  };
  for (const isa::InstrSpec& ins : spec.instructions()) {
    item(c.opcodes, ins.mnemonic);
    for (const isa::OperandSpec& op : ins.operands) {
      if (op.kind != isa::OperandKind::Imm) continue;
      for (uint32_t v : op.allowed)
        item(c.forms, ins.mnemonic + " " + op.name + "=" + std::to_string(v));
      if (op.allowed.empty() && op.name == "rmask") {
        item(c.forms, ins.mnemonic + " rmask=0");
        item(c.forms, ins.mnemonic + " rmask!=0");
      }
    }
    for (const std::string& t : ins.traps) item(c.traps, ins.mnemonic + " trap " + t);
  }
  for (const isa::TrapSpec& t : spec.traps()) item(c.traps, "trap " + t.name);
  return c;
}

}  // namespace moesim::conformance
