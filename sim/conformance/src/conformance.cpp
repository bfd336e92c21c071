// ISA conformance suite: case loading, running and coverage (conformance.hpp).
#include "moesim/conformance/conformance.hpp"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <regex>
#include <set>
#include <sstream>

#include "moesim/cosim/cosim.hpp"
#include "moesim/isa/assembler.hpp"
#include "moesim/isa/encoding.hpp"
#include "moesim/isa/format.hpp"
#include "moesim/isa/geometry.hpp"
#include "moesim/isa/image_file.hpp"
#include "moesim/isa/numerics.hpp"
#include "moesim/isa/usage_error.hpp"
#include "moesim/isa/yaml_reader.hpp"

namespace moesim::conformance {
namespace {

namespace fs = std::filesystem;

using isa::hex;

/// Reads one case file with the shared image loader (isa/image_file.hpp); every error names
/// file:line and the key path.
class CaseReader {
 public:
  CaseReader(const isa::Spec& spec, fs::path path) : spec_(spec), rd_(std::move(path)) {}

  /// Register name -> value; f registers take BF16 values.
  std::map<std::string, uint64_t> regs(const YAML::Node& map, const std::string& key) const {
    if (!map.IsMap()) rd_.fail(map, key, "expected a map register: value");
    rd_.unique_keys(map, key);
    std::set<std::string> known;
    for (uint8_t i = 1; i < 16; ++i) known.insert(cosim::reg_name(isa::RegFile::Gp, i));
    for (uint8_t i = 0; i < 8; ++i) known.insert(cosim::reg_name(isa::RegFile::Addr, i));
    for (uint8_t i = 0; i < 4; ++i) known.insert(cosim::reg_name(isa::RegFile::Ctrl, i));
    std::map<std::string, uint64_t> out;
    for (const auto& kv : map) {
      const std::string name = kv.first.Scalar();
      const std::string k = key + "." + name;
      if (name.size() == 2 && name[0] == 'f' && name[1] >= '1' && name[1] <= '7') {
        out[name] = rd_.bf16(kv.second, k);
      } else if (known.count(name) != 0) {
        out[name] = rd_.number(kv.second, k, name[0] == 'a' ? UINT64_MAX : UINT32_MAX);
      } else {
        rd_.fail(kv.first, k,
                 "unknown register (gp1..gp15, f1..f7, a0..a7, SCALE, STRIDE, V_MASK, "
                 "TOPK_POLICY; gp0 and f0 are constant)");
      }
    }
    return out;
  }

  /// Stall cause -> cycles; the causes of isa::StallCause but none.
  std::map<std::string, uint64_t> stalls(const YAML::Node& map, const std::string& key) const {
    if (!map.IsMap()) rd_.fail(map, key, "expected a map {raw: N, waw: N, war: N, queue_full: N}");
    rd_.unique_keys(map, key);
    std::map<std::string, uint64_t> out;
    for (const auto& kv : map) {
      const std::string cause = kv.first.Scalar();
      if (cause != "raw" && cause != "waw" && cause != "war" && cause != "queue_full")
        rd_.fail(kv.first, key + "." + cause, "unknown stall cause (raw, waw, war, queue_full)");
      out[cause] = rd_.number(kv.second, key + "." + cause);
    }
    return out;
  }

  void read(Case& c) const {
    const YAML::Node root = rd_.load();
    if (!root.IsMap()) rd_.fail(root, "(top)", "expected a map with init / expect");
    rd_.unique_keys(root, "");
    for (const auto& kv : root) {
      const std::string k = kv.first.Scalar();
      if (k != "machine" && k != "budget" && k != "dma_queue" && k != "hbm_jitter" && k != "init" &&
          k != "expect")
        rd_.fail(kv.first, k, "unknown key (machine, budget, dma_queue, hbm_jitter, init, expect)");
    }
    if (root["machine"]) c.machine = root["machine"].Scalar();
    if (spec_.presets().count(c.machine) == 0)
      rd_.fail(root["machine"], "machine", "unknown preset '" + c.machine + "'");
    const isa::MachinePreset& preset = spec_.preset(c.machine);
    c.budget = static_cast<uint64_t>(preset.get("INSTRUCTION_BUDGET"));
    if (root["budget"]) {
      c.budget = rd_.number(root["budget"], "budget",
                            static_cast<uint64_t>(spec_.runtime_max("INSTRUCTION_BUDGET")));
      if (c.budget == 0) rd_.fail(root["budget"], "budget", "must be at least 1");
    }
    c.dma_queue = static_cast<uint64_t>(preset.get("DMA_QUEUE"));
    if (root["dma_queue"])
      c.dma_queue = rd_.number(root["dma_queue"], "dma_queue",
                               static_cast<uint64_t>(spec_.runtime_max("DMA_QUEUE")));
    c.hbm_jitter = static_cast<uint64_t>(preset.get("HBM_JITTER_SEED"));
    if (root["hbm_jitter"])
      c.hbm_jitter = rd_.number(root["hbm_jitter"], "hbm_jitter",
                                static_cast<uint64_t>(spec_.runtime_max("HBM_JITTER_SEED")));
    if (root["init"]) isa::add_regions(c.image, rd_.spaces(root["init"], "init", preset), preset);
    const YAML::Node ex = root["expect"];
    if (!ex || !ex.IsMap()) rd_.fail(ex ? ex : root, "expect", "missing (a map)");
    rd_.unique_keys(ex, "expect");
    for (const auto& kv : ex) {
      const std::string k = kv.first.Scalar();
      if (k != "retired" && k != "cycles" && k != "trap" && k != "regs" && k != "mem" &&
          k != "stalls")
        rd_.fail(kv.first, "expect." + k, "unknown key (retired, cycles, trap, regs, mem, stalls)");
    }
    for (const char* k : {"retired", "cycles"})
      if (!ex[k]) rd_.fail(ex, std::string("expect.") + k, "missing");
    c.expect.retired = rd_.number(ex["retired"], "expect.retired");
    c.expect.cycles = rd_.number(ex["cycles"], "expect.cycles");
    if (ex["trap"]) {
      const YAML::Node t = ex["trap"];
      if (!t.IsMap() || !t["cause"] || !t["pc"])
        rd_.fail(t, "expect.trap", "expected {cause: NAME, pc: P}");
      for (const auto& kv : t)
        if (kv.first.Scalar() != "cause" && kv.first.Scalar() != "pc")
          rd_.fail(kv.first, "expect.trap." + kv.first.Scalar(), "unknown key (cause, pc)");
      const std::string cause = t["cause"].Scalar();
      const bool known = std::any_of(spec_.traps().begin(), spec_.traps().end(),
                                     [&](const isa::TrapSpec& s) { return s.name == cause; });
      if (!known)
        rd_.fail(t["cause"], "expect.trap.cause", "unknown trap '" + cause + "' (isa.yaml traps)");
      c.expect.trap = cause;
      c.expect.trap_pc = static_cast<uint32_t>(rd_.number(t["pc"], "expect.trap.pc", UINT32_MAX));
    }
    if (ex["regs"]) c.expect.regs = regs(ex["regs"], "expect.regs");
    if (ex["mem"]) c.expect.mem = rd_.spaces(ex["mem"], "expect.mem", preset);
    if (ex["stalls"]) c.expect.stalls = stalls(ex["stalls"], "expect.stalls");
  }

 private:
  const isa::Spec& spec_;
  isa::ImageReader rd_;
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
  engine.set_dma_queue(c.dma_queue);
  engine.set_hbm_jitter(c.hbm_jitter);
  engine.load(c.program, c.image);
  std::map<std::string, uint64_t> written;  // register name -> last value written
  std::vector<isa::MemWrite> mems;
  uint64_t n = 0;
  for (;;) {
    isa::RetireRecord r;
    if (!engine.step(r)) break;
    // A transfer record (DMA_QUEUE > 0) repeats its DMA instruction's word and may follow a
    // trap: only retire records count as executed words, so a trapping word stays the last.
    if (r.kind == isa::RecordKind::Retire) {
      o.words.push_back(r.word);
      if (r.stall_cause != isa::StallCause::None)
        o.stalls[isa::stall_cause_name(r.stall_cause)] += r.stall_cycles;
    }
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
  for (const auto& [cause, want] : ex.stalls) {
    const auto it = o.stalls.find(cause);
    const uint64_t got = it == o.stalls.end() ? 0 : it->second;
    if (got != want)
      failure("stalls." + cause + ": expected " + std::to_string(want) + ", got " +
              std::to_string(got));
  }
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
  const YAML::Node root = isa::load_yaml_file(path.string());
  if (!root.IsSequence()) throw UsageError(path.string() + ": expected a list of {item, reason}");
  const std::set<std::string> items = coverage(spec, {}, {}).names();
  std::map<std::string, size_t> first;  // item -> index of its waiver
  for (size_t i = 0; i < root.size(); ++i) {
    const std::string k = path.string() + ": [" + std::to_string(i) + "]";
    const YAML::Node w = root[i];
    if (!w.IsMap() || !w["item"] || !w["reason"] || w.size() != 2)
      throw UsageError(k + ": expected {item: NAME, reason: TEXT}");
    Waiver v{w["item"].Scalar(), w["reason"].Scalar()};
    if (items.count(v.item) == 0)
      throw UsageError(k + ".item: '" + v.item + "' is not a coverage item of isa.yaml");
    if (v.reason.empty()) throw UsageError(k + ".reason: empty");
    if (const auto [it, fresh] = first.emplace(v.item, i); !fresh)
      throw UsageError(k + ".item: '" + v.item + "' is waived twice (also by [" +
                       std::to_string(it->second) + "])");
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
