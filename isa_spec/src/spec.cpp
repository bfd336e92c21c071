// Loader and validator of isa_spec/{isa,machine,stages}.yaml (spec.hpp).
//
// Every error is a SpecError "<file>: <key path>: <message> (line N)", e.g.
// ".../isa.yaml: instructions[3].opcode: expected an integer, got 'x1' (line 57)".
#include "moesim/isa/spec.hpp"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <set>

#include "moesim/isa/naming.hpp"
#include "moesim/isa/numerics.hpp"
#include "moesim/isa/usage_error.hpp"
#include "moesim/isa/yaml_reader.hpp"

namespace moesim::isa {

namespace {

/// A YAML node with the file and key path it came from, for error messages.
struct At {
  YAML::Node node;
  std::string file;
  std::string path;

  [[noreturn]] void fail(const std::string& msg) const {
    std::string where = file + ": " + (path.empty() ? std::string("<top>") : path) + ": " + msg;
    if (node.IsDefined() && node.Mark().line >= 0)
      where += " (line " + std::to_string(node.Mark().line + 1) + ")";
    throw SpecError(where);
  }
  // Read-only subscripts (the const overloads never modify or convert the node).
  const YAML::Node& cnode() const { return node; }
  At key(const std::string& k) const {
    return At{cnode()[k], file, path.empty() ? k : path + "." + k};
  }
  At idx(size_t i) const { return At{cnode()[i], file, path + "[" + std::to_string(i) + "]"}; }
  bool has(const std::string& k) const { return node.IsMap() && cnode()[k].IsDefined(); }

  At req(const std::string& k) const {
    if (!node.IsMap()) fail("expected a mapping");
    if (!cnode()[k].IsDefined() || cnode()[k].IsNull()) {
      At{node, file, path.empty() ? k : path + "." + k}.fail("missing required key");
    }
    return key(k);
  }
  void only_keys(std::initializer_list<const char*> allowed) const {
    if (!node.IsMap()) fail("expected a mapping");
    for (const auto& kv : node) {
      std::string k = kv.first.as<std::string>();
      bool ok = false;
      for (const char* a : allowed) ok = ok || k == a;
      if (!ok) At{kv.first, file, path.empty() ? k : path + "." + k}.fail("unknown key");
    }
  }
  std::string str() const {
    if (!node.IsScalar()) fail("expected a string");
    return node.Scalar();
  }
  int64_t integer() const {
    if (!node.IsScalar()) fail("expected an integer");
    const std::string& s = node.Scalar();
    bool hex = s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X');
    size_t start = hex ? 2 : (s.size() > 0 && s[0] == '-' ? 1 : 0);
    bool ok = start < s.size();
    for (size_t i = start; i < s.size() && ok; ++i)
      ok = hex ? std::isxdigit(static_cast<unsigned char>(s[i])) != 0
               : std::isdigit(static_cast<unsigned char>(s[i])) != 0;
    if (!ok) fail("expected an integer, got '" + s + "'");
    errno = 0;
    char* end = nullptr;
    long long v = std::strtoll(s.c_str(), &end, hex ? 16 : 10);
    if (errno == ERANGE) fail("integer out of range: '" + s + "'");
    return v;
  }
  int64_t integer_in(int64_t lo, int64_t hi) const {
    int64_t v = integer();
    if (v < lo || v > hi)
      fail("value " + std::to_string(v) + " outside [" + std::to_string(lo) + ", " +
           std::to_string(hi) + "]");
    return v;
  }
  bool boolean() const {
    if (!node.IsScalar()) fail("expected true or false");
    const std::string& s = node.Scalar();
    if (s == "true") return true;
    if (s == "false") return false;
    fail("expected true or false, got '" + s + "'");
  }
  void seq() const {
    if (!node.IsSequence()) fail("expected a sequence");
  }
  void map() const {
    if (!node.IsMap()) fail("expected a mapping");
  }
};

bool is_identifier(const std::string& s) {
  if (s.empty() || !(std::isalpha(static_cast<unsigned char>(s[0])) || s[0] == '_')) return false;
  for (char c : s)
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_')) return false;
  return true;
}

At load_file(const std::filesystem::path& p) {
  std::string name = p.string();
  try {  // a regular file, no alias, no key twice, bounded (yaml_reader.hpp)
    return At{load_yaml_file(name), name, ""};
  } catch (const UsageError& e) {
    throw SpecError(e.what());
  }
}

/// An instruction's `plena:` map (spec.hpp, PlenaSyntaxSpec); `is` has its operands.
PlenaSyntaxSpec plena_syntax(const At& pl, const InstrSpec& is,
                             const std::map<std::string, Field>& fields) {
  pl.only_keys({"aliases", "trailing_zero", "unencoded", "read_as"});
  PlenaSyntaxSpec ps;
  auto operand = [&](const At& a) -> const OperandSpec& {
    const std::string n = a.str();
    for (const OperandSpec& o : is.operands)
      if (o.name == n) return o;
    a.fail("no operand '" + n + "' in " + is.mnemonic);
  };
  if (pl.has("aliases")) {
    At al = pl.key("aliases");
    al.seq();
    for (size_t k = 0; k < al.node.size(); ++k) {
      ps.aliases.push_back(al.idx(k).str());
      if (!is_identifier(ps.aliases.back())) al.idx(k).fail("an alias must be an identifier");
    }
  }
  if (pl.has("trailing_zero")) ps.trailing_zero = pl.key("trailing_zero").boolean();
  if (pl.has("unencoded")) {
    At un = pl.key("unencoded");
    un.seq();
    for (size_t k = 0; k < un.node.size(); ++k) {
      At u = un.idx(k);
      u.only_keys({"operand", "why", "effect"});
      const OperandSpec& o = operand(u.req("operand"));
      if (o.kind != OperandKind::Imm || !o.optional)
        u.key("operand").fail("an unencoded operand must be an optional imm operand");
      ps.unencoded.push_back({o.name, u.req("why").str(), u.req("effect").str()});
    }
  }
  if (pl.has("read_as")) {
    At ra = pl.key("read_as");
    ra.seq();
    for (size_t k = 0; k < ra.node.size(); ++k) {
      At r = ra.idx(k);
      r.only_keys({"operand", "value", "as", "doc"});
      const OperandSpec& o = operand(r.req("operand"));
      if (o.kind != OperandKind::Imm) r.key("operand").fail("read_as applies to imm operands");
      const int64_t max = (int64_t{1} << fields.at(o.field).width()) - 1;
      PlenaSyntaxSpec::ReadAs x{o.name, static_cast<uint32_t>(r.req("value").integer_in(0, max)),
                                static_cast<uint32_t>(r.req("as").integer_in(0, max)),
                                r.req("doc").str()};
      if (o.permits(x.value))
        r.key("value").fail("value " + std::to_string(x.value) + " is already legal for " + o.name);
      if (!o.permits(x.as))
        r.key("as").fail("value " + std::to_string(x.as) + " is reserved for " + o.name);
      ps.read_as.push_back(x);
    }
  }
  return ps;
}

// Fields encoding.hpp's Decoded exposes; the spec must define each of them.
const char* const kRequiredFields[] = {"opcode", "rd",    "rs1",   "rs2",
                                       "r3",     "funct", "imm18", "imm22"};

}  // namespace

class SpecLoader {
 public:
  static void isa(Spec& s, const At& top);
  static void machine(Spec& s, const At& top);
  static void stages(Spec& s, const At& top);
  static void cross_check(Spec& s, const At& isa_top);
};

void SpecLoader::isa(Spec& s, const At& top) {
  top.only_keys({"version", "word_bits", "fields", "operand_kinds", "units", "traps",
                 "stall_causes", "latency_vars", "address_vars", "instructions", "topk_policies",
                 "fp32_constants", "hbm_jitter", "control_registers"});
  s.version_ = top.req("version").integer_in(1, 1000000);
  s.word_bits_ = static_cast<unsigned>(top.req("word_bits").integer_in(32, 32));

  At fields = top.req("fields");
  fields.map();
  for (const auto& kv : fields.node) {
    std::string name = kv.first.as<std::string>();
    At f = fields.key(name);
    if (!is_identifier(name)) f.fail("field name must be an identifier");
    f.only_keys({"hi", "lo"});
    Field fd;
    fd.name = name;
    fd.hi = static_cast<unsigned>(f.req("hi").integer_in(0, s.word_bits_ - 1));
    fd.lo = static_cast<unsigned>(f.req("lo").integer_in(0, s.word_bits_ - 1));
    if (fd.lo > fd.hi) f.fail("lo > hi");
    s.fields_[name] = fd;
  }
  for (const char* r : kRequiredFields)
    if (!s.fields_.count(r)) fields.fail(std::string("missing field '") + r + "'");
  if (s.fields_["opcode"].lo != 0)
    fields.key("opcode").fail("the opcode field must start at bit 0");

  At kinds = top.req("operand_kinds");
  kinds.map();
  const std::pair<const char*, OperandKind> known[] = {{"gp", OperandKind::Gp},
                                                       {"fp", OperandKind::Fp},
                                                       {"addr", OperandKind::Addr},
                                                       {"imm", OperandKind::Imm},
                                                       {"zero", OperandKind::Zero}};
  for (const auto& kv : kinds.node) {
    std::string name = kv.first.as<std::string>();
    At k = kinds.key(name);
    OperandKindSpec ks;
    ks.name = name;
    bool found = false;
    for (const auto& [n, kind] : known)
      if (name == n) ks.kind = kind, found = true;
    if (!found) k.fail("unknown operand kind (known: gp, fp, addr, imm, zero)");
    bool reg =
        ks.kind == OperandKind::Gp || ks.kind == OperandKind::Fp || ks.kind == OperandKind::Addr;
    if (reg) {
      k.only_keys({"prefix", "count", "doc"});
      ks.prefix = k.req("prefix").str();
      if (ks.prefix.empty() || !is_identifier(ks.prefix)) k.key("prefix").fail("bad prefix");
      ks.count = static_cast<unsigned>(k.req("count").integer_in(1, 1 << 16));
    } else {
      k.only_keys({"doc"});
    }
    if (k.has("doc")) ks.doc = k.key("doc").str();
    s.kinds_.push_back(ks);
  }
  for (const auto& [n, kind] : known) {
    bool present = false;
    for (const auto& ks : s.kinds_) present = present || ks.kind == kind;
    if (!present) kinds.fail(std::string("missing operand kind '") + n + "'");
  }
  for (size_t i = 0; i < s.kinds_.size(); ++i)
    for (size_t j = i + 1; j < s.kinds_.size(); ++j)
      if (!s.kinds_[i].prefix.empty() && s.kinds_[i].prefix == s.kinds_[j].prefix)
        kinds.key(s.kinds_[j].name).fail("prefix '" + s.kinds_[j].prefix + "' used twice");

  At units = top.req("units");
  units.seq();
  for (size_t i = 0; i < units.node.size(); ++i) {
    std::string u = units.idx(i).str();
    for (const auto& v : s.units_)
      if (v == u) units.idx(i).fail("duplicate unit '" + u + "'");
    s.units_.push_back(u);
  }

  At traps = top.req("traps");
  traps.seq();
  std::set<std::string> trap_names;
  std::set<int64_t> trap_codes;
  for (size_t i = 0; i < traps.node.size(); ++i) {
    At t = traps.idx(i);
    t.only_keys({"name", "code", "doc"});
    TrapSpec ts;
    ts.name = t.req("name").str();
    if (!is_identifier(ts.name)) t.key("name").fail("trap name must be an identifier");
    if (ts.name == "none" || ts.name == "None") t.key("name").fail("'none' is reserved for code 0");
    ts.code = static_cast<uint8_t>(t.req("code").integer_in(1, 255));
    if (t.has("doc")) ts.doc = t.key("doc").str();
    if (!trap_names.insert(ts.name).second) t.key("name").fail("duplicate trap '" + ts.name + "'");
    if (!trap_codes.insert(ts.code).second)
      t.key("code").fail("duplicate trap code " + std::to_string(ts.code));
    s.traps_.push_back(ts);
  }

  At stalls = top.req("stall_causes");
  stalls.seq();
  std::set<std::string> stall_names;
  for (size_t i = 0; i < stalls.node.size(); ++i) {
    At t = stalls.idx(i);
    t.only_keys({"name", "code", "doc"});
    StallCauseSpec sc;
    sc.name = t.req("name").str();
    if (!is_identifier(sc.name)) t.key("name").fail("stall cause name must be an identifier");
    if (sc.name == "none") t.key("name").fail("'none' is reserved for code 0");
    sc.code = static_cast<uint8_t>(t.req("code").integer_in(1, 7));
    if (static_cast<size_t>(sc.code) != i + 1)
      t.key("code").fail("stall cause codes are 1, 2, ... in file order (expected " +
                         std::to_string(i + 1) + ")");
    if (t.has("doc")) sc.doc = t.key("doc").str();
    if (!stall_names.insert(sc.name).second)
      t.key("name").fail("duplicate stall cause '" + sc.name + "'");
    s.stall_causes_.push_back(sc);
  }

  At lv = top.req("latency_vars");
  lv.map();
  for (const auto& kv : lv.node) {
    std::string name = kv.first.as<std::string>();
    if (!is_identifier(name)) lv.key(name).fail("latency variable must be an identifier");
    s.latency_vars_[name] = lv.key(name).str();
  }
  At av = top.req("address_vars");
  av.map();
  for (const auto& kv : av.node) {
    const std::string name = kv.first.as<std::string>();
    if (!is_identifier(name)) av.key(name).fail("address variable must be an identifier");
    s.address_vars_[name] = av.key(name).str();
  }

  At ins = top.req("instructions");
  ins.seq();
  const Field& opf = s.fields_["opcode"];
  std::set<std::string> mnems;
  std::map<int64_t, std::string> ops;
  for (size_t i = 0; i < ins.node.size(); ++i) {
    At in = ins.idx(i);
    in.only_keys({"mnemonic", "opcode", "unit", "operands", "semantics", "traps", "latency",
                  "accesses", "plena"});
    InstrSpec is;
    is.mnemonic = in.req("mnemonic").str();
    if (!is_identifier(is.mnemonic)) in.key("mnemonic").fail("mnemonic must be an identifier");
    if (!mnems.insert(is.mnemonic).second)
      in.key("mnemonic").fail("duplicate mnemonic '" + is.mnemonic + "'");
    is.opcode = static_cast<uint8_t>(in.req("opcode").integer_in(1, (1 << opf.width()) - 1));
    if (ops.count(is.opcode))
      in.key("opcode").fail("opcode " + std::to_string(is.opcode) + " already used by " +
                            ops[is.opcode]);
    ops[is.opcode] = is.mnemonic;
    is.unit = in.req("unit").str();
    bool unit_ok = false;
    for (const auto& u : s.units_) unit_ok = unit_ok || u == is.unit;
    if (!unit_ok) in.key("unit").fail("unknown unit '" + is.unit + "'");

    At opsn = in.req("operands");
    opsn.seq();
    uint32_t used = static_cast<uint32_t>(((uint64_t{1} << opf.width()) - 1) << opf.lo);
    std::set<std::string> opnames;
    bool seen_optional = false;
    for (size_t j = 0; j < opsn.node.size(); ++j) {
      At o = opsn.idx(j);
      o.only_keys({"name", "field", "kind", "optional", "allowed"});
      OperandSpec os;
      os.name = o.req("name").str();
      if (!opnames.insert(os.name).second)
        o.key("name").fail("duplicate operand '" + os.name + "'");
      os.field = o.req("field").str();
      auto fit = s.fields_.find(os.field);
      if (fit == s.fields_.end()) o.key("field").fail("unknown field '" + os.field + "'");
      std::string kind = o.req("kind").str();
      bool kind_ok = false;
      for (const auto& ks : s.kinds_)
        if (ks.name == kind) os.kind = ks.kind, kind_ok = true;
      if (!kind_ok) o.key("kind").fail("unknown operand kind '" + kind + "'");
      if (o.has("optional")) os.optional = o.key("optional").boolean();
      if (seen_optional && !os.optional) o.fail("a required operand cannot follow an optional one");
      seen_optional = seen_optional || os.optional;
      const Field& f = fit->second;
      if (o.has("allowed")) {
        At al = o.key("allowed");
        al.seq();
        if (al.node.size() == 0) al.fail("empty list (omit `allowed` to allow every value)");
        if (os.kind != OperandKind::Imm) al.fail("only imm operands take an `allowed` list");
        for (size_t k = 0; k < al.node.size(); ++k) {
          auto v = static_cast<uint32_t>(al.idx(k).integer_in(0, (int64_t{1} << f.width()) - 1));
          if (std::find(os.allowed.begin(), os.allowed.end(), v) != os.allowed.end())
            al.idx(k).fail("value " + std::to_string(v) + " listed twice");
          os.allowed.push_back(v);
        }
        std::sort(os.allowed.begin(), os.allowed.end());
      }
      uint32_t bits = static_cast<uint32_t>(((uint64_t{1} << f.width()) - 1) << f.lo);
      if (bits & used)
        o.key("field").fail("field '" + os.field + "' overlaps another operand or the opcode");
      used |= bits;
      for (const auto& ks : s.kinds_) {
        if (ks.kind == os.kind && ks.count > 0 && (uint64_t{1} << f.width()) < ks.count)
          o.key("field").fail("field '" + os.field + "' is too narrow for " +
                              std::to_string(ks.count) + " registers");
      }
      is.operands.push_back(os);
    }
    if (in.has("plena")) is.plena = plena_syntax(in.key("plena"), is, s.fields_);
    is.semantics = in.req("semantics").str();
    At tr = in.req("traps");
    tr.seq();
    for (size_t j = 0; j < tr.node.size(); ++j) {
      std::string t = tr.idx(j).str();
      if (!trap_names.count(t)) tr.idx(j).fail("unknown trap '" + t + "'");
      is.traps.push_back(t);
    }
    At lat = in.req("latency");
    is.latency_text = lat.str();
    try {
      is.latency = Expr::parse(is.latency_text);
    } catch (const ExprError& e) {
      lat.fail(e.what());
    }
    At acc = in.req("accesses");
    acc.seq();
    for (size_t j = 0; j < acc.node.size(); ++j) {
      At a = acc.idx(j);
      a.only_keys({"space", "access", "address", "what"});
      AccessSpec as;
      as.space = a.req("space").str();
      // The names of isa::Space (trace.hpp's space_name; the generator compiles this file
      // without trace.hpp, whose tables.hpp it generates). test_spec checks the two agree.
      bool space_ok = false;
      for (const char* sp : {"vram", "mram", "fp_sram", "int_sram", "hbm"})
        space_ok = space_ok || as.space == sp;
      if (!space_ok) a.key("space").fail("unknown memory space '" + as.space + "'");
      as.access = a.req("access").str();
      if (as.access != "read" && as.access != "write" && as.access != "read_write")
        a.key("access").fail("expected read, write or read_write, got '" + as.access + "'");
      as.what = a.req("what").str();
      try {
        as.address = Expr::parse(a.req("address").str());
      } catch (const ExprError& e) {
        a.key("address").fail(e.what());
      }
      is.accesses.push_back(std::move(as));
    }
    s.instrs_.push_back(std::move(is));
  }
  // A PLENA alias names one instruction: no mnemonic, no other alias.
  for (size_t i = 0; i < s.instrs_.size(); ++i)
    for (size_t k = 0; k < s.instrs_[i].plena.aliases.size(); ++k) {
      const std::string& a = s.instrs_[i].plena.aliases[k];
      if (mnems.count(a) != 0 || s.by_plena_alias(a) != &s.instrs_[i] ||
          std::count(s.instrs_[i].plena.aliases.begin(), s.instrs_[i].plena.aliases.end(), a) > 1)
        ins.idx(i).key("plena").key("aliases").idx(k).fail("alias '" + a +
                                                           "' already names an instruction");
    }

  // Control registers: dense indices in file order, 32-bit reset values and fields, each written
  // by one control instruction.
  At cr = top.req("control_registers");
  cr.seq();
  if (cr.node.size() == 0) cr.fail("no control registers");
  for (size_t i = 0; i < cr.node.size(); ++i) {
    At e = cr.idx(i);
    e.only_keys({"name", "index", "reset", "written_by", "doc", "fields"});
    CtrlRegSpec r;
    r.name = e.req("name").str();
    if (!is_identifier(r.name) || upper_name(r.name) != r.name)
      e.key("name").fail("must be an upper-case identifier");
    for (const auto& q : s.ctrl_regs_)
      if (q.name == r.name) e.key("name").fail("duplicate control register '" + r.name + "'");
    r.index = static_cast<uint8_t>(e.req("index").integer_in(0, 255));
    if (r.index != i)
      e.key("index").fail("index " + std::to_string(r.index) + " of " + r.name +
                          ": control registers are numbered 0, 1, ... in file order (expected " +
                          std::to_string(i) + ")");
    r.reset = static_cast<uint32_t>(e.req("reset").integer_in(0, 0xFFFFFFFF));
    r.written_by = e.req("written_by").str();
    const InstrSpec* w = nullptr;
    for (const auto& is : s.instrs_)
      if (is.mnemonic == r.written_by) w = &is;
    if (w == nullptr) e.key("written_by").fail("unknown instruction '" + r.written_by + "'");
    if (w->unit != "control")
      e.key("written_by").fail(r.written_by + " is not a control-unit instruction");
    for (const auto& q : s.ctrl_regs_)
      if (q.written_by == r.written_by)
        e.key("written_by").fail(r.written_by + " already writes " + q.name);
    r.doc = e.req("doc").str();
    if (e.has("fields")) {
      At fs = e.key("fields");
      fs.seq();
      if (fs.node.size() == 0) fs.fail("empty list (omit `fields` for a single-quantity register)");
      uint64_t used = 0;
      for (size_t j = 0; j < fs.node.size(); ++j) {
        At f = fs.idx(j);
        f.only_keys({"name", "hi", "lo", "doc"});
        CtrlFieldSpec fd;
        fd.name = f.req("name").str();
        if (!is_identifier(fd.name)) f.key("name").fail("field name must be an identifier");
        for (const auto& q : r.fields)
          if (upper_name(q.name) == upper_name(fd.name))
            f.key("name").fail("duplicate field '" + fd.name + "' (names differ in case only)");
        fd.hi = static_cast<unsigned>(f.req("hi").integer_in(0, 31));
        fd.lo = static_cast<unsigned>(f.req("lo").integer_in(0, 31));
        if (fd.lo > fd.hi) f.fail("lo > hi");
        const uint64_t bits = ((uint64_t{1} << fd.width()) - 1) << fd.lo;
        if (bits & used) f.fail("field '" + fd.name + "' overlaps another field of " + r.name);
        used |= bits;
        fd.doc = f.req("doc").str();
        r.fields.push_back(fd);
      }
    }
    s.ctrl_regs_.push_back(r);
  }

  // V_TOPK's policies: rmask -> hardwired (E, k) or the policy register. They are the allowed
  // values of V_TOPK's rmask operand.
  At tp = top.req("topk_policies");
  tp.seq();
  OperandSpec* rmask = nullptr;
  size_t topk_index = 0;
  for (size_t i = 0; i < s.instrs_.size(); ++i)
    if (s.instrs_[i].mnemonic == "V_TOPK") {
      topk_index = i;
      for (auto& o : s.instrs_[i].operands)
        if (o.name == "rmask" && o.kind == OperandKind::Imm) rmask = &o;
    }
  if (rmask == nullptr) tp.fail("needs an instruction V_TOPK with an imm operand 'rmask'");
  if (!rmask->allowed.empty()) {
    At ops = ins.idx(topk_index).key("operands");
    for (size_t j = 0; j < ops.node.size(); ++j)
      if (ops.idx(j).has("allowed") && ops.idx(j).key("name").str() == "rmask")
        ops.idx(j).key("allowed").fail("V_TOPK rmask takes its allowed values from topk_policies");
  }
  const Field& rf = s.fields_[rmask->field];
  bool have_register = false;
  for (size_t i = 0; i < tp.node.size(); ++i) {
    At e = tp.idx(i);
    e.only_keys({"rmask", "experts", "k", "register"});
    TopkPolicySpec ps;
    ps.rmask = static_cast<uint8_t>(e.req("rmask").integer_in(0, (int64_t{1} << rf.width()) - 1));
    for (const auto& q : s.topk_policies_)
      if (q.rmask == ps.rmask)
        e.key("rmask").fail("rmask " + std::to_string(ps.rmask) + " has two policies");
    if (e.has("register")) {
      if (e.has("experts") || e.has("k"))
        e.fail("a register policy takes (E, k) from the register: no experts or k");
      ps.reg = e.key("register").str();
      const CtrlRegSpec* reg = nullptr;
      for (const auto& q : s.ctrl_regs_)
        if (q.name == ps.reg) reg = &q;
      if (reg == nullptr)
        e.key("register")
            .fail("unknown policy register '" + ps.reg + "' (not in control_registers)");
      if (reg->field("E") == nullptr || reg->field("k") == nullptr)
        e.key("register").fail("policy register " + ps.reg + " needs fields E and k");
      if (have_register) e.key("register").fail("a second register policy");
      have_register = true;
    } else {
      ps.experts = static_cast<uint32_t>(e.req("experts").integer_in(1, 0xFFFF));
      ps.k = static_cast<uint32_t>(e.req("k").integer_in(1, 0xFF));
      if (ps.k > ps.experts) e.key("k").fail("k > experts");
      for (const auto& q : s.topk_policies_)
        if (q.hardwired() && q.experts == ps.experts && q.k == ps.k)
          e.fail("(experts, k) = (" + std::to_string(ps.experts) + ", " + std::to_string(ps.k) +
                 ") already hardwired for rmask " + std::to_string(q.rmask));
    }
    s.topk_policies_.push_back(ps);
    rmask->allowed.push_back(ps.rmask);
  }
  if (!have_register) tp.fail("needs one register policy {rmask: N, register: TOPK_POLICY}");
  std::sort(rmask->allowed.begin(), rmask->allowed.end());

  // A list of named 32-bit constants: `fp32_constants` and `hbm_jitter`.
  auto constants = [&](const char* key, std::vector<Fp32Constant>& out) {
    if (!top.has(key)) return;
    At fc = top.key(key);
    fc.seq();
    for (size_t i = 0; i < fc.node.size(); ++i) {
      At e = fc.idx(i);
      e.only_keys({"name", "value", "doc"});
      Fp32Constant c;
      c.name = e.req("name").str();
      if (!is_identifier(c.name) || upper_name(c.name) != c.name)
        e.key("name").fail("must be an upper-case identifier");
      for (const auto& q : out)
        if (q.name == c.name) e.key("name").fail("duplicate constant '" + c.name + "'");
      c.bits = static_cast<uint32_t>(e.req("value").integer_in(0, 0xFFFFFFFF));
      c.doc = e.req("doc").str();
      out.push_back(c);
    }
  };
  constants("fp32_constants", s.fp32_constants_);
  constants("hbm_jitter", s.hbm_jitter_);
  for (const char* n : {"GAMMA", "SHIFT1", "MUL1", "SHIFT2", "MUL2", "SHIFT3"}) {
    const bool have = std::any_of(s.hbm_jitter_.begin(), s.hbm_jitter_.end(),
                                  [&](const Fp32Constant& c) { return c.name == n; });
    if (!have) top.fail(std::string("hbm_jitter: missing constant '") + n + "'");
  }
  for (const Fp32Constant& c : s.hbm_jitter_)
    if (c.name.rfind("SHIFT", 0) == 0 && c.bits > 31)
      top.fail("hbm_jitter: " + c.name + " " + std::to_string(c.bits) +
               " is not a shift (0 to 31)");
}

void SpecLoader::machine(Spec& s, const At& top) {
  top.only_keys({"parameters", "runtime", "presets"});
  At params = top.req("parameters");
  params.map();
  for (const auto& kv : params.node) {
    std::string name = kv.first.as<std::string>();
    if (!is_identifier(name)) params.key(name).fail("parameter name must be an identifier");
    s.params_.emplace_back(name, params.key(name).str());
  }
  for (const char* r : {"MLEN", "VLEN", "BLEN", "HLEN", "MX_BLOCK"}) {
    bool declared = false;
    for (const auto& [n, d] : s.params_) declared = declared || n == r;
    if (!declared) params.fail(std::string("missing parameter '") + r + "'");
  }
  auto declared_param = [&](const std::string& k) {
    for (const auto& [n, d] : s.params_)
      if (n == k) return true;
    return false;
  };
  std::map<std::string, int64_t> runtime_min;  // smallest preset value (`min`, default 1)
  if (top.has("runtime")) {
    At rt = top.key("runtime");
    rt.map();
    for (const auto& kv : rt.node) {
      std::string name = kv.first.as<std::string>();
      At r = rt.key(name);
      if (!declared_param(name)) r.fail("not a parameter declared under 'parameters'");
      r.only_keys({"bits", "min"});
      s.runtime_[name] = static_cast<unsigned>(r.req("bits").integer_in(1, 62));
      runtime_min[name] = r.has("min") ? r.key("min").integer_in(0, 1) : 1;
    }
  }
  At presets = top.req("presets");
  presets.map();
  for (const auto& kv : presets.node) {
    std::string pname = kv.first.as<std::string>();
    At p = presets.key(pname);
    if (!is_identifier(pname)) p.fail("preset name must be an identifier");
    p.map();
    MachinePreset mp;
    mp.name = pname;
    for (const auto& pkv : p.node) {
      std::string k = pkv.first.as<std::string>();
      if (!declared_param(k)) p.key(k).fail("not a parameter declared under 'parameters'");
      auto rt = s.runtime_.find(k);
      mp.params[k] = rt == s.runtime_.end()
                         ? p.key(k).integer_in(1, INT64_MAX)
                         : p.key(k).integer_in(runtime_min[k], (int64_t{1} << rt->second) - 1);
    }
    for (const auto& [n, d] : s.params_)
      if (!mp.params.count(n)) p.fail("missing parameter '" + n + "'");
    auto is_pow2 = [](int64_t v) { return v > 0 && (v & (v - 1)) == 0; };
    auto need = [&](bool ok, const char* key, const std::string& why) {
      if (!ok) p.key(key).fail(why);
    };
    need(mp.params["VLEN"] == mp.params["MLEN"], "VLEN", "VLEN must equal MLEN");
    // MRAM_TILES may be a run-time size; MRAM_TILES_MAX is the MRAM the RTL is built with.
    if (mp.params.count("MRAM_TILES_MAX"))
      need(mp.params["MRAM_TILES"] <= mp.params["MRAM_TILES_MAX"], "MRAM_TILES",
           "must not exceed MRAM_TILES_MAX (" + std::to_string(mp.params["MRAM_TILES_MAX"]) + ")");
    need(is_pow2(mp.params["VLEN"]), "VLEN", "must be a power of two");
    need(mp.params["MX_BLOCK"] == 8 || mp.params["MX_BLOCK"] == 32, "MX_BLOCK", "must be 8 or 32");
    need(mp.params["MLEN"] % mp.params["MX_BLOCK"] == 0, "MLEN", "must be a multiple of MX_BLOCK");
    need(mp.params["MLEN"] % mp.params["BLEN"] == 0, "BLEN", "must divide MLEN");
    need(mp.params["VLEN"] % mp.params["HLEN"] == 0, "HLEN", "must divide VLEN");
    need(mp.params["HLEN"] <= static_cast<int64_t>(num::kMxDotMax), "HLEN",
         "must be at most " + std::to_string(num::kMxDotMax) + " (the per-head dot's tree)");
    s.presets_[pname] = mp;
  }
  if (s.presets_.empty()) presets.fail("no presets");
}

void SpecLoader::stages(Spec& s, const At& top) {
  top.only_keys({"stages"});
  At st = top.req("stages");
  st.seq();
  std::set<std::string> names;
  std::set<int64_t> codes;
  for (size_t i = 0; i < st.node.size(); ++i) {
    At e = st.idx(i);
    e.only_keys({"name", "code", "group", "doc"});
    StageSpec ss;
    ss.name = e.req("name").str();
    if (!is_identifier(ss.name)) e.key("name").fail("stage name must be an identifier");
    ss.code = static_cast<uint8_t>(e.req("code").integer_in(0, 255));
    ss.group = e.req("group").str();
    if (ss.group != "routed" && ss.group != "shared" && ss.group != "plumbing")
      e.key("group").fail("group must be routed, shared or plumbing");
    if (e.has("doc")) ss.doc = e.key("doc").str();
    if (!names.insert(ss.name).second) e.key("name").fail("duplicate stage '" + ss.name + "'");
    if (!codes.insert(ss.code).second)
      e.key("code").fail("duplicate stage code " + std::to_string(ss.code));
    if ((ss.name == "other") != (ss.code == 0))
      e.key("code").fail("stage 'other' must have code 0 and only it");
    s.stages_.push_back(ss);
  }
  if (!names.count("other")) st.fail("missing stage 'other' (code 0)");
}

void SpecLoader::cross_check(Spec& s, const At& isa_top) {
  At lv = isa_top.key("latency_vars");
  for (const auto& [name, doc] : s.latency_vars_)
    for (const auto& [p, d] : s.params_)
      if (p == name) lv.key(name).fail("latency variable shadows machine parameter '" + p + "'");
  At ins = isa_top.key("instructions");
  for (size_t i = 0; i < s.instrs_.size(); ++i) {
    const InstrSpec& is = s.instrs_[i];
    At lat = ins.idx(i).key("latency");
    for (const auto& id : is.latency.identifiers()) {
      bool ok = s.latency_vars_.count(id) > 0;
      for (const auto& [p, d] : s.params_) ok = ok || p == id;
      if (!ok) lat.fail("unknown name '" + id + "' (not a machine parameter or latency_var)");
    }
    // Access formulas name the instruction's register and imm operands, the control registers,
    // the machine parameters and the address_vars.
    for (size_t j = 0; j < is.accesses.size(); ++j) {
      At ad = ins.idx(i).key("accesses").idx(j).key("address");
      for (const auto& id : is.accesses[j].address.identifiers()) {
        bool ok = s.address_vars_.count(id) > 0;
        for (const auto& [p, d] : s.params_) ok = ok || p == id;
        for (const CtrlRegSpec& c : s.ctrl_regs_) ok = ok || c.name == id;
        for (const OperandSpec& o : is.operands)
          ok = ok || (o.name == id && o.kind != OperandKind::Fp && o.kind != OperandKind::Zero);
        if (!ok)
          ad.fail("unknown name '" + id + "' (not a gp, addr or imm operand of " + is.mnemonic +
                  ", a control register, a machine parameter or an address_var)");
      }
    }
    // Every formula must evaluate on every preset (e.g. log2 of a power of two, no
    // division by 0); dynamic variables take the value 1 for this check.
    for (const auto& [pname, preset_entry] : s.presets_) {
      // A lambda may not capture a structured binding before C++20 (clang rejects it).
      const MachinePreset& preset = preset_entry;
      try {
        int64_t v = is.latency.eval([&](const std::string& id) {
          auto it = preset.params.find(id);
          return it != preset.params.end() ? it->second : int64_t{1};
        });
        if (v < 1) lat.fail("latency " + std::to_string(v) + " < 1 on preset '" + pname + "'");
      } catch (const ExprError& e) {
        lat.fail(std::string(e.what()) + " on preset '" + pname + "'");
      }
    }
  }
}

Spec Spec::load(const std::filesystem::path& dir) {
  Spec s;
  s.dir = dir;
  At isa = load_file(dir / "isa.yaml");
  At machine = load_file(dir / "machine.yaml");
  At stages = load_file(dir / "stages.yaml");
  try {
    SpecLoader::isa(s, isa);
    SpecLoader::machine(s, machine);
    SpecLoader::stages(s, stages);
    SpecLoader::cross_check(s, isa);
  } catch (const YAML::Exception& e) {
    throw SpecError(std::string("YAML error: ") + e.what());
  }
  return s;
}

const Spec& Spec::builtin() {
  static const Spec spec = [] {
    const char* env = std::getenv("MOESIM_ISA_SPEC_DIR");
#ifdef MOESIM_ISA_SPEC_DIR
    std::filesystem::path dir = env && *env ? env : MOESIM_ISA_SPEC_DIR;
#else
    if (!env || !*env)
      throw SpecError("Spec::builtin(): no spec directory (set MOESIM_ISA_SPEC_DIR)");
    std::filesystem::path dir = env;
#endif
    return load(dir);
  }();
  return spec;
}

int64_t MachinePreset::get(const std::string& key) const {
  auto it = params.find(key);
  if (it == params.end())
    throw SpecError("machine.yaml: presets." + name + "." + key + ": no such parameter");
  return it->second;
}

const InstrSpec* Spec::by_mnemonic(std::string_view m) const {
  for (const auto& i : instrs_)
    if (i.mnemonic == m) return &i;
  return nullptr;
}

const InstrSpec* Spec::by_plena_alias(std::string_view m) const {
  for (const auto& i : instrs_)
    for (const std::string& a : i.plena.aliases)
      if (a == m) return &i;
  return nullptr;
}

const InstrSpec* Spec::by_opcode(uint8_t op) const {
  for (const auto& i : instrs_)
    if (i.opcode == op) return &i;
  return nullptr;
}

const Field& Spec::field(const std::string& name) const {
  auto it = fields_.find(name);
  if (it == fields_.end()) throw SpecError("isa.yaml: fields." + name + ": no such field");
  return it->second;
}

const TrapSpec& Spec::trap(const std::string& name) const {
  for (const auto& t : traps_)
    if (t.name == name) return t;
  throw SpecError("isa.yaml: traps: no trap named '" + name + "'");
}

const TrapSpec* Spec::trap_by_code(uint8_t code) const {
  for (const auto& t : traps_)
    if (t.code == code) return &t;
  return nullptr;
}

const StageSpec* Spec::stage(std::string_view name) const {
  for (const auto& st : stages_)
    if (st.name == name) return &st;
  return nullptr;
}

const StageSpec* Spec::stage_by_code(uint8_t code) const {
  for (const auto& st : stages_)
    if (st.code == code) return &st;
  return nullptr;
}

std::string Spec::stage_name(uint8_t code) const {
  const StageSpec* s = stage_by_code(code);
  return s ? s->name : "stage" + std::to_string(code);
}

int64_t Spec::runtime_max(const std::string& name) const {
  auto it = runtime_.find(name);
  if (it == runtime_.end())
    throw SpecError("machine.yaml: runtime." + name + ": not a run-time parameter");
  return (int64_t{1} << it->second) - 1;
}

uint64_t Spec::checked_instruction_budget(uint64_t budget) const {
  const auto max = static_cast<uint64_t>(runtime_max("INSTRUCTION_BUDGET"));
  if (budget == 0 || budget > max)
    throw std::invalid_argument("instruction budget " + std::to_string(budget) + " outside [1, " +
                                std::to_string(max) +
                                "] (machine.yaml runtime.INSTRUCTION_BUDGET)");
  return budget;
}

uint64_t Spec::checked_hbm_jitter_seed(uint64_t seed) const {
  const auto max = static_cast<uint64_t>(runtime_max("HBM_JITTER_SEED"));
  if (seed > max)
    throw std::invalid_argument("HBM_JITTER_SEED " + std::to_string(seed) + " outside [0, " +
                                std::to_string(max) + "] (machine.yaml runtime.HBM_JITTER_SEED)");
  return seed;
}

uint64_t Spec::checked_dma_queue(uint64_t depth) const {
  const auto max = static_cast<uint64_t>(runtime_max("DMA_QUEUE"));
  if (depth > max)
    throw std::invalid_argument("DMA_QUEUE " + std::to_string(depth) + " outside [0, " +
                                std::to_string(max) + "] (machine.yaml runtime.DMA_QUEUE)");
  return depth;
}

const MachinePreset& Spec::preset(const std::string& name) const {
  auto it = presets_.find(name);
  if (it != presets_.end()) return it->second;
  std::string names;
  for (const auto& [n, p] : presets_) names += (names.empty() ? "" : ", ") + n;
  throw SpecError("machine.yaml: presets." + name + ": no such preset (have: " + names + ")");
}

bool OperandSpec::permits(uint64_t v) const {
  return allowed.empty() || std::find(allowed.begin(), allowed.end(), v) != allowed.end();
}

const TopkPolicySpec* Spec::topk_policy(unsigned rmask) const {
  for (const auto& p : topk_policies_)
    if (p.rmask == rmask) return &p;
  return nullptr;
}

const TopkPolicySpec* Spec::topk_hardwired(uint64_t experts, uint64_t k) const {
  for (const auto& p : topk_policies_)
    if (p.hardwired() && p.experts == experts && p.k == k) return &p;
  return nullptr;
}

const TopkPolicySpec* Spec::topk_register_policy() const {
  for (const auto& p : topk_policies_)
    if (!p.hardwired()) return &p;
  return nullptr;
}

const CtrlFieldSpec* CtrlRegSpec::field(std::string_view n) const {
  for (const auto& f : fields)
    if (f.name == n) return &f;
  return nullptr;
}

const CtrlRegSpec& Spec::control_register(const std::string& name) const {
  for (const auto& r : ctrl_regs_)
    if (r.name == name) return r;
  throw SpecError("isa.yaml: control_registers: no control register '" + name + "'");
}

uint32_t Spec::fp32_constant(const std::string& name) const {
  for (const auto& c : fp32_constants_)
    if (c.name == name) return c.bits;
  throw SpecError("isa.yaml: fp32_constants: no constant '" + name + "'");
}

const OperandKindSpec& Spec::operand_kind(OperandKind k) const {
  for (const auto& ks : kinds_)
    if (ks.kind == k) return ks;
  throw SpecError("isa.yaml: operand_kinds: kind not loaded");
}

int64_t Spec::latency(const InstrSpec& ins, const MachinePreset& preset,
                      const std::map<std::string, int64_t>& dyn) const {
  return ins.latency.eval([&](const std::string& id) -> int64_t {
    auto d = dyn.find(id);
    if (d != dyn.end()) return d->second;
    auto p = preset.params.find(id);
    if (p != preset.params.end()) return p->second;
    throw ExprError("latency of " + ins.mnemonic + " on preset '" + preset.name +
                    "': no value for '" + id + "'");
  });
}

}  // namespace moesim::isa
