// Assembler and disassembler for PLENA's text syntax plus `; @stage=` markers (assembler.hpp).
#include "moesim/isa/assembler.hpp"

#include <cctype>
#include <cstdio>
#include <fstream>
#include <sstream>

#include "moesim/isa/encoding.hpp"
#include "moesim/isa/input_file.hpp"

namespace moesim::isa {

AsmError::AsmError(const std::string& f, unsigned l, unsigned c, const std::string& msg)
    : std::runtime_error(f + ":" + std::to_string(l) + ":" + std::to_string(c) + ": " + msg),
      file(f),
      line(l),
      col(c) {}

namespace {

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f'; }
bool is_word(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

const char* kind_word(OperandKind k) {
  switch (k) {
    case OperandKind::Gp:
      return "a gp register";
    case OperandKind::Fp:
      return "an f register";
    case OperandKind::Addr:
      return "an a register";
    case OperandKind::Imm:
      return "an immediate";
    case OperandKind::Zero:
      return "the literal 0";
  }
  return "?";
}

class LineAssembler {
 public:
  LineAssembler(const Spec& spec, const std::string& file, unsigned lineno, const std::string& text,
                const AsmOptions& options)
      : spec_(spec), file_(file), lineno_(lineno), s_(text), options_(options) {}

  /// Throws AsmError at column pos + 1; bytes outside printable ASCII in `msg` (echoed source
  /// text) are shown as \xNN so the message stays one readable line.
  [[noreturn]] void fail(size_t pos, const std::string& msg) const {
    std::string shown;
    for (unsigned char c : msg) {
      if (c >= 0x20 && c < 0x7F) {
        shown += static_cast<char>(c);
      } else {
        char esc[8];
        std::snprintf(esc, sizeof esc, "\\x%02X", c);
        shown += esc;
      }
    }
    throw AsmError(file_, lineno_, static_cast<unsigned>(pos + 1), shown);
  }

  /// Parses an unsigned decimal or 0x hex number at [b, e). Returns false if it is not one;
  /// fails on overflow of 64 bits.
  bool number(size_t b, size_t e, uint64_t& v) const {
    bool hex = e - b > 2 && s_[b] == '0' && (s_[b + 1] == 'x' || s_[b + 1] == 'X');
    size_t d = hex ? b + 2 : b;
    if (d >= e) return false;
    v = 0;
    for (size_t i = d; i < e; ++i) {
      char c = s_[i];
      unsigned digit;
      if (c >= '0' && c <= '9') {
        digit = static_cast<unsigned>(c - '0');
      } else if (hex && std::isxdigit(static_cast<unsigned char>(c))) {
        digit = static_cast<unsigned>(std::tolower(static_cast<unsigned char>(c)) - 'a' + 10);
      } else {
        return false;
      }
      unsigned base = hex ? 16 : 10;
      if (v > (UINT64_MAX - digit) / base)
        fail(b, "number '" + s_.substr(b, e - b) + "' is too large");
      v = v * base + digit;
    }
    return true;
  }

  /// One operand token [b, e) of kind `op`; returns its field value.
  uint64_t operand(const InstrSpec& ins, const OperandSpec& op, size_t b, size_t e) const {
    std::string tok = s_.substr(b, e - b);
    const Field& f = spec_.field(op.field);
    uint64_t max = (uint64_t{1} << f.width()) - 1;
    std::string who = ins.mnemonic + " operand " + op.name + ": ";
    if (op.kind == OperandKind::Gp || op.kind == OperandKind::Fp || op.kind == OperandKind::Addr) {
      const OperandKindSpec& k = spec_.operand_kind(op.kind);
      size_t pl = k.prefix.size();
      uint64_t idx = 0;
      bool is_reg = tok.size() > pl && tok.compare(0, pl, k.prefix) == 0 &&
                    std::isdigit(static_cast<unsigned char>(tok[pl])) && number(b + pl, e, idx) &&
                    tok.find_first_of("xX") == std::string::npos;
      if (!is_reg) fail(b, who + "expected " + kind_word(op.kind) + ", got '" + tok + "'");
      if (idx >= k.count)
        fail(b, who + "register '" + tok + "' does not exist (" + k.prefix + "0.." + k.prefix +
                    std::to_string(k.count - 1) + ")");
      return idx;
    }
    uint64_t v = 0;
    if (!number(b, e, v)) fail(b, who + "expected " + kind_word(op.kind) + ", got '" + tok + "'");
    if (op.kind == OperandKind::Zero) {
      if (tok != "0") fail(b, who + "must be the literal 0, got '" + tok + "'");
      return 0;
    }
    if (v > max)
      fail(b, who + "immediate " + tok + " does not fit field " + op.field + " (" +
                  std::to_string(f.width()) + " bits, max " + std::to_string(max) + ")");
    if (!op.permits(v)) {
      for (const PlenaSyntaxSpec::ReadAs& r : ins.plena.read_as) {
        if (r.operand != op.name || r.value != v) continue;
        if (plena()) return r.as;
        fail(b, who + "value " + tok + " is PLENA's (" + r.doc + "); moesim encodes it as " +
                    std::to_string(r.as) + ": write " + std::to_string(r.as) +
                    ", or assemble with the PLENA syntax (--syntax plena)");
      }
      std::string allowed;
      for (uint32_t a : op.allowed) allowed += (allowed.empty() ? "" : ", ") + std::to_string(a);
      fail(b, who + "value " + tok + " is reserved (isa.yaml allows " + allowed +
                  "; write .word to encode it anyway)");
    }
    return v;
  }

  bool plena() const { return options_.syntax == Syntax::plena; }

  /// Index of operand `name` of `ins`.
  static size_t operand_index(const InstrSpec& ins, const std::string& name) {
    size_t i = 0;
    while (ins.operands[i].name != name) ++i;  // the spec loader checked the name
    return i;
  }

  /// A PLENA form with a trailing 0 (isa.yaml `plena.trailing_zero`): in the PLENA syntax, checks
  /// the 0 and drops it from `toks`; in moesim's syntax, refuses the line saying why.
  void trailing_zero(const InstrSpec& ins, std::vector<std::pair<size_t, size_t>>& toks) const {
    const auto [zb, ze] = toks.back();
    const std::string zero = s_.substr(zb, ze - zb);
    if (plena()) {
      if (zero != "0")
        fail(zb, ins.mnemonic + ": the operand after " + ins.operands.back().name +
                     " in PLENA's form must be the literal 0 (PLENA's assembler does not encode "
                     "it), got '" +
                     zero + "'");
      toks.pop_back();
      return;
    }
    if (zero != "0") return;  // not PLENA's form: the operand count is the error
    for (const PlenaSyntaxSpec::Unencoded& u : ins.plena.unencoded) {
      const size_t i = operand_index(ins, u.operand);
      const auto [b, e] = toks[i];
      if (operand(ins, ins.operands[i], b, e) == 0) continue;
      const std::string tok = s_.substr(b, e - b);
      fail(b, ins.mnemonic + " with " + u.operand + " " + tok +
                  " and a trailing 0 is PLENA's text, and PLENA means something else by it: " +
                  u.why + ", so PLENA's binary " + u.effect + ", while moesim's " + ins.mnemonic +
                  " honours " + u.operand + " " + tok +
                  ". Assemble with the PLENA syntax (--syntax plena) to follow PLENA, or drop "
                  "the trailing 0 for moesim's meaning");
    }
    fail(zb, ins.mnemonic + " takes " + std::to_string(ins.operands.size()) +
                 " operands; a trailing 0 is PLENA's form (PLENA's assembler ignores it): drop "
                 "it, or assemble with the PLENA syntax (--syntax plena)");
  }

  /// Assembles the instruction in [0, end) (comment already cut off). Returns false for a blank
  /// line.
  bool assemble(size_t end, uint32_t& word) const {
    size_t p = 0;
    while (p < end && is_space(s_[p])) ++p;
    if (p == end) return false;
    if (s_[p] == '.') return word_directive(p, end, word);
    size_t mb = p;
    while (p < end && is_word(s_[p])) ++p;
    if (p == mb) fail(mb, "expected a mnemonic, got '" + std::string(1, s_[mb]) + "'");
    std::string mnem = s_.substr(mb, p - mb);
    const InstrSpec* ins = spec_.by_mnemonic(mnem);
    if (!ins) {
      ins = spec_.by_plena_alias(mnem);
      if (ins && !plena())
        fail(mb, "unknown mnemonic '" + mnem + "' (PLENA's name for " + ins->mnemonic + ": write " +
                     ins->mnemonic + ", or assemble with the PLENA syntax, --syntax plena)");
    }
    if (!ins) fail(mb, "unknown mnemonic '" + mnem + "'");
    if (p < end && !is_space(s_[p]))
      fail(p, "unexpected '" + std::string(1, s_[p]) + "' after mnemonic " + mnem);

    // Operand tokens: comma-separated, each a single word.
    std::vector<std::pair<size_t, size_t>> toks;
    while (p < end && is_space(s_[p])) ++p;
    if (p < end) {
      for (;;) {
        while (p < end && is_space(s_[p])) ++p;
        size_t b = p;
        while (p < end && is_word(s_[p])) ++p;
        if (p == b) {
          if (p == end) fail(p, "missing operand after ','");
          fail(p, "unexpected '" + std::string(1, s_[p]) + "' in operand list");
        }
        toks.emplace_back(b, p);
        while (p < end && is_space(s_[p])) ++p;
        if (p == end) break;
        if (s_[p] != ',') fail(p, "unexpected '" + s_.substr(p, end - p) + "' after operand");
        ++p;
      }
    }
    if (ins->plena.trailing_zero && toks.size() == ins->operands.size() + 1)
      trailing_zero(*ins, toks);
    size_t required = 0;
    for (const auto& o : ins->operands) required += o.optional ? 0 : 1;
    if (toks.size() < required || toks.size() > ins->operands.size()) {
      std::string expect = std::to_string(required);
      if (required != ins->operands.size()) expect += " to " + std::to_string(ins->operands.size());
      size_t at = toks.size() > ins->operands.size() ? toks[ins->operands.size()].first : mb;
      fail(at, mnem + " expects " + expect + " operand" +
                   (ins->operands.size() == 1 && required == 1 ? "" : "s") + ", got " +
                   std::to_string(toks.size()));
    }
    std::vector<uint64_t> vals;
    for (size_t i = 0; i < toks.size(); ++i)
      vals.push_back(operand(*ins, ins->operands[i], toks[i].first, toks[i].second));
    // The PLENA syntax follows PLENA's binary: an operand it does not carry encodes as 0.
    for (const PlenaSyntaxSpec::Unencoded& u : ins->plena.unencoded) {
      const size_t i = operand_index(*ins, u.operand);
      if (!plena() || i >= vals.size() || vals[i] == 0) continue;
      const auto [b, e] = toks[i];
      if (options_.warnings)
        options_.warnings->push_back(
            file_ + ":" + std::to_string(lineno_) + ":" + std::to_string(b + 1) + ": " + mnem +
            " " + u.operand + " " + s_.substr(b, e - b) + ": PLENA's binary " + u.effect + " (" +
            u.why + "); the PLENA syntax follows it and encodes " + u.operand + " 0");
      vals[i] = 0;
    }
    word = encode(spec_, *ins, vals);
    return true;
  }

 private:
  /// `.word 0xNNNNNNNN`: one raw instruction word (what disassemble() prints for a word that
  /// no mnemonic line reproduces).
  bool word_directive(size_t p, size_t end, uint32_t& word) const {
    static const std::string kWord = ".word";
    if (s_.compare(p, kWord.size(), kWord) != 0 ||
        (p + kWord.size() < end && !is_space(s_[p + kWord.size()])))
      fail(p, "unknown directive (the only one is .word)");
    size_t b = p + kWord.size();
    while (b < end && is_space(s_[b])) ++b;
    size_t e = b;
    while (e < end && is_word(s_[e])) ++e;
    uint64_t v = 0;
    if (b == e || !number(b, e, v)) fail(b, ".word expects one number");
    if (v > UINT32_MAX) fail(b, ".word value " + s_.substr(b, e - b) + " does not fit 32 bits");
    size_t q = e;
    while (q < end && is_space(s_[q])) ++q;
    if (q != end) fail(q, "unexpected '" + s_.substr(q, end - q) + "' after .word value");
    word = static_cast<uint32_t>(v);
    return true;
  }

  const Spec& spec_;
  const std::string& file_;
  unsigned lineno_;
  const std::string& s_;
  const AsmOptions& options_;
};

}  // namespace

Program assemble(const Spec& spec, const std::string& text, const std::string& file,
                 const AsmOptions& options) {
  Program prog;
  prog.source = file;
  uint8_t stage = 0;
  {
    const StageSpec* other = spec.stage("other");
    stage = other ? other->code : 0;
  }
  WorkTag work;
  bool any_work = false;
  std::istringstream in(text);
  std::string line;
  unsigned lineno = 0;
  while (std::getline(in, line)) {
    ++lineno;
    LineAssembler la(spec, file, lineno, line, options);
    size_t semi = line.find(';'), slash = line.find("//");
    size_t cut = std::min(semi, slash);
    size_t end = cut == std::string::npos ? line.size() : cut;
    bool has_code = false;
    for (size_t i = 0; i < end; ++i) has_code = has_code || !is_space(line[i]);

    // Markers: a `;` comment whose text after the `;` and blanks starts with `@stage=` or
    // `@pair=`. Any other comment text starting with `@` is a malformed marker (e.g.
    // `@stage = x`, `@stag=x`), an error rather than a comment that silently bills cycles to the
    // wrong stage.
    if (cut != std::string::npos && cut == semi) {
      size_t p = semi + 1;
      while (p < line.size() && is_space(line[p])) ++p;
      static const std::string kMarker = "@stage=", kPair = "@pair=";
      const bool is_stage = line.compare(p, kMarker.size(), kMarker) == 0;
      const bool is_pair = line.compare(p, kPair.size(), kPair) == 0;
      if (p < line.size() && line[p] == '@' && !is_stage && !is_pair)
        la.fail(p, "malformed marker (write `; @stage=NAME` or `; @pair=TOKEN,SLOT,EXPERT`)");
      if ((is_stage || is_pair) && has_code)
        la.fail(semi,
                "a marker must be on a line of its own (it applies to the following "
                "instructions)");
      if (is_pair) {
        size_t nb = p + kPair.size(), ne = nb;
        while (ne < line.size() && !is_space(line[ne])) ++ne;
        try {
          work = parse_work_tag(line.substr(nb, ne - nb));
        } catch (const std::invalid_argument& e) {
          la.fail(nb, e.what());
        }
        any_work = true;
        continue;
      }
      if (is_stage) {
        size_t nb = p + kMarker.size(), ne = nb;
        while (ne < line.size() && !is_space(line[ne])) ++ne;
        std::string name = line.substr(nb, ne - nb);
        if (name.empty()) la.fail(nb, "empty stage name after @stage=");
        const StageSpec* st = spec.stage(name);
        if (!st) la.fail(nb, "unknown stage '" + name + "' (not in stages.yaml)");
        if (st->name == "other")
          la.fail(nb, "'other' is not a marker name (it is the stage before the first marker)");
        stage = st->code;
        continue;
      }
    }
    if (cut != std::string::npos && !has_code && options.stage_map)
      stage = options.stage_map->classify(line.substr(cut + (cut == semi ? 1 : 2)), stage);
    uint32_t word = 0;
    if (!la.assemble(end, word)) continue;
    prog.words.push_back(word);
    prog.stages.push_back(stage);
    prog.lines.push_back(lineno);
    prog.work.push_back(work);
  }
  if (!any_work) prog.work.clear();
  return prog;
}

Program assemble_file(const Spec& spec, const std::string& path, const AsmOptions& options) {
  return assemble(spec, read_input_file(path, kMaxTextInputBytes), path, options);
}

std::string disassemble(const Spec& spec, uint32_t word) {
  char raw[24];
  std::snprintf(raw, sizeof raw, ".word 0x%08X", word);
  Decoded d = decode(spec, word);
  if (!d.spec) return raw;
  const InstrSpec& ins = *d.spec;
  std::string text = ins.mnemonic;
  std::vector<uint64_t> vals;
  bool canonical = true;  // the text re-assembles to exactly this word
  for (size_t i = 0; i < ins.operands.size(); ++i) {
    const OperandSpec& o = ins.operands[i];
    uint32_t v = extract(word, spec.field(o.field));
    vals.push_back(v);
    canonical = canonical && (o.kind != OperandKind::Zero || v == 0);
    // A reserved value (isa.yaml `allowed`) or a register that does not exist is refused by the
    // assembler, so the text would not re-assemble: print the word.
    canonical = canonical && o.permits(v);
    if (o.kind == OperandKind::Gp || o.kind == OperandKind::Fp || o.kind == OperandKind::Addr)
      canonical = canonical && v < spec.operand_kind(o.kind).count;
    text += i == 0 ? " " : ", ";
    if (o.kind == OperandKind::Gp || o.kind == OperandKind::Fp || o.kind == OperandKind::Addr)
      text += spec.operand_kind(o.kind).prefix;
    text += std::to_string(v);
  }
  if (canonical) {
    try {
      canonical = encode(spec, ins, vals) == word;
    } catch (const std::invalid_argument&) {
      canonical = false;
    }
  }
  if (canonical) return text;
  return std::string(raw) + "  ; " + text + " with reserved bits or values set";
}

std::string disassemble(const Spec& spec, const Program& p) {
  std::string out;
  const StageSpec* other = spec.stage("other");
  uint8_t cur = other ? other->code : 0;
  WorkTag cur_work;
  for (size_t i = 0; i < p.words.size(); ++i) {
    uint8_t st = i < p.stages.size() ? p.stages[i] : cur;
    if (st != cur) {
      const StageSpec* ss = spec.stage_by_code(st);
      if (!ss)
        throw std::invalid_argument("disassemble: pc " + std::to_string(i) + ": stage code " +
                                    std::to_string(st) + " is not in stages.yaml");
      if (ss->name == "other")
        throw std::invalid_argument("disassemble: pc " + std::to_string(i) +
                                    ": returns to stage 'other' after a marker, which no marker "
                                    "can express");
      out += "; @stage=" + ss->name + "\n";
      cur = st;
    }
    if (i < p.work.size() && !(p.work[i] == cur_work)) {
      out += "; @pair=" + format_work_tag(p.work[i]) + "\n";
      cur_work = p.work[i];
    }
    out += disassemble(spec, p.words[i]) + "\n";
  }
  return out;
}

}  // namespace moesim::isa
