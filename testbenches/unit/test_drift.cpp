// Drift guards (docs/architecture.md, One source of truth): the generated artefacts agree with
// the YAML in both directions.
// Each checker parses the generated TEXT (not the generator's data structures) and reports, by
// name, every entry that is missing, extra or numbered differently. Every checker is also run
// on planted drifts (an entry removed, added, renumbered) and must report each one by name.
#define BOOST_TEST_MODULE drift
#include <unistd.h>

#include <algorithm>
#include <boost/test/unit_test.hpp>
#include <cctype>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <sstream>

#include "moesim/isa/naming.hpp"
#include "moesim/isa/spec.hpp"
#include "moesim/isa/trace.hpp"

using namespace moesim::isa;
namespace fs = std::filesystem;

namespace {

const fs::path kGen = MOESIM_TEST_GENERATED_DIR;

std::string slurp(const fs::path& p) {
  std::ifstream f(p, std::ios::binary);
  BOOST_REQUIRE_MESSAGE(f, "cannot read " << p);
  std::ostringstream s;
  s << f.rdbuf();
  return s.str();
}

using Table = std::map<std::string, int64_t>;
using Problems = std::vector<std::string>;

/// Collects (name, value) pairs of `re` (groups 1 and 2) in `text`; values in `base`.
/// A name found twice is a problem.
Table collect(const std::string& text, const std::regex& re, int base, const std::string& what,
              const std::string& file, Problems& problems) {
  Table t;
  for (auto it = std::sregex_iterator(text.begin(), text.end(), re); it != std::sregex_iterator();
       ++it) {
    std::string name = (*it)[1];
    int64_t v = std::stoll((*it)[2], nullptr, base);
    if (!t.emplace(name, v).second)
      problems.push_back(what + " " + name + ": appears twice in " + file);
  }
  return t;
}

/// The text between the first match of `open` and the next `close` ("" if not found).
std::string block(const std::string& text, const std::string& open, const std::string& close) {
  size_t b = text.find(open);
  if (b == std::string::npos) return "";
  b += open.size();
  size_t e = text.find(close, b);
  return e == std::string::npos ? "" : text.substr(b, e - b);
}

void compare(const std::string& what, const std::string& file, const Table& yaml, const Table& gen,
             Problems& problems) {
  for (const auto& [name, v] : yaml) {
    auto it = gen.find(name);
    if (it == gen.end())
      problems.push_back(what + " " + name + ": in the YAML, missing from " + file);
    else if (it->second != v)
      problems.push_back(what + " " + name + ": YAML " + std::to_string(v) + ", " + file + " " +
                         std::to_string(it->second));
  }
  for (const auto& [name, v] : gen)
    if (!yaml.count(name))
      problems.push_back(what + " " + name + ": in " + file + ", not in the YAML");
}

// ---- expected tables from the loaded YAML, named as each artefact names them
Table yaml_opcodes(const Spec& s, bool sv) {
  Table t;
  for (const auto& i : s.instructions()) t[sv ? upper_name(i.mnemonic) : i.mnemonic] = i.opcode;
  return t;
}
Table yaml_traps(const Spec& s, bool sv) {
  Table t{{sv ? "NONE" : "None", 0}};
  for (const auto& x : s.traps()) t[sv ? upper_name(x.name) : x.name] = x.code;
  return t;
}
/// isa.yaml `stall_causes` with code 0 none (C++: camel-case enumerators, SV: STALL_<NAME>).
Table yaml_stall_causes(const Spec& s, bool sv) {
  Table t{{sv ? "NONE" : "None", 0}};
  for (const auto& x : s.stall_causes()) t[sv ? upper_name(x.name) : camel_name(x.name)] = x.code;
  return t;
}
Table yaml_stages(const Spec& s, bool sv) {
  Table t;
  for (const auto& x : s.stages()) t[sv ? upper_name(x.name) : x.name] = x.code;
  return t;
}
/// isa.yaml `units`: name -> index (the package's UNIT_IDX_<NAME>).
Table yaml_units(const Spec& s) {
  Table t;
  for (size_t u = 0; u < s.units().size(); ++u) t[upper_name(s.units()[u])] = u;
  return t;
}
Table yaml_fields(const Spec& s, bool sv) {
  Table t;
  for (const auto& [n, f] : s.fields()) {
    t[sv ? upper_name(n) + "_LO" : camel_name(n) + "Lo"] = f.lo;
    t[sv ? upper_name(n) + "_HI" : camel_name(n) + "Hi"] = f.hi;
  }
  return t;
}

/// isa.yaml `topk_policies`: "rmask<R>.experts" / "rmask<R>.k" per hardwired policy and
/// "register.rmask" for the register policy.
Table yaml_topk(const Spec& s) {
  Table t;
  for (const auto& p : s.topk_policies()) {
    if (p.hardwired()) {
      t["rmask" + std::to_string(p.rmask) + ".experts"] = p.experts;
      t["rmask" + std::to_string(p.rmask) + ".k"] = p.k;
    } else {
      t["register.rmask"] = p.rmask;
    }
  }
  return t;
}
size_t yaml_hardwired_count(const Spec& s) {
  size_t n = 0;
  for (const auto& p : s.topk_policies()) n += p.hardwired() ? 1 : 0;
  return n;
}
/// Operand `allowed:` values (V_TOPK rmask from topk_policies), one entry per value:
/// "<MNEMONIC>.<operand>=<v>" (C++, docs) or "<MNEMONIC>.<FIELD>=<v>" (SystemVerilog).
Table yaml_allowed(const Spec& s, bool sv) {
  Table t;
  for (const auto& i : s.instructions())
    for (const auto& o : i.operands)
      for (uint32_t v : o.allowed)
        t[i.mnemonic + "." + (sv ? upper_name(o.field) : o.name) + "=" + std::to_string(v)] = 1;
  return t;
}
/// Adds "<prefix>=<v>" = 1 for every number `re` (group 1) finds in `list`; twice is a problem.
void add_values(Table& t, const std::string& prefix, const std::string& list, const std::regex& re,
                const std::string& file, Problems& p) {
  for (auto it = std::sregex_iterator(list.begin(), list.end(), re); it != std::sregex_iterator();
       ++it) {
    std::string name = prefix + "=" + std::string((*it)[1]);
    if (!t.emplace(name, 1).second)
      p.push_back("allowed value " + name + ": appears twice in " + file);
  }
}
/// Adds the hardwired policy (rmask, experts, k) to `t` as yaml_topk() names it.
void add_policy(Table& t, const std::string& rmask, int64_t experts, int64_t k,
                const std::string& file, Problems& p) {
  if (t.count("rmask" + rmask + ".experts"))
    p.push_back("topk policy rmask" + rmask + ": appears twice in " + file);
  t["rmask" + rmask + ".experts"] = experts;
  t["rmask" + rmask + ".k"] = k;
}

/// isa.yaml `fp32_constants`: name -> FP32 bits.
Table yaml_fp32_constants(const Spec& s) {
  Table t;
  for (const auto& c : s.fp32_constants()) t[c.name] = c.bits;
  return t;
}

/// isa.yaml `hbm_jitter`: name -> 32-bit value.
Table yaml_hbm_jitter(const Spec& s) {
  Table t;
  for (const auto& c : s.hbm_jitter_constants()) t[c.name] = c.bits;
  return t;
}

/// isa.yaml `control_registers`: name -> index, named as each artefact names a register
/// (C++: CtrlReg::TopkPolicy; SV and docs: TOPK_POLICY).
std::string ctrl_cpp(const std::string& name) {
  std::string l = name;
  for (char& c : l) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return camel_name(l);
}
std::string lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}
Table yaml_ctrl_index(const Spec& s, bool cpp) {
  Table t;
  for (const auto& r : s.control_registers()) t[cpp ? ctrl_cpp(r.name) : r.name] = r.index;
  return t;
}
Table yaml_ctrl_reset(const Spec& s, bool cpp) {
  Table t;
  for (const auto& r : s.control_registers()) t[cpp ? ctrl_cpp(r.name) : r.name] = r.reset;
  return t;
}
/// Field positions "<REG>.<FIELD>.lo" / ".hi" (register and field as the artefact spells them).
Table yaml_ctrl_fields(const Spec& s, bool cpp) {
  Table t;
  for (const auto& r : s.control_registers())
    for (const auto& f : r.fields) {
      const std::string n = cpp ? ctrl_cpp(r.name) + ctrl_cpp(f.name) : r.name + "." + f.name;
      t[n + ".lo"] = f.lo;
      t[n + ".hi"] = f.hi;
    }
  return t;
}
/// What a generated unpack/pack helper must do: "<reg>_<field>.shift" / ".mask" (C++ getters),
/// "pack_<reg>.<field>.shift" / ".mask" (C++ pack).
Table yaml_ctrl_helpers(const Spec& s) {
  Table t;
  for (const auto& r : s.control_registers())
    for (const auto& f : r.fields) {
      const int64_t mask = (int64_t{1} << f.width()) - 1;
      const std::string get = lower(r.name) + "_" + lower(f.name);
      const std::string pack = "pack_" + lower(r.name) + "." + lower(f.name);
      t[get + ".shift"] = f.lo;
      t[get + ".mask"] = mask;
      t[pack + ".shift"] = f.lo;
      t[pack + ".mask"] = mask;
    }
  return t;
}
/// Register-file sizes (isa.yaml `operand_kinds` counts) as `gp`, `fp`, `addr`.
Table yaml_regfile_counts(const Spec& s) {
  return {{"gp", s.operand_kind(OperandKind::Gp).count},
          {"fp", s.operand_kind(OperandKind::Fp).count},
          {"addr", s.operand_kind(OperandKind::Addr).count}};
}
/// "GP" / "Gp" -> "gp": the register file a generated count constant names.
Table regfile_counts(const Table& gen) {
  Table t;
  for (const auto& [n, v] : gen) t[lower(n)] = v;
  return t;
}

/// The control-register part of tables.hpp against the YAML.
void check_tables_ctrl(const Spec& s, const std::string& text, Problems& p) {
  const std::string file = "tables.hpp";
  compare("control register", file, yaml_ctrl_index(s, true),
          collect(block(text, "enum class CtrlReg : uint8_t {", "};"),
                  std::regex(R"((\w+)\s*=\s*(\d+)\s*,)"), 10, "control register", file, p),
          p);
  compare("control register reset", file, yaml_ctrl_reset(s, true),
          collect(text, std::regex(R"(constexpr uint32_t kCtrl(\w+)Reset = (\d+)u;)"), 10,
                  "control register reset", file, p),
          p);
  Table names;
  const std::string nb = block(text, "kCtrlRegNames{{", "}};");
  std::regex name_row(R"re(\{CtrlReg::(\w+), "(\w+)"\})re");
  for (auto it = std::sregex_iterator(nb.begin(), nb.end(), name_row); it != std::sregex_iterator();
       ++it)
    if (!names.emplace(std::string((*it)[2]), 1).second)
      p.push_back("control register name " + std::string((*it)[2]) + ": appears twice in " + file);
  Table yaml_names;
  for (const auto& r : s.control_registers()) yaml_names[r.name] = 1;
  compare("control register name", file, yaml_names, names, p);
  std::smatch m;
  if (!std::regex_search(text, m, std::regex(R"(constexpr int kNumCtrlRegs = (\d+);)")) ||
      std::stoul(m[1]) != s.control_registers().size())
    p.push_back("control register count kNumCtrlRegs: does not equal the " +
                std::to_string(s.control_registers().size()) + " control_registers of the YAML");
  Table fields;
  std::regex fre(R"(constexpr unsigned kCtrl(\w+?)Lo = (\d+), kCtrl(\w+?)Hi = (\d+);)");
  for (auto it = std::sregex_iterator(text.begin(), text.end(), fre); it != std::sregex_iterator();
       ++it) {
    for (int g : {1, 3}) {
      const std::string key = std::string((*it)[g]) + (g == 1 ? ".lo" : ".hi");
      if (!fields.emplace(key, std::stoll((*it)[g + 1])).second)
        p.push_back("control register field " + key + ": appears twice in " + file);
    }
  }
  compare("control register field", file, yaml_ctrl_fields(s, true), fields, p);
  Table helpers;
  std::regex get(
      R"(constexpr uint32_t (\w+)\(uint32_t v\) \{ return \(v >> (\d+)\) & 0x([0-9A-F]+)u; \})");
  for (auto it = std::sregex_iterator(text.begin(), text.end(), get); it != std::sregex_iterator();
       ++it) {
    helpers[std::string((*it)[1]) + ".shift"] = std::stoll((*it)[2]);
    helpers[std::string((*it)[1]) + ".mask"] = std::stoll((*it)[3], nullptr, 16);
  }
  std::regex pack(R"(constexpr uint32_t (pack_\w+)\(([^)]*)\) \{\s*return ([^;]*);)");
  std::regex term(R"(\(\((\w+) & 0x([0-9A-F]+)u\) << (\d+)\))");
  for (auto it = std::sregex_iterator(text.begin(), text.end(), pack); it != std::sregex_iterator();
       ++it) {
    const std::string fn = (*it)[1], body = (*it)[3];
    for (auto t = std::sregex_iterator(body.begin(), body.end(), term); t != std::sregex_iterator();
         ++t) {
      helpers[fn + "." + std::string((*t)[1]) + ".shift"] = std::stoll((*t)[3]);
      helpers[fn + "." + std::string((*t)[1]) + ".mask"] = std::stoll((*t)[2], nullptr, 16);
    }
  }
  compare("control register helper", file, yaml_ctrl_helpers(s), helpers, p);
  compare("register file", file, yaml_regfile_counts(s),
          regfile_counts(collect(text, std::regex(R"(constexpr unsigned kNum(\w+)Regs = (\d+);)"),
                                 10, "register file", file, p)),
          p);
}

/// tables.hpp against the YAML.
Problems check_tables_hpp(const Spec& s, const std::string& text) {
  const std::string file = "tables.hpp";
  Problems p;
  std::regex entry(R"((\w+)\s*=\s*(?:0x)?([0-9A-Fa-f]+)\s*,)");
  auto hex_entries = [&](const std::string& blk, int base, const std::string& what) {
    return collect(blk, entry, base, what, file, p);
  };
  compare("opcode", file, yaml_opcodes(s, false),
          hex_entries(block(text, "enum class Opcode : uint8_t {", "};"), 16, "opcode"), p);
  compare("trap", file, yaml_traps(s, false),
          hex_entries(block(text, "enum class TrapCause : uint8_t {", "};"), 10, "trap"), p);
  compare("stage", file, yaml_stages(s, false),
          hex_entries(block(text, "enum class StageCode : uint8_t {", "};"), 10, "stage"), p);
  compare("stall cause", file, yaml_stall_causes(s, false),
          hex_entries(block(text, "enum class StallCause : uint8_t {", "};"), 10, "stall cause"),
          p);
  {  // the name table: every cause once, with its YAML name
    Table names;
    for (const auto& x : s.stall_causes()) names[x.name] = x.code;
    Table gen_names;
    const std::string blk = block(text, "kStallCauseNames{{", "}};");
    const std::regex re(R"re(\{StallCause::(\w+), "(\w+)"\})re");
    for (auto it = std::sregex_iterator(blk.begin(), blk.end(), re); it != std::sregex_iterator();
         ++it) {
      const std::string e = (*it)[1], n = (*it)[2];
      const auto code = yaml_stall_causes(s, false);
      const auto c = code.find(e);
      if (!gen_names.emplace(n, c == code.end() ? -1 : c->second).second)
        p.push_back("stall cause name " + n + ": appears twice in " + file);
    }
    compare("stall cause name", file, names, gen_names, p);
  }
  compare("field", file, yaml_fields(s, false),
          collect(text, std::regex(R"(kField(\w+?(?:Lo|Hi)) = (\d+))"), 10, "field", file, p), p);
  compare("fp32 constant", file, yaml_fp32_constants(s),
          collect(text, std::regex(R"(constexpr uint32_t kFp32_(\w+) = 0x([0-9A-Fa-f]+)u;)"), 16,
                  "fp32 constant", file, p),
          p);
  compare("hbm jitter constant", file, yaml_hbm_jitter(s),
          collect(text, std::regex(R"(constexpr uint32_t kHbmJitter_(\w+) = 0x([0-9A-Fa-f]+)u;)"),
                  16, "hbm jitter constant", file, p),
          p);
  std::smatch m;
  if (!std::regex_search(text, m, std::regex(R"(constexpr int kNumOpcodes = (\d+);)")) ||
      std::stoul(m[1]) != s.instructions().size())
    p.push_back("kNumOpcodes: does not equal the " + std::to_string(s.instructions().size()) +
                " instructions of the YAML");
  // Presets: member names of PresetParams in order, then each kPreset_<name>{v, v, ...}.
  std::vector<std::string> members;
  std::string ps = block(text, "struct PresetParams {", "};");
  std::regex member(R"(int64_t (\w+);)");
  for (auto it = std::sregex_iterator(ps.begin(), ps.end(), member); it != std::sregex_iterator();
       ++it)
    members.push_back((*it)[1]);
  Table yaml_p, gen_p;
  for (const auto& [pn, preset] : s.presets())
    for (const auto& [k, v] : preset.params) yaml_p[pn + "." + k] = v;
  std::regex pre(R"(constexpr PresetParams kPreset_(\w+)\{([^}]*)\};)");
  for (auto it = std::sregex_iterator(text.begin(), text.end(), pre); it != std::sregex_iterator();
       ++it) {
    std::string pn = (*it)[1], vals = (*it)[2];
    std::stringstream ss(vals);
    std::string v;
    for (size_t i = 0; std::getline(ss, v, ','); ++i) {
      if (i >= members.size()) {
        p.push_back("preset " + pn + ": more values than PresetParams members");
        break;
      }
      gen_p[pn + "." + members[i]] = std::stoll(v);
    }
  }
  compare("preset parameter", file, yaml_p, gen_p, p);

  // V_TOPK policies: kTopkHardwired{{rmask, experts, k}, ...} and kTopkRegisterRmask.
  Table topk;
  std::string hw = block(text, "kTopkHardwired{{", "}};");
  std::regex triple(R"(\{(\d+), (\d+), (\d+)\})");
  for (auto it = std::sregex_iterator(hw.begin(), hw.end(), triple); it != std::sregex_iterator();
       ++it)
    add_policy(topk, (*it)[1], std::stoll((*it)[2]), std::stoll((*it)[3]), file, p);
  if (std::regex_search(text, m, std::regex(R"(constexpr uint8_t kTopkRegisterRmask = (\d+);)")))
    topk["register.rmask"] = std::stoll(m[1]);
  compare("topk policy", file, yaml_topk(s), topk, p);
  if (!std::regex_search(text, m, std::regex(R"(constexpr int kNumTopkHardwired = (\d+);)")) ||
      std::stoul(m[1]) != yaml_hardwired_count(s))
    p.push_back("topk policy count kNumTopkHardwired: does not equal the " +
                std::to_string(yaml_hardwired_count(s)) + " hardwired topk_policies of the YAML");

  // Allowed operand values: kAllowedValues{{Opcode::M, "operand", v}, ...}.
  Table allowed;
  std::string av = block(text, "kAllowedValues{{", "}};");
  std::regex entry3(R"re(\{Opcode::(\w+), "(\w+)", (\d+)\})re");
  for (auto it = std::sregex_iterator(av.begin(), av.end(), entry3); it != std::sregex_iterator();
       ++it)
    add_values(allowed, std::string((*it)[1]) + "." + std::string((*it)[2]), (*it)[3],
               std::regex(R"((\d+))"), file, p);
  const Table yaml_av = yaml_allowed(s, false);
  compare("allowed value", file, yaml_av, allowed, p);
  if (!std::regex_search(text, m,
                         std::regex(R"(std::array<AllowedValue, (\d+)> kAllowedValues)")) ||
      std::stoul(m[1]) != yaml_av.size())
    p.push_back("allowed value count kAllowedValues: size does not equal the " +
                std::to_string(yaml_av.size()) + " allowed values of the YAML");
  check_tables_ctrl(s, text, p);
  return p;
}

/// moesim_isa_pkg.sv against the YAML.
Problems check_pkg_sv(const Spec& s, const std::string& text) {
  const std::string file = "moesim_isa_pkg.sv";
  Problems p;
  auto enum_block = [&](const std::string& type) {
    std::smatch m;
    std::regex re("typedef enum logic \\[\\d+:0\\] \\{([^}]*)\\} " + type + ";");
    return std::regex_search(text, m, re) ? std::string(m[1]) : std::string();
  };
  compare("opcode", file, yaml_opcodes(s, true),
          collect(enum_block("opcode_e"), std::regex(R"(OP_(\w+) = \d+'h([0-9A-Fa-f]+))"), 16,
                  "opcode", file, p),
          p);
  compare(
      "trap", file, yaml_traps(s, true),
      collect(enum_block("trap_e"), std::regex(R"(TRAP_(\w+) = \d+'d(\d+))"), 10, "trap", file, p),
      p);
  compare("stage", file, yaml_stages(s, true),
          collect(enum_block("stage_e"), std::regex(R"(STAGE_(\w+) = \d+'d(\d+))"), 10, "stage",
                  file, p),
          p);
  compare("stall cause", file, yaml_stall_causes(s, true),
          collect(enum_block("stall_e"), std::regex(R"(STALL_(\w+) = \d+'d(\d+))"), 10,
                  "stall cause", file, p),
          p);
  compare("field", file, yaml_fields(s, true),
          collect(text, std::regex(R"(localparam int unsigned ((?!CTRL_)\w+_(?:LO|HI)) = (\d+);)"),
                  10, "field", file, p),
          p);
  compare("fp32 constant", file, yaml_fp32_constants(s),
          collect(text, std::regex(R"(localparam logic \[31:0\] FP32_(\w+) = 32'h([0-9A-Fa-f]+);)"),
                  16, "fp32 constant", file, p),
          p);
  compare("hbm jitter constant", file, yaml_hbm_jitter(s),
          collect(text,
                  std::regex(R"(localparam logic \[31:0\] HBM_JITTER_(\w+) = 32'h([0-9A-Fa-f]+);)"),
                  16, "hbm jitter constant", file, p),
          p);

  // Run-time parameters: <NAME>_BITS = the port width of machine.yaml `runtime`.
  Table runtime;
  for (const auto& [n, bits] : s.runtime_parameters()) runtime[n] = bits;
  compare("run-time parameter", file, runtime,
          collect(text, std::regex(R"(localparam int unsigned (\w+)_BITS = (\d+);)"), 10,
                  "run-time parameter", file, p),
          p);

  // Units: UNIT_IDX_<NAME> = index in isa.yaml `units`, and NUM_UNITS.
  compare("unit", file, yaml_units(s),
          collect(text, std::regex(R"(localparam int unsigned UNIT_IDX_(\w+) = (\d+);)"), 10,
                  "unit", file, p),
          p);
  std::smatch nu;
  if (!std::regex_search(text, nu, std::regex(R"(localparam int unsigned NUM_UNITS = (\d+);)")) ||
      std::stoul(nu[1]) != s.units().size())
    p.push_back("unit count NUM_UNITS: does not equal the " + std::to_string(s.units().size()) +
                " units of the YAML");

  // V_TOPK policies: packed arrays TOPK_HW_RMASK / TOPK_HW_E / TOPK_HW_K of TOPK_HW_N entries,
  // each a concatenation listing entry N-1 first; zipped entry by entry.
  auto array = [&](const std::string& name) {
    std::vector<int64_t> v;
    std::smatch m;
    std::regex decl(R"(localparam logic \[TOPK_HW_N-1:0\]\[\d+:0\] )" + name +
                    R"( = \{([^}]*)\};)");
    if (!std::regex_search(text, m, decl)) {
      p.push_back("topk policy array " + name + ": missing from " + file);
      return v;
    }
    std::string list = m[1];
    std::regex re(R"(\d+'d(\d+))");
    for (auto it = std::sregex_iterator(list.begin(), list.end(), re); it != std::sregex_iterator();
         ++it)
      v.insert(v.begin(), std::stoll((*it)[1]));
    return v;
  };
  std::vector<int64_t> rm = array("TOPK_HW_RMASK"), ex = array("TOPK_HW_E"),
                       kk = array("TOPK_HW_K");
  Table topk;
  if (rm.size() != ex.size() || rm.size() != kk.size())
    p.push_back("topk policy arrays TOPK_HW_RMASK/E/K: differ in length in " + file);
  for (size_t i = 0; i < rm.size() && i < ex.size() && i < kk.size(); ++i)
    add_policy(topk, std::to_string(rm[i]), ex[i], kk[i], file, p);
  std::smatch m;
  if (std::regex_search(text, m,
                        std::regex(R"(localparam logic \[\d+:0\] TOPK_REG_RMASK = \d+'d(\d+);)")))
    topk["register.rmask"] = std::stoll(m[1]);
  compare("topk policy", file, yaml_topk(s), topk, p);
  if (!std::regex_search(text, m, std::regex(R"(localparam int unsigned TOPK_HW_N = (\d+);)")) ||
      std::stoul(m[1]) != yaml_hardwired_count(s))
    p.push_back("topk policy count TOPK_HW_N: does not equal the " +
                std::to_string(yaml_hardwired_count(s)) + " hardwired topk_policies of the YAML");

  // Allowed operand values: one operands_allowed() line per (instruction, field).
  Table allowed;
  std::string fn = block(text, "function automatic logic operands_allowed", "endfunction");
  std::regex line(R"(op == OP_(\w+) && !\(word\[(\w+)_HI:\w+_LO\] inside \{([^}]*)\}\))");
  for (auto it = std::sregex_iterator(fn.begin(), fn.end(), line); it != std::sregex_iterator();
       ++it)
    add_values(allowed, std::string((*it)[1]) + "." + std::string((*it)[2]), (*it)[3],
               std::regex(R"(\d+'d(\d+))"), file, p);
  compare("allowed value", file, yaml_allowed(s, true), allowed, p);

  // Control registers: ctrl_reg_e, CTRL_<NAME>_RESET, CTRL_<NAME>_<FIELD>_LO/HI, the getters and
  // pack_<reg>() that use them, NUM_CTRL_REGS and CTRL_SEL_W; register-file sizes NUM_<F>_REGS.
  compare("control register", file, yaml_ctrl_index(s, false),
          collect(enum_block("ctrl_reg_e"), std::regex(R"(CTRL_(\w+) = \d+'d(\d+))"), 10,
                  "control register", file, p),
          p);
  compare(
      "control register reset", file, yaml_ctrl_reset(s, false),
      collect(text, std::regex(R"(localparam logic \[31:0\] CTRL_(\w+)_RESET = 32'h([0-9A-F]+);)"),
              16, "control register reset", file, p),
      p);
  Table fields, yaml_f = yaml_ctrl_fields(s, false), yaml_sv;
  for (const auto& [n, v] : yaml_f) {
    // "TOPK_POLICY.E.lo" -> "TOPK_POLICY_E_LO"
    std::string k = n;
    std::replace(k.begin(), k.end(), '.', '_');
    yaml_sv[upper_name(k)] = v;
  }
  compare("control register field", file, yaml_sv,
          collect(text, std::regex(R"(localparam int unsigned CTRL_(\w+_(?:LO|HI)) = (\d+);)"), 10,
                  "control register field", file, p),
          p);
  // Each getter returns exactly its field: v[CTRL_<R>_<F>_HI:CTRL_<R>_<F>_LO], width hi-lo+1.
  Table getters, yaml_get;
  for (const auto& r : s.control_registers())
    for (const auto& f : r.fields) {
      yaml_get[lower(r.name) + "_" + lower(f.name) + "=" + r.name + "_" + upper_name(f.name)] =
          f.width();
      yaml_get["pack_" + lower(r.name) + "." + lower(f.name) + "=" + r.name + "_" +
               upper_name(f.name)] = 1;
    }
  std::regex get(
      R"(function automatic logic \[(\d+):0\] (\w+)\(logic \[31:0\] v\);\s*return v\[CTRL_(\w+)_HI:CTRL_(\w+)_LO\];)");
  for (auto it = std::sregex_iterator(text.begin(), text.end(), get); it != std::sregex_iterator();
       ++it) {
    if ((*it)[3] != (*it)[4])
      p.push_back("control register helper " + std::string((*it)[2]) +
                  ": reads HI and LO of different fields in " + file);
    getters[std::string((*it)[2]) + "=" + std::string((*it)[3])] = std::stoll((*it)[1]) + 1;
  }
  std::regex pack(
      R"(function automatic logic \[31:0\] (pack_\w+)\(([^)]*)\);([\s\S]*?)endfunction)");
  std::regex put(R"(v\[CTRL_(\w+)_HI:CTRL_(\w+)_LO\] = (\w+);)");
  for (auto it = std::sregex_iterator(text.begin(), text.end(), pack); it != std::sregex_iterator();
       ++it) {
    const std::string fn = (*it)[1], body = (*it)[3];
    for (auto t = std::sregex_iterator(body.begin(), body.end(), put); t != std::sregex_iterator();
         ++t)
      getters[fn + "." + std::string((*t)[3]) + "=" + std::string((*t)[1])] =
          (*t)[1] == (*t)[2] ? 1 : 0;
  }
  compare("control register helper", file, yaml_get, getters, p);
  std::smatch cm;
  if (!std::regex_search(text, cm,
                         std::regex(R"(localparam int unsigned NUM_CTRL_REGS = (\d+);)")) ||
      std::stoul(cm[1]) != s.control_registers().size())
    p.push_back("control register count NUM_CTRL_REGS: does not equal the " +
                std::to_string(s.control_registers().size()) + " control_registers of the YAML");
  unsigned sel_w = 1;
  while ((size_t{1} << sel_w) < s.control_registers().size()) ++sel_w;
  if (!std::regex_search(text, cm, std::regex(R"(localparam int unsigned CTRL_SEL_W = (\d+);)")) ||
      std::stoul(cm[1]) != sel_w ||
      !std::regex_search(text, cm,
                         std::regex(R"(typedef enum logic \[(\d+):0\] \{[^}]*\} ctrl_reg_e;)")) ||
      std::stoul(cm[1]) + 1 != sel_w)
    p.push_back("control register width CTRL_SEL_W: ctrl_reg_e does not hold " +
                std::to_string(sel_w) + " bits for the control_registers of the YAML");
  compare("register file", file, yaml_regfile_counts(s),
          regfile_counts(
              collect(text, std::regex(R"(localparam int unsigned NUM_(GP|FP|ADDR)_REGS = (\d+);)"),
                      10, "register file", file, p)),
          p);
  return p;
}

/// moesim_cfg_<preset>.vc against the preset: every parameter but the run-time ones (ports).
Problems check_vc(const Spec& s, const std::string& preset, const std::string& text) {
  const std::string file = "moesim_cfg_" + preset + ".vc";
  Problems p;
  Table yaml;
  for (const auto& [k, v] : s.preset(preset).params)
    if (!s.is_runtime_parameter(k)) yaml[k] = v;
  compare("parameter", file, yaml,
          collect(text, std::regex(R"(-G(\w+)=(\d+))"), 10, "parameter", file, p), p);
  return p;
}

/// docs/isa.md: one section per instruction with its opcode, and no section for anything else.
Problems check_isa_md(const Spec& s, const std::string& text) {
  const std::string file = "isa.md";
  Problems p;
  Table gen;
  std::regex sec(R"(### (\w+)\n\n- opcode: 0x([0-9A-F]+))");
  compare("opcode", file, yaml_opcodes(s, false), collect(text, sec, 16, "opcode", file, p), p);
  // The V_TOPK policies table, and the allowed values column of each operand table.
  Table topk;
  std::string pol = block(text, "## V_TOPK policies\n", "\n## ");
  std::regex hw(R"(\| (\d+) \| (\d+) \| (\d+) \| hardwired \|)");
  for (auto it = std::sregex_iterator(pol.begin(), pol.end(), hw); it != std::sregex_iterator();
       ++it)
    add_policy(topk, (*it)[1], std::stoll((*it)[2]), std::stoll((*it)[3]), file, p);
  std::smatch m;
  if (std::regex_search(pol, m, std::regex(R"(\| (\d+) \| \w+ >> 8 \| \w+ & 0xFF \| register )")))
    topk["register.rmask"] = std::stoll(m[1]);
  compare("topk policy", file, yaml_topk(s), topk, p);
  Table allowed;
  std::regex section(R"(\n### (\w+)\n)");
  std::regex row(R"(\| `(\w+)` \| \w+ \| `\w+` \| \[\d+:\d+\] \| [^|\n]* \| ([0-9, ]+?) \()");
  for (auto it = std::sregex_iterator(text.begin(), text.end(), section);
       it != std::sregex_iterator(); ++it) {
    size_t b = static_cast<size_t>(it->position(0) + it->length(0));
    size_t e = text.find("\n### ", b);
    std::string sec_text = text.substr(b, e == std::string::npos ? std::string::npos : e - b);
    for (auto r = std::sregex_iterator(sec_text.begin(), sec_text.end(), row);
         r != std::sregex_iterator(); ++r)
      add_values(allowed, std::string((*it)[1]) + "." + std::string((*r)[1]), (*r)[2],
                 std::regex(R"((\d+))"), file, p);
  }
  compare("allowed value", file, yaml_allowed(s, false), allowed, p);
  const std::string constants = block(text, "## FP32 constants\n", "\n## ");
  compare("fp32 constant", file, yaml_fp32_constants(s),
          collect(constants, std::regex(R"(\| `(\w+)` \| `0x([0-9A-F]+)` \|)"), 16, "fp32 constant",
                  file, p),
          p);
  compare("hbm jitter constant", file, yaml_hbm_jitter(s),
          collect(block(text, "## HBM jitter\n", "\n## "),
                  std::regex(R"(\| `(\w+)` \| `0x([0-9A-F]+)` \|)"), 16, "hbm jitter constant",
                  file, p),
          p);
  // The control registers table: | index | `NAME` | reset | [`WRITER`](#..) | fields | meaning |
  const std::string ctrl = block(text, "## Control registers\n", "\n## ");
  std::regex row_re(R"(\| (\d+) \| `(\w+)` \| (\d+) \| \[`\w+`\]\(#\w+\) \| ([^|\n]*) \|)");
  Table index, reset, fields;
  for (auto it = std::sregex_iterator(ctrl.begin(), ctrl.end(), row_re);
       it != std::sregex_iterator(); ++it) {
    const std::string name = (*it)[2], fl = (*it)[4];
    if (!index.emplace(name, std::stoll((*it)[1])).second)
      p.push_back("control register " + name + ": appears twice in " + file);
    reset[name] = std::stoll((*it)[3]);
    std::regex fre(R"(`(\w+)` \[(\d+):(\d+)\])");
    for (auto f = std::sregex_iterator(fl.begin(), fl.end(), fre); f != std::sregex_iterator();
         ++f) {
      fields[name + "." + std::string((*f)[1]) + ".hi"] = std::stoll((*f)[2]);
      fields[name + "." + std::string((*f)[1]) + ".lo"] = std::stoll((*f)[3]);
    }
  }
  compare("control register", file, yaml_ctrl_index(s, false), index, p);
  compare("control register reset", file, yaml_ctrl_reset(s, false), reset, p);
  compare("register file", file, yaml_regfile_counts(s),
          collect(block(text, "### Operand kinds\n", "\n## "),
                  std::regex(R"(\| `(gp|fp|addr)` \| `\w+N` \| (\d+) \|)"), 10, "register file",
                  file, p),
          p);
  compare("control register field", file, yaml_ctrl_fields(s, false), fields, p);
  return p;
}

std::string edit(std::string text, const std::string& from, const std::string& to) {
  size_t at = text.find(from);
  BOOST_REQUIRE_MESSAGE(at != std::string::npos, "planting a drift: '" << from << "' not found");
  return text.replace(at, from.size(), to);
}

bool reports(const Problems& p, const std::string& name, const std::string& kind) {
  for (const auto& x : p)
    if (x.find(" " + name + ":") != std::string::npos && x.find(kind) != std::string::npos)
      return true;
  return false;
}

std::string dump(const Problems& p) {
  std::string s;
  for (const auto& x : p) s += "  " + x + "\n";
  return s;
}

#define EXPECT_CLEAN(problems) BOOST_TEST((problems).empty(), "drift:\n" << dump(problems))
#define EXPECT_REPORTS(problems, name, kind)                                                  \
  BOOST_TEST(reports(problems, name, kind), "not reported: " << name << " (" << kind << ")\n" \
                                                             << dump(problems))

const Spec& spec() { return Spec::builtin(); }

}  // namespace

BOOST_AUTO_TEST_CASE(tables_hpp_matches_yaml) {
  EXPECT_CLEAN(check_tables_hpp(spec(), slurp(kGen / "include/moesim/isa/tables.hpp")));
}

BOOST_AUTO_TEST_CASE(tables_hpp_guard_catches_planted_drift) {
  const std::string t = slurp(kGen / "include/moesim/isa/tables.hpp");
  auto c = [&](const std::string& text) { return check_tables_hpp(spec(), text); };
  EXPECT_REPORTS(c(edit(t, "  V_TOPK = 0x37,\n", "")), "V_TOPK", "missing from tables.hpp");
  EXPECT_REPORTS(c(edit(t, "enum class Opcode : uint8_t {\n",
                        "enum class Opcode : uint8_t {\n  V_BOGUS = 0x3F,\n")),
                 "V_BOGUS", "not in the YAML");
  EXPECT_REPORTS(c(edit(t, "M_MM = 0x01,", "M_MM = 0x02,")), "M_MM", "YAML 1, tables.hpp 2");
  EXPECT_REPORTS(c(edit(t, "  loop_underflow = 7,\n", "")), "loop_underflow", "missing");
  EXPECT_REPORTS(c(edit(t, "  None = 0,\n", "  None = 0,\n  cosmic_ray = 10,\n")), "cosmic_ray",
                 "not in the YAML");
  EXPECT_REPORTS(c(edit(t, "loop_count_zero = 8,", "loop_count_zero = 12,")), "loop_count_zero",
                 "YAML 8");
  EXPECT_REPORTS(c(edit(t, "  gather = 4,\n", "")), "gather", "missing");
  EXPECT_REPORTS(c(edit(t, "  other = 0,\n", "  other = 0,\n  bogus_stage = 9,\n")), "bogus_stage",
                 "not in the YAML");
  EXPECT_REPORTS(c(edit(t, "non_moe = 15,", "non_moe = 14,")), "non_moe", "YAML 15");
  EXPECT_REPORTS(c(edit(t, "kFieldRdLo = 6", "kFieldRdLo = 7")), "RdLo", "YAML 6");
  EXPECT_REPORTS(c(edit(t, "constexpr unsigned kFieldImm22Lo = 10, kFieldImm22Hi = 31;\n", "")),
                 "Imm22Lo", "missing");
  EXPECT_REPORTS(c(edit(t, "constexpr unsigned kFieldRdLo",
                        "constexpr unsigned kFieldExtraLo = 1;\nconstexpr unsigned kFieldRdLo")),
                 "ExtraLo", "not in the YAML");
  EXPECT_REPORTS(c(edit(t, "kPreset_tiny{16, 16,", "kPreset_tiny{32, 16,")), "tiny.MLEN",
                 "YAML 16");
  EXPECT_REPORTS(c(edit(t, "  V_TOPK = 0x37,\n", "  V_TOPK = 0x37,\n  V_TOPK = 0x37,\n")), "V_TOPK",
                 "twice");
  BOOST_TEST(!c(edit(t, "kNumOpcodes = ", "kNumOpcodes = 1")).empty());
}

BOOST_AUTO_TEST_CASE(tables_hpp_guard_catches_planted_policy_and_allowed_drift) {
  const std::string t = slurp(kGen / "include/moesim/isa/tables.hpp");
  auto c = [&](const std::string& text) { return check_tables_hpp(spec(), text); };
  EXPECT_REPORTS(c(edit(t, "    {1, 128, 8},\n", "")), "rmask1.experts", "missing from tables.hpp");
  EXPECT_REPORTS(c(edit(t, "kNumTopkHardwired = 2;", "kNumTopkHardwired = 3;")),
                 "kNumTopkHardwired", "does not equal");
  EXPECT_REPORTS(c(edit(t, "    {0, 32, 4},\n", "    {0, 32, 4},\n    {2, 64, 2},\n")),
                 "rmask2.experts", "not in the YAML");
  EXPECT_REPORTS(c(edit(t, "{0, 32, 4}", "{0, 32, 5}")), "rmask0.k", "YAML 4, tables.hpp 5");
  EXPECT_REPORTS(c(edit(t, "{1, 128, 8}", "{1, 64, 8}")), "rmask1.experts", "YAML 128");
  EXPECT_REPORTS(c(edit(t, "{1, 128, 8}", "{0, 128, 8}")), "rmask0", "twice");
  EXPECT_REPORTS(c(edit(t, "kTopkRegisterRmask = 15;", "kTopkRegisterRmask = 14;")),
                 "register.rmask", "YAML 15, tables.hpp 14");
  EXPECT_REPORTS(c(edit(t, "constexpr uint8_t kTopkRegisterRmask", "// ")), "register.rmask",
                 "missing");
  EXPECT_REPORTS(c(edit(t, "    {Opcode::H_STORE_V, \"prec\", 0},\n", "")), "H_STORE_V.prec=0",
                 "missing from tables.hpp");
  EXPECT_REPORTS(
      c(edit(t, "    {Opcode::H_STORE_V, \"prec\", 0},\n",
             "    {Opcode::H_STORE_V, \"prec\", 0},\n    {Opcode::H_STORE_V, \"prec\", 1},\n")),
      "H_STORE_V.prec=1", "not in the YAML");
  EXPECT_REPORTS(c(edit(t, "{Opcode::V_TOPK, \"rmask\", 15}", "{Opcode::V_TOPK, \"rmask\", 3}")),
                 "V_TOPK.rmask=3", "not in the YAML");
  EXPECT_REPORTS(c(edit(t, "{Opcode::V_TOPK, \"rmask\", 15}", "{Opcode::V_TOPK, \"rmask\", 3}")),
                 "V_TOPK.rmask=15", "missing");
  EXPECT_REPORTS(c(edit(t, "std::array<AllowedValue, ", "std::array<AllowedValue, 1")),
                 "kAllowedValues", "size does not equal");
}

// isa.yaml `fp32_constants` (BMM_SCALE) in both generated files, both directions.
BOOST_AUTO_TEST_CASE(fp32_constant_guards_catch_planted_drift) {
  const std::string t = slurp(kGen / "include/moesim/isa/tables.hpp");
  auto c = [&](const std::string& text) { return check_tables_hpp(spec(), text); };
  EXPECT_REPORTS(c(edit(t, "kFp32_BMM_SCALE = 0x3E800000u", "kFp32_BMM_SCALE = 0x3F000000u")),
                 "BMM_SCALE", "tables.hpp 1056964608");
  EXPECT_REPORTS(c(edit(t, "constexpr uint32_t kFp32_BMM_SCALE", "// ")), "BMM_SCALE",
                 "missing from tables.hpp");
  EXPECT_REPORTS(c(edit(t, "constexpr uint32_t kFp32_BMM_SCALE",
                        "constexpr uint32_t kFp32_EXTRA = 0x3F800000u;\n"
                        "constexpr uint32_t kFp32_BMM_SCALE")),
                 "EXTRA", "not in the YAML");
  const std::string v = slurp(kGen / "rtl/moesim_isa_pkg.sv");
  auto cv = [&](const std::string& text) { return check_pkg_sv(spec(), text); };
  EXPECT_REPORTS(cv(edit(v, "FP32_BMM_SCALE = 32'h3E800000", "FP32_BMM_SCALE = 32'h3E000000")),
                 "BMM_SCALE", "moesim_isa_pkg.sv 1040187392");
  EXPECT_REPORTS(cv(edit(v, "localparam logic [31:0] FP32_BMM_SCALE", "// ")), "BMM_SCALE",
                 "missing from moesim_isa_pkg.sv");
  EXPECT_REPORTS(cv(edit(v, "localparam logic [31:0] FP32_BMM_SCALE",
                         "localparam logic [31:0] FP32_EXTRA = 32'h3F800000;\n"
                         "  localparam logic [31:0] FP32_BMM_SCALE")),
                 "EXTRA", "not in the YAML");
}

// isa.yaml `hbm_jitter` (the constants of J(seed, n)) in both generated files and the docs, both
// directions.
BOOST_AUTO_TEST_CASE(hbm_jitter_guards_catch_planted_drift) {
  const std::string t = slurp(kGen / "include/moesim/isa/tables.hpp");
  auto c = [&](const std::string& text) { return check_tables_hpp(spec(), text); };
  EXPECT_REPORTS(c(edit(t, "kHbmJitter_MUL1 = 0x85EBCA6Bu", "kHbmJitter_MUL1 = 0x85EBCA6Cu")),
                 "MUL1", "tables.hpp 2246822508");
  EXPECT_REPORTS(c(edit(t, "constexpr uint32_t kHbmJitter_SHIFT2", "// ")), "SHIFT2",
                 "missing from tables.hpp");
  EXPECT_REPORTS(c(edit(t, "constexpr uint32_t kHbmJitter_GAMMA",
                        "constexpr uint32_t kHbmJitter_EXTRA = 0x00000001u;\n"
                        "constexpr uint32_t kHbmJitter_GAMMA")),
                 "EXTRA", "not in the YAML");
  const std::string v = slurp(kGen / "rtl/moesim_isa_pkg.sv");
  auto cv = [&](const std::string& text) { return check_pkg_sv(spec(), text); };
  EXPECT_REPORTS(
      cv(edit(v, "HBM_JITTER_SHIFT3 = 32'h00000010", "HBM_JITTER_SHIFT3 = 32'h0000000F")), "SHIFT3",
      "moesim_isa_pkg.sv 15");
  EXPECT_REPORTS(cv(edit(v, "localparam logic [31:0] HBM_JITTER_MUL2", "// ")), "MUL2",
                 "missing from moesim_isa_pkg.sv");
  const std::string d = slurp(kGen / "docs/isa.md");
  auto cd = [&](const std::string& text) { return check_isa_md(spec(), text); };
  EXPECT_REPORTS(cd(edit(d, "| `GAMMA` | `0x9E3779B9` |", "| `GAMMA` | `0x9E3779B8` |")), "GAMMA",
                 "isa.md 2654435768");
}

// Stall causes (isa.yaml `stall_causes`) in both generated files and the name table: a cause
// dropped, added or renumbered on one side fails by name.
BOOST_AUTO_TEST_CASE(stall_cause_guards_catch_planted_drift) {
  const std::string t = slurp(kGen / "include/moesim/isa/tables.hpp");
  auto c = [&](const std::string& text) { return check_tables_hpp(spec(), text); };
  EXPECT_REPORTS(c(edit(t, "  Waw = 3,\n", "")), "Waw", "missing from tables.hpp");
  EXPECT_REPORTS(c(edit(t, "  War = 4,\n", "  War = 4,\n  Bank = 5,\n")), "Bank",
                 "not in the YAML");
  EXPECT_REPORTS(c(edit(t, "  Raw = 2,\n", "  Raw = 3,\n")), "Raw", "YAML 2, tables.hpp 3");
  EXPECT_REPORTS(c(edit(t, "{StallCause::War, \"war\"}", "{StallCause::War, \"wra\"}")), "war",
                 "missing from tables.hpp");
  const std::string v = slurp(kGen / "rtl/moesim_isa_pkg.sv");
  auto cv = [&](const std::string& text) { return check_pkg_sv(spec(), text); };
  EXPECT_REPORTS(cv(edit(v, ",\n    STALL_WAW = 3'd3", "")), "WAW",
                 "missing from moesim_isa_pkg.sv");
  EXPECT_REPORTS(cv(edit(v, "STALL_RAW = 3'd2", "STALL_RAW = 3'd5")), "RAW",
                 "YAML 2, moesim_isa_pkg.sv 5");
  EXPECT_REPORTS(cv(edit(v, "STALL_NONE = 3'd0", "STALL_NONE = 3'd0,\n    STALL_BANK = 3'd5")),
                 "BANK", "not in the YAML");
  // The loaded names round-trip through the C++ helpers.
  for (const auto& x : spec().stall_causes()) {
    const auto sc = stall_cause_from_code(x.code);
    BOOST_TEST_REQUIRE(sc.has_value(), x.name);
    BOOST_TEST(stall_cause_name(*sc) == x.name);
  }
  BOOST_TEST(!stall_cause_from_code(spec().stall_causes().size() + 1).has_value());
}

BOOST_AUTO_TEST_CASE(pkg_sv_matches_yaml) {
  EXPECT_CLEAN(check_pkg_sv(spec(), slurp(kGen / "rtl/moesim_isa_pkg.sv")));
}

BOOST_AUTO_TEST_CASE(pkg_sv_guard_catches_planted_drift) {
  const std::string t = slurp(kGen / "rtl/moesim_isa_pkg.sv");
  auto c = [&](const std::string& text) { return check_pkg_sv(spec(), text); };
  EXPECT_REPORTS(c(edit(t, "    OP_V_TOPK = 6'h37,\n", "")), "V_TOPK",
                 "missing from moesim_isa_pkg.sv");
  EXPECT_REPORTS(
      c(edit(t, "    OP_M_MM = 6'h01,\n", "    OP_M_MM = 6'h01,\n    OP_V_BOGUS = 6'h3F,\n")),
      "V_BOGUS", "not in the YAML");
  EXPECT_REPORTS(c(edit(t, "OP_M_MM = 6'h01", "OP_M_MM = 6'h02")), "M_MM",
                 "YAML 1, moesim_isa_pkg.sv 2");
  EXPECT_REPORTS(c(edit(t, "    TRAP_LOOP_UNDERFLOW = 4'd7,\n", "")), "LOOP_UNDERFLOW", "missing");
  EXPECT_REPORTS(c(edit(t, "    TRAP_NONE = 4'd0,\n",
                        "    TRAP_NONE = 4'd0,\n    TRAP_COSMIC_RAY = 4'd10,\n")),
                 "COSMIC_RAY", "not in the YAML");
  EXPECT_REPORTS(c(edit(t, "TRAP_LOOP_COUNT_ZERO = 4'd8", "TRAP_LOOP_COUNT_ZERO = 4'd12")),
                 "LOOP_COUNT_ZERO", "YAML 8");
  EXPECT_REPORTS(c(edit(t, "    STAGE_GATHER = 4'd4,\n", "")), "GATHER", "missing");
  EXPECT_REPORTS(
      c(edit(t, "    STAGE_OTHER = 4'd0,\n", "    STAGE_OTHER = 4'd0,\n    STAGE_BOGUS = 4'd9,\n")),
      "BOGUS", "not in the YAML");
  EXPECT_REPORTS(c(edit(t, "STAGE_NON_MOE = 4'd15", "STAGE_NON_MOE = 4'd14")), "NON_MOE",
                 "YAML 15");
  EXPECT_REPORTS(c(edit(t, "RD_LO = 6;", "RD_LO = 7;")), "RD_LO", "YAML 6");
  EXPECT_REPORTS(c(edit(t, "  localparam int unsigned IMM22_HI = 31;\n", "")), "IMM22_HI",
                 "missing");
  EXPECT_REPORTS(
      c(edit(t, "  localparam int unsigned RD_LO",
             "  localparam int unsigned EXTRA_LO = 1;\n  localparam int unsigned RD_LO")),
      "EXTRA_LO", "not in the YAML");
}

// The per-head matrix-matrix ops (M_BMM 0x03, M_BTMM 0x04, M_BMM_WO 0x05) in both generated
// files: an entry dropped or renumbered on one side fails by name.
BOOST_AUTO_TEST_CASE(head_matrix_opcode_guards_catch_planted_drift) {
  const std::string t = slurp(kGen / "include/moesim/isa/tables.hpp");
  auto c = [&](const std::string& text) { return check_tables_hpp(spec(), text); };
  EXPECT_REPORTS(c(edit(t, "  M_BMM = 0x03,\n", "")), "M_BMM", "missing from tables.hpp");
  EXPECT_REPORTS(c(edit(t, "M_BTMM = 0x04,", "M_BTMM = 0x05,")), "M_BTMM", "YAML 4, tables.hpp 5");
  EXPECT_REPORTS(c(edit(t, "  M_BMM_WO = 0x05,\n", "")), "M_BMM_WO", "missing from tables.hpp");
  const std::string v = slurp(kGen / "rtl/moesim_isa_pkg.sv");
  auto cv = [&](const std::string& text) { return check_pkg_sv(spec(), text); };
  EXPECT_REPORTS(cv(edit(v, "    OP_M_BMM = 6'h03,\n", "")), "M_BMM",
                 "missing from moesim_isa_pkg.sv");
  EXPECT_REPORTS(cv(edit(v, "OP_M_BTMM = 6'h04", "OP_M_BTMM = 6'h03")), "M_BTMM",
                 "YAML 4, moesim_isa_pkg.sv 3");
  EXPECT_REPORTS(cv(edit(v, "OP_M_BMM_WO = 6'h05", "OP_M_BMM_WO = 6'h06")), "M_BMM_WO",
                 "YAML 5, moesim_isa_pkg.sv 6");
}

BOOST_AUTO_TEST_CASE(pkg_sv_guard_catches_planted_unit_drift) {
  const std::string t = slurp(kGen / "rtl/moesim_isa_pkg.sv");
  auto c = [&](const std::string& text) { return check_pkg_sv(spec(), text); };
  EXPECT_REPORTS(c(edit(t, "  localparam int unsigned UNIT_IDX_TOPK = 3;\n", "")), "TOPK",
                 "missing from moesim_isa_pkg.sv");
  EXPECT_REPORTS(c(edit(t, "UNIT_IDX_MATRIX = 4;", "UNIT_IDX_MATRIX = 5;")), "MATRIX",
                 "YAML 4, moesim_isa_pkg.sv 5");
  EXPECT_REPORTS(c(edit(t, "  localparam int unsigned UNIT_IDX_DMA = 5;\n",
                        "  localparam int unsigned UNIT_IDX_DMA = 5;\n"
                        "  localparam int unsigned UNIT_IDX_FPU = 6;\n")),
                 "FPU", "not in the YAML");
  EXPECT_REPORTS(c(edit(t, "NUM_UNITS = 6;", "NUM_UNITS = 5;")), "NUM_UNITS", "does not equal");
}

BOOST_AUTO_TEST_CASE(pkg_sv_guard_catches_planted_runtime_drift) {
  const std::string t = slurp(kGen / "rtl/moesim_isa_pkg.sv");
  auto c = [&](const std::string& text) { return check_pkg_sv(spec(), text); };
  const std::string line = "  localparam int unsigned INSTRUCTION_BUDGET_BITS = 32;\n";
  EXPECT_REPORTS(c(edit(t, line, "")), "INSTRUCTION_BUDGET", "missing from moesim_isa_pkg.sv");
  EXPECT_REPORTS(c(edit(t, "INSTRUCTION_BUDGET_BITS = 32;", "INSTRUCTION_BUDGET_BITS = 31;")),
                 "INSTRUCTION_BUDGET", "YAML 32, moesim_isa_pkg.sv 31");
  EXPECT_REPORTS(c(edit(t, line, line + "  localparam int unsigned RUN_LIMIT_BITS = 8;\n")),
                 "RUN_LIMIT", "not in the YAML");
}

BOOST_AUTO_TEST_CASE(pkg_sv_guard_catches_planted_policy_and_allowed_drift) {
  const std::string t = slurp(kGen / "rtl/moesim_isa_pkg.sv");
  auto c = [&](const std::string& text) { return check_pkg_sv(spec(), text); };
  EXPECT_REPORTS(c(edit(t, "TOPK_HW_RMASK = {4'd1, 4'd0}", "TOPK_HW_RMASK = {4'd2, 4'd0}")),
                 "rmask2.experts", "not in the YAML");
  EXPECT_REPORTS(c(edit(t, "TOPK_HW_RMASK = {4'd1, 4'd0}", "TOPK_HW_RMASK = {4'd2, 4'd0}")),
                 "rmask1.k", "missing from moesim_isa_pkg.sv");
  EXPECT_REPORTS(c(edit(t, "TOPK_HW_E = {32'd128, 32'd32}", "TOPK_HW_E = {32'd64, 32'd32}")),
                 "rmask1.experts", "YAML 128, moesim_isa_pkg.sv 64");
  EXPECT_REPORTS(c(edit(t, "TOPK_HW_E = {32'd128, 32'd32}", "TOPK_HW_E = {32'd32, 32'd128}")),
                 "rmask0.experts", "YAML 32, moesim_isa_pkg.sv 128");
  EXPECT_REPORTS(c(edit(t, "TOPK_HW_K = {32'd8, 32'd4}", "TOPK_HW_K = {32'd4}")),
                 "TOPK_HW_RMASK/E/K", "differ in length");
  EXPECT_REPORTS(c(edit(t, "TOPK_HW_N = 2;", "TOPK_HW_N = 3;")), "TOPK_HW_N", "does not equal");
  EXPECT_REPORTS(c(edit(t, "TOPK_REG_RMASK = 4'd15", "TOPK_REG_RMASK = 4'd14")), "register.rmask",
                 "YAML 15, moesim_isa_pkg.sv 14");
  const std::string prec_line =
      "    if (op == OP_H_STORE_V && !(word[FUNCT_HI:FUNCT_LO] inside {4'd0})) return 1'b0;  // "
      "prec\n";
  EXPECT_REPORTS(c(edit(t, prec_line, "")), "H_STORE_V.FUNCT=0", "missing from moesim_isa_pkg.sv");
  EXPECT_REPORTS(c(edit(t, "OP_H_PREFETCH_V && !(word[R3_HI:R3_LO] inside {4'd0, 4'd1})",
                        "OP_H_PREFETCH_V && !(word[R3_HI:R3_LO] inside {4'd0, 4'd1, 4'd2})")),
                 "H_PREFETCH_V.R3=2", "not in the YAML");
  EXPECT_REPORTS(c(edit(t, "OP_V_TOPK && !(word[R3_HI:R3_LO] inside {4'd0, 4'd1, 4'd15})",
                        "OP_V_TOPK && !(word[R3_HI:R3_LO] inside {4'd0, 4'd1})")),
                 "V_TOPK.R3=15", "missing");
}

BOOST_AUTO_TEST_CASE(vc_files_match_presets) {
  for (const auto& [pn, p] : spec().presets()) {
    fs::path f = kGen / ("rtl/moesim_cfg_" + pn + ".vc");
    EXPECT_CLEAN(check_vc(spec(), pn, slurp(f)));
  }
  const std::string t = slurp(kGen / "rtl/moesim_cfg_tiny.vc");
  EXPECT_REPORTS(check_vc(spec(), "tiny", edit(t, "-GHLEN=4\n", "")), "HLEN", "missing");
  EXPECT_REPORTS(check_vc(spec(), "tiny", edit(t, "-GHLEN=4\n", "-GHLEN=4\n-GEXTRA=1\n")), "EXTRA",
                 "not in the YAML");
  EXPECT_REPORTS(check_vc(spec(), "tiny", edit(t, "-GMLEN=16", "-GMLEN=32")), "MLEN", "YAML 16");
  // A run-time parameter is a port of moe_top, never a Verilator parameter.
  EXPECT_REPORTS(
      check_vc(spec(), "tiny", edit(t, "-GHLEN=4\n", "-GHLEN=4\n-GINSTRUCTION_BUDGET=5\n")),
      "INSTRUCTION_BUDGET", "not in the YAML");
  EXPECT_REPORTS(check_vc(spec(), "tiny", edit(t, "-GHLEN=4\n", "-GHLEN=4\n-GMRAM_TILES=8\n")),
                 "MRAM_TILES", "not in the YAML");
}

BOOST_AUTO_TEST_CASE(isa_md_matches_yaml) {
  const std::string t = slurp(kGen / "docs/isa.md");
  EXPECT_CLEAN(check_isa_md(spec(), t));
  BOOST_TEST(t.find("generated") != std::string::npos);
  EXPECT_REPORTS(check_isa_md(spec(), edit(t, "### V_TOPK\n", "### V_TOPKX\n")), "V_TOPK",
                 "missing");
  EXPECT_REPORTS(check_isa_md(spec(), edit(t, "### V_TOPK\n", "### V_TOPKX\n")), "V_TOPKX",
                 "not in the YAML");
  EXPECT_REPORTS(
      check_isa_md(spec(), edit(t, "### M_MM\n\n- opcode: 0x01", "### M_MM\n\n- opcode: 0x02")),
      "M_MM", "YAML 1");
  auto c = [&](const std::string& text) { return check_isa_md(spec(), text); };
  EXPECT_REPORTS(c(edit(t, "| 1 | 128 | 8 | hardwired |", "| 1 | 128 | 16 | hardwired |")),
                 "rmask1.k", "YAML 8, isa.md 16");
  EXPECT_REPORTS(c(edit(t, "| 0 | 32 | 4 | hardwired |\n", "")), "rmask0.experts", "missing");
  EXPECT_REPORTS(c(edit(t, "| 15 | TOPK_POLICY >> 8", "| 14 | TOPK_POLICY >> 8")), "register.rmask",
                 "YAML 15, isa.md 14");
  EXPECT_REPORTS(c(edit(t, "| no | 0, 1, 15 (", "| no | 0, 1, 2, 15 (")), "V_TOPK.rmask=2",
                 "not in the YAML");
  EXPECT_REPORTS(c(edit(t, "| no | 0 (others", "| no | 1 (others")), "H_PREFETCH_M.prec=0",
                 "missing from isa.md");
  EXPECT_REPORTS(c(edit(t, "| `BMM_SCALE` | `0x3E800000` |", "| `BMM_SCALE` | `0x3F000000` |")),
                 "BMM_SCALE", "YAML 1048576000");
  EXPECT_REPORTS(c(edit(t, "| `BMM_SCALE` | `0x3E800000` |", "| `BMM_SCALX` | `0x3E800000` |")),
                 "BMM_SCALE", "missing");
}

// isa.yaml `control_registers` and the register-file counts in all three generated files: a
// register renamed or renumbered, a reset value, a field position, a helper or a count changed
// on one side fails by name.
BOOST_AUTO_TEST_CASE(control_register_guards_catch_planted_drift) {
  const std::string t = slurp(kGen / "include/moesim/isa/tables.hpp");
  auto c = [&](const std::string& text) { return check_tables_hpp(spec(), text); };
  EXPECT_CLEAN(c(t));
  EXPECT_REPORTS(c(edit(t, "  Stride = 1,\n", "  RowStride = 1,\n")), "Stride",
                 "missing from tables.hpp");
  EXPECT_REPORTS(c(edit(t, "  Stride = 1,\n", "  RowStride = 1,\n")), "RowStride",
                 "not in the YAML");
  EXPECT_REPORTS(c(edit(t, "{CtrlReg::Stride, \"STRIDE\"}", "{CtrlReg::Stride, \"ROW_STRIDE\"}")),
                 "STRIDE", "missing from tables.hpp");
  EXPECT_REPORTS(c(edit(t, "TopkPolicy = 3,", "TopkPolicy = 2,")), "TopkPolicy",
                 "YAML 3, tables.hpp 2");
  EXPECT_REPORTS(c(edit(t, "kCtrlStrideReset = 1u", "kCtrlStrideReset = 0u")), "Stride",
                 "YAML 1, tables.hpp 0");
  EXPECT_REPORTS(c(edit(t, "kCtrlTopkPolicyELo = 8", "kCtrlTopkPolicyELo = 9")), "TopkPolicyE.lo",
                 "YAML 8, tables.hpp 9");
  EXPECT_REPORTS(c(edit(t, "kCtrlTopkPolicyKHi = 7", "kCtrlTopkPolicyKHi = 6")), "TopkPolicyK.hi",
                 "YAML 7, tables.hpp 6");
  EXPECT_REPORTS(c(edit(t, "return (v >> 8) & 0xFFFFFFu;", "return (v >> 8) & 0xFFFFu;")),
                 "topk_policy_e.mask", "YAML 16777215, tables.hpp 65535");
  EXPECT_REPORTS(c(edit(t, "((e & 0xFFFFFFu) << 8)", "((e & 0xFFFFFFu) << 7)")),
                 "pack_topk_policy.e.shift", "YAML 8, tables.hpp 7");
  EXPECT_REPORTS(c(edit(t, "kNumCtrlRegs = 4;", "kNumCtrlRegs = 5;")), "kNumCtrlRegs",
                 "does not equal");
  EXPECT_REPORTS(c(edit(t, "kNumGpRegs = 16;", "kNumGpRegs = 32;")), "gp",
                 "YAML 16, tables.hpp 32");
  EXPECT_REPORTS(c(edit(t, "constexpr unsigned kNumAddrRegs = 8;\n", "")), "addr",
                 "missing from tables.hpp");

  const std::string v = slurp(kGen / "rtl/moesim_isa_pkg.sv");
  auto cv = [&](const std::string& text) { return check_pkg_sv(spec(), text); };
  EXPECT_CLEAN(cv(v));
  EXPECT_REPORTS(cv(edit(v, "    CTRL_STRIDE = 2'd1,\n", "    CTRL_ROW_STRIDE = 2'd1,\n")),
                 "STRIDE", "missing from moesim_isa_pkg.sv");
  EXPECT_REPORTS(cv(edit(v, "    CTRL_STRIDE = 2'd1,\n", "    CTRL_ROW_STRIDE = 2'd1,\n")),
                 "ROW_STRIDE", "not in the YAML");
  EXPECT_REPORTS(cv(edit(v, "CTRL_V_MASK = 2'd2", "CTRL_V_MASK = 2'd1")), "V_MASK",
                 "YAML 2, moesim_isa_pkg.sv 1");
  EXPECT_REPORTS(
      cv(edit(v, "CTRL_STRIDE_RESET = 32'h00000001", "CTRL_STRIDE_RESET = 32'h00000000")), "STRIDE",
      "YAML 1, moesim_isa_pkg.sv 0");
  EXPECT_REPORTS(cv(edit(v, "CTRL_TOPK_POLICY_E_LO = 8;", "CTRL_TOPK_POLICY_E_LO = 9;")),
                 "TOPK_POLICY_E_LO", "YAML 8, moesim_isa_pkg.sv 9");
  EXPECT_REPORTS(cv(edit(v, "function automatic logic [23:0] topk_policy_e",
                         "function automatic logic [15:0] topk_policy_e")),
                 "topk_policy_e=TOPK_POLICY_E", "YAML 24, moesim_isa_pkg.sv 16");
  EXPECT_REPORTS(cv(edit(v, "return v[CTRL_TOPK_POLICY_E_HI:CTRL_TOPK_POLICY_E_LO];",
                         "return v[CTRL_TOPK_POLICY_K_HI:CTRL_TOPK_POLICY_K_LO];")),
                 "topk_policy_e=TOPK_POLICY_E", "missing from moesim_isa_pkg.sv");
  EXPECT_REPORTS(cv(edit(v, "v[CTRL_TOPK_POLICY_K_HI:CTRL_TOPK_POLICY_K_LO] = k;",
                         "v[CTRL_TOPK_POLICY_K_HI:CTRL_TOPK_POLICY_E_LO] = k;")),
                 "pack_topk_policy.k=TOPK_POLICY_K", "YAML 1, moesim_isa_pkg.sv 0");
  EXPECT_REPORTS(cv(edit(v, "NUM_CTRL_REGS = 4;", "NUM_CTRL_REGS = 3;")), "NUM_CTRL_REGS",
                 "does not equal");
  EXPECT_REPORTS(cv(edit(v, "CTRL_SEL_W = 2;", "CTRL_SEL_W = 3;")), "CTRL_SEL_W", "does not hold");
  EXPECT_REPORTS(cv(edit(v, "NUM_FP_REGS = 8;", "NUM_FP_REGS = 16;")), "fp",
                 "YAML 8, moesim_isa_pkg.sv 16");

  const std::string d = slurp(kGen / "docs/isa.md");
  auto cd = [&](const std::string& text) { return check_isa_md(spec(), text); };
  EXPECT_CLEAN(cd(d));
  EXPECT_REPORTS(cd(edit(d, "| 1 | `STRIDE` |", "| 1 | `ROW_STRIDE` |")), "STRIDE",
                 "missing from isa.md");
  EXPECT_REPORTS(cd(edit(d, "| 1 | `STRIDE` |", "| 1 | `ROW_STRIDE` |")), "ROW_STRIDE",
                 "not in the YAML");
  EXPECT_REPORTS(cd(edit(d, "| 1 | `STRIDE` | 1 |", "| 1 | `STRIDE` | 0 |")), "STRIDE",
                 "YAML 1, isa.md 0");
  EXPECT_REPORTS(cd(edit(d, "| 3 | `TOPK_POLICY` |", "| 2 | `TOPK_POLICY` |")), "TOPK_POLICY",
                 "YAML 3, isa.md 2");
  EXPECT_REPORTS(cd(edit(d, "`E` [31:8]", "`E` [15:8]")), "TOPK_POLICY.E.hi", "YAML 31, isa.md 15");
  EXPECT_REPORTS(cd(edit(d, "| `addr` | `aN` | 8 |", "| `addr` | `aN` | 4 |")), "addr",
                 "YAML 8, isa.md 4");
}

// The same guards against a planted change in isa.yaml itself: a spec loaded from a copy of the
// YAML with one control-register fact or register-file count changed no longer matches the
// artefacts generated from the real YAML, and each check names what changed.
BOOST_AUTO_TEST_CASE(control_register_guards_catch_planted_yaml_change) {
  fs::path dir = fs::temp_directory_path() / ("moesim_ctrl_plant_" + std::to_string(::getpid()));
  const std::string isa = slurp(spec().dir / "isa.yaml");
  const std::string tables = slurp(kGen / "include/moesim/isa/tables.hpp");
  const std::string pkg = slurp(kGen / "rtl/moesim_isa_pkg.sv");
  const std::string md = slurp(kGen / "docs/isa.md");
  struct Plant {
    const char* from;
    const char* to;
    const char* cpp;  ///< name the tables.hpp check reports
    const char* sv;   ///< name the package check reports
    const char* doc;  ///< name the isa.md check reports
  };
  const Plant plants[] = {
      {"{name: STRIDE, index: 1,", "{name: ROW_STRIDE, index: 1,", "Stride", "STRIDE", "STRIDE"},
      {"{name: STRIDE, index: 1, reset: 1,", "{name: STRIDE, index: 1, reset: 2,", "Stride",
       "STRIDE", "STRIDE"},
      {"{name: E, hi: 31, lo: 8,", "{name: E, hi: 31, lo: 9,", "TopkPolicyE.lo", "TOPK_POLICY_E_LO",
       "TOPK_POLICY.E.lo"},
      {"fp: {prefix: f, count: 8,", "fp: {prefix: f, count: 16,", "fp", "fp", "fp"},
  };
  for (const Plant& pl : plants) {
    fs::remove_all(dir);
    fs::create_directories(dir);
    for (const char* f : {"machine.yaml", "stages.yaml"}) fs::copy_file(spec().dir / f, dir / f);
    std::ofstream(dir / "isa.yaml") << edit(isa, pl.from, pl.to);
    const Spec planted = Spec::load(dir);
    EXPECT_REPORTS(check_tables_hpp(planted, tables), pl.cpp, "tables.hpp");
    EXPECT_REPORTS(check_pkg_sv(planted, pkg), pl.sv, "moesim_isa_pkg.sv");
    EXPECT_REPORTS(check_isa_md(planted, md), pl.doc, "isa.md");
  }
  fs::remove_all(dir);
}

namespace {
struct Run {
  int status;
  std::string out;
};
Run run_gen(const fs::path& spec_dir, const fs::path& out) {
  fs::path log = fs::temp_directory_path() / ("moesim_gen_log_" + std::to_string(::getpid()));
  std::string cmd = std::string("\"") + MOESIM_TEST_ISA_GEN + "\" --spec-dir \"" +
                    spec_dir.string() + "\" --out \"" + out.string() + "\" > \"" + log.string() +
                    "\" 2>&1";
  int rc = std::system(cmd.c_str());
  Run r{WIFEXITED(rc) ? WEXITSTATUS(rc) : -1, slurp(log)};
  fs::remove(log);
  return r;
}
}  // namespace

BOOST_AUTO_TEST_CASE(generator_output_is_current) {
  // Re-running the generator on the YAML reproduces the configure-time artefacts byte for byte.
  fs::path out = fs::temp_directory_path() / ("moesim_gen_out_" + std::to_string(::getpid()));
  fs::remove_all(out);
  Run r = run_gen(spec().dir, out);
  BOOST_REQUIRE_MESSAGE(r.status == 0, r.out);
  int files = 0;
  for (const auto& e : fs::recursive_directory_iterator(out)) {
    if (!e.is_regular_file()) continue;
    fs::path rel = fs::relative(e.path(), out);
    BOOST_TEST(slurp(e.path()) == slurp(kGen / rel), "stale artefact " << rel);
    ++files;
  }
  // tables.hpp, bf16_tables.cpp, 3 ROM hex files, the package, isa.md, one .vc per preset.
  BOOST_TEST(files == 7 + static_cast<int>(spec().presets().size()));
  fs::remove_all(out);
}

BOOST_AUTO_TEST_CASE(generator_reports_spec_errors) {
  fs::path bad = fs::temp_directory_path() / ("moesim_gen_bad_" + std::to_string(::getpid()));
  fs::create_directories(bad);
  for (const char* f : {"isa.yaml", "machine.yaml", "stages.yaml"})
    fs::copy_file(spec().dir / f, bad / f, fs::copy_options::overwrite_existing);
  std::string isa = slurp(bad / "isa.yaml");
  isa.replace(isa.find("opcode: 0x0F"), 12, "opcode: 0x0D");
  std::ofstream(bad / "isa.yaml") << isa;
  Run r = run_gen(bad, bad / "out");
  BOOST_TEST(r.status == 1);
  // The renumbered entry's index in isa.yaml (the one whose opcode was 0x0F).
  size_t idx = 0;
  while (idx < spec().instructions().size() && spec().instructions()[idx].opcode != 0x0F) ++idx;
  BOOST_TEST(r.out.find("instructions[" + std::to_string(idx) +
                        "].opcode: opcode 13 already used by V_ADD_VV") != std::string::npos,
             r.out);
  BOOST_TEST(!fs::exists(bad / "out"));
  Run u = run_gen(bad, "");
  BOOST_TEST(u.status == 2);
  fs::remove_all(bad);
}
