// Constrained-random program generator (random_program.hpp, docs/random.md).
#include <algorithm>
#include <numeric>
#include <random>
#include <set>
#include <sstream>
#include <stdexcept>

#include "moesim/isa/assembler.hpp"
#include "moesim/isa/encoding.hpp"
#include "moesim/isa/geometry.hpp"
#include "moesim/isa/numerics.hpp"
#include "moesim/random/random_program.hpp"

namespace moesim::rnd {
namespace {

using isa::OperandKind;

/// INT SRAM words [0, kIdxWords) hold V_GATHER / V_SCATTER_ADD token indices; no generated
/// instruction writes them, so the generator knows every index it will read.
constexpr uint64_t kIdxWords = 16;

std::string hex16(uint32_t v) {
  char b[16];
  std::snprintf(b, sizeof b, "0x%08X", v);
  return b;
}

class Gen {
 public:
  Gen(const isa::Spec& spec, const isa::MachinePreset& p, uint64_t seed, const Mix& mix)
      : spec_(spec), P_(p), rng_(seed), mix_(mix) {
    V = P_.vlen();
    M = P_.mlen();
    B = P_.blen();
    H = P_.hlen();
    X = P_.mx_block();
    VR = P_.get("VRAM_ROWS");
    MT = P_.get("MRAM_TILES");
    FW = P_.get("FP_SRAM_WORDS");
    IW = P_.get("INT_SRAM_WORDS");
    HB = P_.get("HBM_BYTES");
    HVR = P_.get("HBM_V_ROWS");
    HMR = P_.get("HBM_M_ROWS");
    LD = static_cast<unsigned>(P_.get("LOOP_DEPTH"));
    MAXE = P_.get("MAX_TOPK_EXPERTS");
    const unsigned gps = spec_.operand_kind(OperandKind::Gp).count;
    if (LD + 4 > gps) throw std::invalid_argument("random: LOOP_DEPTH leaves too few gp registers");
    loop_base_ = gps - LD;  // loop counters gp[loop_base_ + depth]
    out_.seed = seed;
    out_.machine = P_.name;
    for (const isa::InstrSpec& ins : spec_.instructions())
      if (!has_rule(ins.mnemonic))
        throw std::invalid_argument(
            "random: no generator rule for " + ins.mnemonic +
            " (isa.yaml instruction; add one in sim/random/src/generator.cpp)");
  }

  RandomProgram run() {
    special_share_ = mix_.special_share * uniform(0.0, 2.0);
    make_image();
    // The trap this program ends in, if any.
    if (chance(mix_.trap_share)) {
      std::vector<std::string> causes = mix_.traps;
      if (causes.empty())
        for (const auto& t : spec_.traps()) causes.push_back(t.name);
      out_.intended_trap = pick(causes);
    }
    const std::string& trap = out_.intended_trap;
    no_topk_set_ = trap == "topk_policy_unset";
    no_break_ = trap == "instruction_budget_exceeded";
    for (int attempt = 0;; ++attempt) {
      out_.nodes.clear();
      const unsigned n = static_cast<unsigned>(
          u(mix_.min_snippets,
            std::max(mix_.min_snippets, mix_.max_snippets) >> std::min(attempt, 3)));
      unsigned left = std::max(1u, n);
      body(out_.nodes, 0, left, attempt < 6);
      if (dynamic_bound(out_) <= mix_.max_dynamic && cycles(out_.nodes) <= mix_.max_cycles) break;
      if (attempt > 12) {  // give up on loops and size
        out_.nodes.clear();
        unsigned one = 1;
        body(out_.nodes, 0, one, false);
        break;
      }
    }
    if (!trap.empty() && trap != "instruction_budget_exceeded") {
      Node t = trap_node(trap);
      const size_t at = static_cast<size_t>(u(0, out_.nodes.size()));
      out_.nodes.insert(out_.nodes.begin() + static_cast<long>(at), std::move(t));
    } else if (trap == "instruction_budget_exceeded") {
      const uint64_t dyn = dynamic_bound(out_);  // exact: no C_BREAK, no trap
      if (dyn < 2) {
        Node s;
        li(s.lines, 1, 1);
        li(s.lines, 2, 2);
        out_.nodes.push_back(s);
      }
      out_.budget = u(1, dynamic_bound(out_) - 1);
    } else if (!no_break_ && chance(0.1)) {
      // C_BREAK outside any loop halts the program (boundary form).
      Node s;
      s.lines.push_back(tested("C_BREAK", {}, "boundary"));
      out_.nodes.push_back(s);
    }
    return std::move(out_);
  }

 private:
  // ------------------------------------------------------------------ randomness
  uint64_t u(uint64_t lo, uint64_t hi) {  // inclusive
    if (hi <= lo) return lo;
    return std::uniform_int_distribution<uint64_t>(lo, hi)(rng_);
  }
  double uniform(double lo, double hi) {
    return std::uniform_real_distribution<double>(lo, hi)(rng_);
  }
  bool chance(double p) { return uniform(0.0, 1.0) < p; }
  template <class T>
  const T& pick(const std::vector<T>& v) {
    return v[static_cast<size_t>(u(0, v.size() - 1))];
  }

  // ------------------------------------------------------------------ text
  const isa::InstrSpec& ins(const std::string& m) const {
    const isa::InstrSpec* i = spec_.by_mnemonic(m);
    if (!i) throw std::logic_error("random: isa.yaml has no " + m);
    return *i;
  }
  /// `MNEMONIC op, op, ...` with every operand of isa.yaml (values by operand name, 0 if not
  /// given), printed by kind.
  std::string text(const std::string& m, const std::map<std::string, uint64_t>& ops) const {
    const isa::InstrSpec& I = ins(m);
    std::string s = m;
    bool first = true;
    for (const isa::OperandSpec& o : I.operands) {
      auto it = ops.find(o.name);
      const uint64_t v = it == ops.end() ? 0 : it->second;
      s += first ? " " : ", ";
      first = false;
      if (o.kind == OperandKind::Imm || o.kind == OperandKind::Zero)
        s += std::to_string(v);
      else
        s += spec_.operand_kind(o.kind).prefix + std::to_string(v);
    }
    return s;
  }
  /// A raw word with field values by field name (for reserved values the assembler refuses).
  uint32_t raw(const std::string& m, const std::map<std::string, uint64_t>& fields) const {
    uint32_t w = ins(m).opcode;
    for (const auto& [name, v] : fields) {
      const isa::Field& f = spec_.field(name);
      const uint32_t mask = f.width() >= 32 ? 0xFFFFFFFFu : ((1u << f.width()) - 1);
      w |= (static_cast<uint32_t>(v) & mask) << f.lo;
    }
    return w;
  }
  Instr setup(const std::string& m, const std::map<std::string, uint64_t>& ops) {
    Instr i;
    i.text = text(m, ops);
    i.tag.mnemonic = m;
    i.tag.cls = "setup";
    i.tag.depth = depth_;
    return i;
  }
  Instr tested(const std::string& m, const std::map<std::string, uint64_t>& ops,
               const std::string& cls) {
    Instr i = setup(m, ops);
    i.tag.cls = cls;
    i.tag.tested = true;
    return i;
  }
  /// gp[reg] = v (v < 2^32) with S_ADDI_INT / S_LUI_INT.
  void li(std::vector<Instr>& out, unsigned reg, uint64_t v) {
    if (reg == 0) return;
    v &= 0xFFFFFFFFull;
    const uint64_t imm18max = (1ull << spec_.field("imm18").width()) - 1;
    if (v <= imm18max) {
      out.push_back(setup("S_ADDI_INT", {{"rd", reg}, {"rs1", 0}, {"imm", v}}));
    } else {
      out.push_back(setup("S_LUI_INT", {{"rd", reg}, {"imm", v >> 12}}));
      if ((v & 0xFFF) != 0)
        out.push_back(setup("S_ADDI_INT", {{"rd", reg}, {"rs1", reg}, {"imm", v & 0xFFF}}));
    }
  }
  /// n distinct registers from gp1 .. gp[loop_base_-1] (never a loop counter).
  std::vector<unsigned> regs(size_t n) {
    std::vector<unsigned> all(loop_base_ - 1);
    std::iota(all.begin(), all.end(), 1u);
    std::shuffle(all.begin(), all.end(), rng_);
    all.resize(n);
    return all;
  }
  unsigned any_gp() {
    return static_cast<unsigned>(u(0, spec_.operand_kind(OperandKind::Gp).count - 1));
  }
  unsigned user_gp(bool boundary) {
    if (boundary) return chance(0.5) ? 0u : loop_base_ - 1;
    return static_cast<unsigned>(u(0, loop_base_ - 1));
  }
  unsigned fp(bool boundary) {
    const unsigned n = spec_.operand_kind(OperandKind::Fp).count;
    if (boundary) return chance(0.5) ? 0u : n - 1;
    return static_cast<unsigned>(u(0, n - 1));
  }
  unsigned addr_reg() {
    return static_cast<unsigned>(u(0, spec_.operand_kind(OperandKind::Addr).count - 1));
  }
  uint64_t imm_max(const std::string& field) const {
    return (1ull << spec_.field(field).width()) - 1;
  }
  /// Splits d into gp value + imm18 (imm <= d).
  std::pair<uint64_t, uint64_t> split(uint64_t d) {
    const uint64_t imm = chance(0.3) ? 0 : u(0, std::min<uint64_t>(d, imm_max("imm18")));
    return {d - imm, imm};
  }

  // ------------------------------------------------------------------ addresses
  /// Element address of a run of n VRAM rows, per class.
  uint64_t vrows(const std::string& cls, int64_t n) {
    const uint64_t last = static_cast<uint64_t>(VR - n);
    uint64_t row = 0;
    if (cls == "boundary")
      row = chance(0.6) ? last : 0;
    else if (cls == "range")
      row = last + 1 + u(0, 2);
    else
      row = chance(0.8) ? u(0, std::min<uint64_t>(15, last)) : u(0, last);
    uint64_t a = row * static_cast<uint64_t>(V);
    if (cls == "misaligned") a += u(1, static_cast<uint64_t>(V) - 1);
    return a;
  }
  /// MRAM tile index per class (range: past MRAM_TILES).
  uint64_t tile(const std::string& cls) {
    if (cls == "boundary") return static_cast<uint64_t>(MT - 1);
    if (cls == "range") return static_cast<uint64_t>(MT) + u(0, 1);
    return chance(0.6) ? pick(init_tiles_) : u(0, static_cast<uint64_t>(MT - 1));
  }
  std::string mx_of(uint64_t t) const {
    return t < tile_class_.size() ? tile_class_[t] : std::string();
  }
  /// A word address of an SRAM run of n words in [lo, size).
  uint64_t words(const std::string& cls, int64_t size, uint64_t lo, int64_t n) {
    const uint64_t last = static_cast<uint64_t>(size - n);
    if (cls == "boundary") return chance(0.6) ? last : lo;
    if (cls == "range") return last + 1 + u(0, 3);
    return chance(0.7) ? u(lo, std::min<uint64_t>(lo + 63, last)) : u(lo, last);
  }
  /// Which of `n` address operands carries a trapping class; the others are legal.
  std::vector<std::string> spread(const std::string& cls, size_t n) {
    std::vector<std::string> v(n, cls == "range" || cls == "misaligned" ? "legal" : cls);
    if (cls == "range" || cls == "misaligned") v[static_cast<size_t>(u(0, n - 1))] = cls;
    return v;
  }

  // ------------------------------------------------------------------ rules
  bool has_rule(const std::string& m) const {
    static const std::set<std::string> known = {"M_MM",
                                                "M_TMM",
                                                "M_MM_WO",
                                                "M_MV",
                                                "M_TMV",
                                                "M_MV_WO",
                                                "M_BMV",
                                                "M_BTMV",
                                                "M_BMV_WO",
                                                "M_BMM",
                                                "M_BTMM",
                                                "M_BMM_WO",
                                                "V_ADD_VV",
                                                "V_SUB_VV",
                                                "V_MUL_VV",
                                                "V_ADD_VF",
                                                "V_MUL_VF",
                                                "V_MAX_VF",
                                                "V_MIN_VF",
                                                "V_EXP_V",
                                                "V_RECI_V",
                                                "V_RED_SUM",
                                                "V_SUB_VF",
                                                "V_RED_MAX",
                                                "V_PS_V",
                                                "V_SHFT_V",
                                                "V_TOPK",
                                                "V_GATHER",
                                                "V_SCATTER_ADD",
                                                "S_LD_FP",
                                                "S_ST_FP",
                                                "S_MAP_V_FP",
                                                "S_ADD_FP",
                                                "S_SUB_FP",
                                                "S_MAX_FP",
                                                "S_MUL_FP",
                                                "S_EXP_FP",
                                                "S_RECI_FP",
                                                "S_SQRT_FP",
                                                "S_ADD_INT",
                                                "S_ADDI_INT",
                                                "S_SUB_INT",
                                                "S_MUL_INT",
                                                "S_LUI_INT",
                                                "S_LD_INT",
                                                "S_ST_INT",
                                                "H_PREFETCH_M",
                                                "H_PREFETCH_V",
                                                "H_STORE_V",
                                                "C_SET_ADDR_REG",
                                                "C_SET_SCALE_REG",
                                                "C_SET_STRIDE_REG",
                                                "C_SET_V_MASK_REG",
                                                "C_LOOP_START",
                                                "C_LOOP_END",
                                                "C_BREAK",
                                                "C_HADAMARD_TRANSFORM",
                                                "C_SET_TOPK_REG"};
    return known.count(m) != 0;
  }

  /// rmask of a masked vector op, with V_MASK set now and then.
  uint64_t rmask(std::vector<Instr>& L, const std::string& field) {
    if (chance(0.3)) {
      const unsigned r = regs(1)[0];
      const uint64_t heads = static_cast<uint64_t>(V / H);
      const uint64_t all = heads >= 32 ? 0xFFFFFFFFull : (1ull << heads) - 1;
      li(L, r, chance(0.3) ? (chance(0.5) ? 0 : all) : u(0, all));
      L.push_back(setup("C_SET_V_MASK_REG", {{"rd", r}}));
    }
    const uint64_t mx = imm_max(field);
    return chance(0.5) ? 0 : u(1, mx);
  }

  /// Appends set-up lines and the instruction `m` under test with class `cls` (legal, boundary,
  /// range, misaligned).
  void emit(const std::string& m, const std::string& cls, std::vector<Instr>& L) {
    const bool bnd = cls == "boundary";
    const isa::InstrSpec& I = ins(m);
    const std::string unit = I.unit;
    std::map<std::string, uint64_t> ops;
    std::string mx;
    if (m == "M_MM" || m == "M_TMM" || m == "M_MV" || m == "M_TMV") {
      const bool tmm = m == "M_TMM";
      const bool mv = m == "M_MV" || m == "M_TMV";
      auto c = spread(cls, 2);  // [tile, activation]
      const uint64_t T = tile(c[0]);
      uint64_t col = c[0] == "boundary" ? static_cast<uint64_t>(M - B)
                                        : static_cast<uint64_t>(B) * u(0, (M - B) / B);
      uint64_t t = T * static_cast<uint64_t>(M * M) + (mv ? col : col * static_cast<uint64_t>(M));
      if (c[0] == "misaligned")
        t += mv ? (B > 1 ? u(1, static_cast<uint64_t>(B) - 1) : static_cast<uint64_t>(M) - col)
                : u(1, static_cast<uint64_t>(M) - 1);
      const uint64_t a = vrows(c[1], mv ? 1 : B);
      auto r = regs(2);
      li(L, r[0], t);
      li(L, r[1], a);
      mx = mx_of(T);
      if (tmm) {
        ops = {{"rs1", r[1]}, {"rs2", r[0]}};
      } else {
        ops = {{"rs1", r[0]}, {"rs2", r[1]}};
      }
    } else if (m == "M_BMV" || m == "M_BTMV" || m == "M_BMM" || m == "M_BTMM") {
      const bool mm = m == "M_BMM" || m == "M_BTMM";
      auto c = spread(cls, 2);
      const uint64_t T = tile(c[0]);
      uint64_t r0 = c[0] == "boundary" ? static_cast<uint64_t>(M - H)
                                       : static_cast<uint64_t>(H) * u(0, (M - H) / H);
      if (c[0] == "misaligned")
        r0 = chance(0.5) ? r0 + u(1, static_cast<uint64_t>(H) - 1) : static_cast<uint64_t>(M);
      const uint64_t t = T * static_cast<uint64_t>(M * M) + r0;
      const uint64_t a = vrows(c[1], mm ? M : 1);
      auto r = regs(3);
      mx = mx_of(T);
      if (mm) {
        li(L, r[0], t);
        li(L, r[1], a);
        ops = {{"rs1", r[0]}, {"rs2", r[1]}};
      } else {
        const uint64_t part = chance(0.5) ? 0 : u(0, t);
        li(L, r[0], t - part);
        li(L, r[2], part);
        li(L, r[1], a);
        ops = {{"rd", part == 0 && chance(0.5) ? 0 : r[2]}, {"rs1", r[0]}, {"rs2", r[1]}};
      }
    } else if (m == "M_MM_WO" || m == "M_MV_WO" || m == "M_BMV_WO" || m == "M_BMM_WO") {
      uint64_t n = 1;
      int64_t rows = 1;
      if (m == "M_MM_WO") n = pick(std::vector<uint64_t>{0, 1, 2, u(1, 8)});
      const uint64_t ne = std::max<uint64_t>(n, 1);
      if (m == "M_MM_WO") rows = static_cast<int64_t>((static_cast<uint64_t>(B) - 1) * ne + 1);
      if (m == "M_BMV_WO") rows = M / H;
      if (m == "M_BMM_WO") rows = M / H * M;
      const bool col_ok = m == "M_MM_WO" || m == "M_MV_WO";
      uint64_t d = vrows(cls == "misaligned" ? "legal" : cls, rows);
      if (col_ok)
        d += bnd ? static_cast<uint64_t>(V - B) : static_cast<uint64_t>(B) * u(0, (V - B) / B);
      if (cls == "misaligned")
        d += col_ok ? (B > 1 ? u(1, static_cast<uint64_t>(B) - 1) : 0)
                    : u(1, static_cast<uint64_t>(V) - 1);
      auto [g, imm] = split(d);
      auto r = regs(2);
      li(L, r[0], g);
      ops = {{"rd", g == 0 && chance(0.5) ? 0 : r[0]}, {"imm", imm}};
      if (m == "M_MM_WO") {
        li(L, r[1], n);
        ops["rs1"] = n == 0 && chance(0.5) ? 0 : r[1];
      }
    } else if (m == "V_ADD_VV" || m == "V_SUB_VV" || m == "V_MUL_VV" || m == "V_ADD_VF" ||
               m == "V_MUL_VF" || m == "V_MAX_VF" || m == "V_MIN_VF" || m == "V_SUB_VF" ||
               m == "V_EXP_V" || m == "V_RECI_V" || m == "V_PS_V" || m == "V_SHFT_V" ||
               m == "V_RED_SUM" || m == "V_RED_MAX") {
      // Row operands: every gp operand but V_SHFT_V's shift count.
      std::vector<std::string> rowops;
      for (const isa::OperandSpec& o : I.operands)
        if (o.kind == OperandKind::Gp && !(m == "V_SHFT_V" && o.name == "rs2"))
          rowops.push_back(o.name);
      // rmask first: its V_MASK set-up uses a scratch register the row set-up may then reuse.
      for (const isa::OperandSpec& o : I.operands)
        if (o.name == "rmask") ops[o.name] = rmask(L, o.field);
      auto c = spread(cls, rowops.size());
      auto r = regs(rowops.size() + 1);
      for (size_t i = 0; i < rowops.size(); ++i) {
        const uint64_t a = vrows(c[i], 1);
        li(L, r[i], a);
        ops[rowops[i]] = a == 0 && chance(0.5) ? 0 : r[i];
        // The same row as source and destination now and then.
        if (i > 0 && chance(0.15) && c[i] == "legal" && c[0] == "legal")
          ops[rowops[i]] = ops[rowops[0]];
      }
      for (const isa::OperandSpec& o : I.operands) {
        if (o.kind == OperandKind::Fp) ops[o.name] = fp(bnd);
        if (o.kind == OperandKind::Imm && !o.allowed.empty()) ops[o.name] = pick(o.allowed);
      }
      if (m == "V_SHFT_V") {
        const uint64_t s =
            pick(std::vector<uint64_t>{0, 1, static_cast<uint64_t>(V - 1), static_cast<uint64_t>(V),
                                       u(0, static_cast<uint64_t>(V)), 0xFFFFFFFFull});
        li(L, r.back(), s);
        ops["rs2"] = s == 0 ? 0 : r.back();
      }
    } else if (m == "V_TOPK") {
      emit_topk(cls, L);
      return;
    } else if (m == "V_GATHER" || m == "V_SCATTER_ADD") {
      auto c = spread(cls, 2);  // [indexed base, plain row]
      const uint64_t w = u(0, kIdxWords - 1);
      const uint64_t t = idx_[w];
      uint64_t row = 0;
      const uint64_t last = static_cast<uint64_t>(VR) - 1 - t;
      if (c[0] == "boundary")
        row = chance(0.6) ? last : 0;
      else if (c[0] == "range")
        row = last + 1 + u(0, 2);
      else
        row = chance(0.8) ? u(0, std::min<uint64_t>(last, 15)) : u(0, last);
      uint64_t base = row * static_cast<uint64_t>(V);
      if (c[0] == "misaligned") base += u(1, static_cast<uint64_t>(V) - 1);
      const uint64_t plain = vrows(c[1], 1);
      auto r = regs(3);
      li(L, r[0], base);
      li(L, r[1], plain);
      li(L, r[2], w);
      if (m == "V_GATHER")
        ops = {{"rd", r[1]}, {"rs1", r[0]}, {"rs2", w == 0 ? 0 : r[2]}};
      else
        ops = {{"rd", r[0]}, {"rs1", r[1]}, {"rs2", w == 0 ? 0 : r[2]}};
    } else if (m == "S_LD_FP" || m == "S_ST_FP" || m == "S_LD_INT" || m == "S_ST_INT") {
      const bool isfp = m[5] == 'F';
      const bool store = m[2] == 'S';
      const uint64_t lo = !isfp && store ? kIdxWords : 0;
      const uint64_t w = words(cls, isfp ? FW : IW, lo, 1);
      auto [g, imm] = split(w);
      auto r = regs(2);
      li(L, r[0], g);
      ops = {{"rs1", g == 0 && chance(0.5) ? 0 : r[0]}, {"imm", imm}};
      if (isfp)
        ops[store ? "fs" : "fd"] = fp(bnd);
      else if (store)
        ops["rs"] = any_gp();
      else
        ops["rd"] = user_gp(bnd);
    } else if (m == "S_MAP_V_FP") {
      // [VRAM row, FP SRAM words]; only the row can be misaligned.
      std::vector<std::string> c =
          cls == "misaligned" ? std::vector<std::string>{"misaligned", "legal"} : spread(cls, 2);
      const uint64_t a = vrows(c[0], 1);
      const uint64_t w = words(c[1], FW, 0, V);
      auto [g, imm] = split(w);
      auto r = regs(2);
      li(L, r[0], a);
      li(L, r[1], g);
      ops = {{"rd", a == 0 ? 0 : r[0]}, {"rs1", g == 0 ? 0 : r[1]}, {"imm", imm}};
    } else if (unit == "scalar") {  // register-only scalar ops
      for (const isa::OperandSpec& o : I.operands) {
        if (o.kind == OperandKind::Fp) ops[o.name] = fp(bnd);
        if (o.kind == OperandKind::Gp) ops[o.name] = o.name == "rd" ? user_gp(bnd) : any_gp();
        if (o.kind == OperandKind::Imm) {
          const uint64_t mx = imm_max(o.field);
          ops[o.name] = bnd ? (chance(0.5) ? 0 : mx) : (chance(0.5) ? u(0, 255) : u(0, mx));
        }
      }
      // Operands with a value worth having: fill the register first now and then.
      if (unit == "scalar" && chance(0.4))
        for (const isa::OperandSpec& o : I.operands)
          if (o.kind == OperandKind::Gp && o.name != "rd" && ops[o.name] != 0 &&
              ops[o.name] < loop_base_) {
            li(L, static_cast<unsigned>(ops[o.name]),
               pick(
                   std::vector<uint64_t>{0, 1, 0xFFFFFFFFull, 0x80000000ull, u(0, 0xFFFFFFFFull)}));
          }
    } else if (unit == isa::unit_name(isa::Unit::Dma)) {
      emit_dma(m, cls, L);
      return;
    } else if (m == "C_SET_ADDR_REG") {
      auto r = regs(2);
      li(L, r[0], chance(0.7) ? 0 : u(0, 0xFFFFFFFFull));
      li(L, r[1], u(0, 0xFFFFFFFFull));
      ops = {{"an", bnd ? addr_reg() : addr_reg()}, {"rs1", r[0]}, {"rs2", r[1]}};
    } else if (m == "C_SET_SCALE_REG" || m == "C_SET_STRIDE_REG" || m == "C_SET_V_MASK_REG" ||
               m == "C_SET_TOPK_REG") {
      auto r = regs(1);
      uint64_t v = bnd ? (chance(0.5) ? 0 : 0xFFFFFFFFull) : u(0, 0xFFFFFFFFull);
      if (m == "C_SET_TOPK_REG" && chance(0.7)) v = u(1, 300) << 8 | u(0, 10);
      li(L, r[0], v);
      ops = {{"rd", v == 0 ? 0 : r[0]}};
    } else if (m == "C_BREAK") {
      // inside a loop (the body generator only asks for it there)
    } else {
      throw std::logic_error("random: emit() has no case for " + m);
    }
    Instr t = tested(m, ops, cls);
    t.tag.mx = mx;
    L.push_back(t);
  }

  void emit_topk(const std::string& cls, std::vector<Instr>& L) {
    std::vector<const isa::TopkPolicySpec*> pols;
    for (const auto& p : spec_.topk_policies())
      if (p.hardwired() ? p.experts <= static_cast<uint32_t>(MAXE) : !no_topk_set_)
        pols.push_back(&p);
    const isa::TopkPolicySpec& p = *pick(pols);
    uint64_t E = p.experts, k = p.k;
    std::string bin;
    if (!p.hardwired()) {
      // E bins: 1, below VLEN, VLEN, several rows, MAX_TOPK_EXPERTS; k bins: 1, mid, E.
      const std::string eb =
          pick(std::vector<std::string>{"1", "lt_vlen", "vlen", "multi_row", "max"});
      if (eb == "1")
        E = 1;
      else if (eb == "lt_vlen")
        E = u(3, static_cast<uint64_t>(V) - 1);
      else if (eb == "vlen")
        E = static_cast<uint64_t>(V);
      else if (eb == "multi_row")
        E = u(static_cast<uint64_t>(V) + 1, static_cast<uint64_t>(MAXE) - 1);
      else
        E = static_cast<uint64_t>(MAXE);
      const uint64_t kmax = std::min<uint64_t>(E, 255);
      std::string kb = E == 1 ? "k=E" : pick(std::vector<std::string>{"k=1", "mid", "k=E"});
      if (kb == "k=E" && kmax < E) kb = "mid";
      k = kb == "k=1" ? 1 : kb == "k=E" ? E : u(2, std::max<uint64_t>(2, kmax - 1));
      if (kb == "mid" && k >= E) k = E - 1;
      bin = "rmask=" + std::to_string(p.rmask) + " E=" + eb + " " + kb;
      const isa::CtrlRegSpec& cr = spec_.control_register(p.reg);
      const isa::CtrlFieldSpec* fe = cr.field("E");
      const isa::CtrlFieldSpec* fk = cr.field("k");
      const uint64_t v = (E << fe->lo) | (k << fk->lo);
      auto r = regs(1);
      li(L, r[0], v);
      L.push_back(setup(cr.written_by, {{"rd", r[0]}}));
    } else {
      bin = "rmask=" + std::to_string(p.rmask);
    }
    auto c = spread(cls, 3);  // [logits, fp dest, int dest]
    const int64_t rows =
        static_cast<int64_t>((E + static_cast<uint64_t>(V) - 1) / static_cast<uint64_t>(V));
    const uint64_t a = vrows(c[0], rows);
    const uint64_t wf = c[1] == "misaligned" ? words("legal", FW, 0, static_cast<int64_t>(k))
                                             : words(c[1], FW, 0, static_cast<int64_t>(k));
    const uint64_t wi = c[2] == "misaligned"
                            ? words("legal", IW, kIdxWords, static_cast<int64_t>(k))
                            : words(c[2], IW, kIdxWords, static_cast<int64_t>(k));
    uint64_t aa = a;
    if ((c[1] == "misaligned" || c[2] == "misaligned") && a % static_cast<uint64_t>(V) == 0)
      aa = a + u(1, static_cast<uint64_t>(V) - 1);
    auto r = regs(3);
    li(L, r[0], aa);
    li(L, r[1], wf);
    li(L, r[2], wi);
    Instr t =
        tested("V_TOPK", {{"rd", r[1]}, {"rs1", r[0]}, {"rs2", r[2]}, {"rmask", p.rmask}}, cls);
    t.tag.topk = bin;
    L.push_back(t);
  }

  void emit_dma(const std::string& m, const std::string& cls, std::vector<Instr>& L) {
    const bool mram = m == "H_PREFETCH_M";
    const uint64_t R = static_cast<uint64_t>(mram ? HMR : HVR);
    const uint64_t len = static_cast<uint64_t>(mram ? M : V);
    const uint64_t Xu = static_cast<uint64_t>(X);
    const isa::InstrSpec& I = ins(m);
    uint64_t rstride = 0;
    for (const isa::OperandSpec& o : I.operands)
      if (o.name == "rstride") rstride = pick(o.allowed);
    // Which part carries a trapping class: 0 the HBM side, 1 the on-chip rows.
    const size_t bad = static_cast<size_t>(u(0, 1));
    const std::string hc = cls == "range" || cls == "misaligned" ? (bad == 0 ? cls : "legal") : cls;
    const std::string oc = cls == "range" || cls == "misaligned" ? (bad == 1 ? cls : "legal") : cls;
    uint64_t stride = rstride ? Xu * pick(std::vector<uint64_t>{0, 1, len / Xu, u(1, 16)}) : len;
    uint64_t o0 = Xu * u(0, 8);
    if (hc == "misaligned") {
      if (rstride && R > 1 && chance(0.5))
        stride += u(1, Xu - 1);
      else
        o0 += u(1, Xu - 1);
    }
    // Scale region offset: after the codes of all rows (so it lies in the image) or random.
    const uint64_t span = o0 + (R - 1) * stride + len;
    uint64_t scale = chance(0.7) ? span + Xu * u(0, 4) : Xu * u(0, 64);
    const uint64_t codes_end = span;
    const uint64_t scales_end = scale + (o0 + (R - 1) * stride) / Xu + len / Xu;
    const uint64_t ext = std::max(codes_end, scales_end);
    uint64_t a = 0;
    uint64_t hi = 0;
    if (hc == "boundary")
      a = static_cast<uint64_t>(HB) - ext;
    else if (hc == "range") {
      if (chance(0.3))
        hi = u(1, 0xFFFFFFFFull);
      else
        a = static_cast<uint64_t>(HB) - ext + u(1, 64);
    } else
      a = chance(0.8) ? u(0, 64) : static_cast<uint64_t>(HB) - ext - u(0, 1024);
    // On-chip rows.
    uint64_t dst = 0;
    if (mram) {
      const uint64_t rows_total = static_cast<uint64_t>(MT * M);
      const uint64_t last = rows_total - R;
      uint64_t row = oc == "boundary" ? last : oc == "range" ? last + 1 + u(0, 2) : u(0, last);
      dst = row * static_cast<uint64_t>(M);
      if (oc == "misaligned") dst += u(1, static_cast<uint64_t>(M) - 1);
      for (uint64_t t = row / static_cast<uint64_t>(M);
           t <= (row + R - 1) / static_cast<uint64_t>(M) && t < tile_class_.size(); ++t)
        tile_class_[t] = "prefetched";
    } else {
      dst = vrows(oc, static_cast<int64_t>(R));
    }
    auto r = regs(5);
    const unsigned an = addr_reg();
    li(L, r[0], hi);
    li(L, r[1], a);
    L.push_back(setup("C_SET_ADDR_REG",
                      {{"an", an}, {"rs1", hi == 0 ? 0 : r[0]}, {"rs2", a == 0 ? 0 : r[1]}}));
    li(L, r[2], scale);
    L.push_back(setup("C_SET_SCALE_REG", {{"rd", scale == 0 ? 0 : r[2]}}));
    if (rstride) {
      li(L, r[3], stride);
      L.push_back(setup("C_SET_STRIDE_REG", {{"rd", stride == 0 ? 0 : r[3]}}));
    }
    li(L, r[4], dst);
    li(L, r[3], o0);
    std::map<std::string, uint64_t> ops = {{"rd", dst == 0 ? 0 : r[4]},
                                           {"rs1", o0 == 0 ? 0 : r[3]},
                                           {"an", an},
                                           {"rstride", rstride},
                                           {"prec", 0}};
    L.push_back(tested(m, ops, cls));
  }

  // ------------------------------------------------------------------ traps
  Node trap_node(const std::string& cause) {
    Node n;
    n.stage = stage();
    const unsigned saved = depth_;
    if (cause == "illegal_instruction") {
      illegal(n.lines);
    } else if (cause == "address_out_of_range" || cause == "address_misaligned") {
      std::vector<std::string> cands;
      for (const isa::InstrSpec& I : spec_.instructions())
        if (std::find(I.traps.begin(), I.traps.end(), cause) != I.traps.end())
          cands.push_back(I.mnemonic);
      const std::string m = pick(cands);
      emit(m, cause == "address_out_of_range" ? "range" : "misaligned", n.lines);
    } else if (cause == "topk_policy_unset") {
      const isa::TopkPolicySpec* p = spec_.topk_register_policy();
      auto r = regs(3);
      li(n.lines, r[0], vrows("legal", 1));
      li(n.lines, r[1], words("legal", FW, 0, 8));
      li(n.lines, r[2], words("legal", IW, kIdxWords, 8));
      n.lines.push_back(tested(
          "V_TOPK", {{"rd", r[1]}, {"rs1", r[0]}, {"rs2", r[2]}, {"rmask", p ? p->rmask : 0}},
          "legal"));
    } else if (cause == "topk_policy_invalid") {
      const isa::TopkPolicySpec* p = spec_.topk_register_policy();
      const isa::CtrlRegSpec& cr = spec_.control_register(p->reg);
      const uint64_t elo = cr.field("E")->lo, klo = cr.field("k")->lo;
      uint64_t E = u(1, static_cast<uint64_t>(MAXE)), k = 0;
      const int which = static_cast<int>(u(0, 2));
      if (which == 1) {
        E = u(1, 200);
        k = u(E + 1, 255);
      } else if (which == 2) {
        E = static_cast<uint64_t>(MAXE) + u(1, 1000);
        k = u(1, 8);
      }
      auto r = regs(4);
      li(n.lines, r[3], (E << elo) | (k << klo));
      n.lines.push_back(setup(cr.written_by, {{"rd", r[3]}}));
      li(n.lines, r[0], vrows("legal", 1));
      li(n.lines, r[1], words("legal", FW, 0, 8));
      li(n.lines, r[2], words("legal", IW, kIdxWords, 8));
      n.lines.push_back(tested(
          "V_TOPK", {{"rd", r[1]}, {"rs1", r[0]}, {"rs2", r[2]}, {"rmask", p->rmask}}, "legal"));
    } else if (cause == "loop_depth_overflow") {
      // LOOP_DEPTH nested loops, then one more C_LOOP_START.
      Node inner;
      depth_ = LD;
      inner.lines.push_back(
          tested("C_LOOP_START", {{"rd", regs(1)[0]}, {"imm", u(1, 3)}}, "legal"));
      for (unsigned d = LD; d-- > 0;) {
        Node l;
        l.loop = true;
        l.reg = loop_base_ + d;
        l.count = static_cast<uint32_t>(u(1, 2));
        l.body.push_back(std::move(inner));
        inner = std::move(l);
      }
      depth_ = saved;
      return inner;
    } else if (cause == "loop_underflow") {
      n.lines.push_back(tested("C_LOOP_END", {{"rd", regs(1)[0]}}, "legal"));
    } else if (cause == "loop_count_zero") {
      n.lines.push_back(tested("C_LOOP_START", {{"rd", regs(1)[0]}, {"imm", 0}}, "legal"));
    } else {
      throw std::logic_error("random: no trap snippet for " + cause);
    }
    depth_ = saved;
    return n;
  }

  /// An illegal_instruction word: undefined opcode, reserved operand value, register index past
  /// its file, or C_HADAMARD_TRANSFORM.
  void illegal(std::vector<Instr>& L) {
    const int kind = static_cast<int>(u(0, 3));
    const isa::Field& opf = spec_.field("opcode");
    Instr t;
    t.tag.tested = true;
    t.tag.depth = depth_;
    if (kind == 0) {
      std::vector<uint32_t> free;
      for (uint32_t op = 0; op < (1u << opf.width()); ++op)
        if (!spec_.by_opcode(static_cast<uint8_t>(op))) free.push_back(op);
      const uint32_t w = (pick(free) << opf.lo) | (static_cast<uint32_t>(u(0, 0xFFFFFFFFull)) &
                                                   ~(((1u << opf.width()) - 1) << opf.lo));
      t.text = ".word " + hex16(w);
      t.tag.cls = "undefined_opcode";
      L.push_back(t);
      return;
    }
    if (kind == 1) {
      // An imm operand with an `allowed` list, given a value outside it.
      std::vector<std::pair<const isa::InstrSpec*, const isa::OperandSpec*>> c;
      for (const isa::InstrSpec& I : spec_.instructions())
        for (const isa::OperandSpec& o : I.operands)
          if (!o.allowed.empty()) c.push_back({&I, &o});
      auto [I, o] = pick(c);
      const uint64_t mx = imm_max(o->field);
      uint64_t v = 0;
      do v = u(0, mx);
      while (o->permits(v));
      std::map<std::string, uint64_t> f = {{o->field, v}};
      t.text = ".word " + hex16(raw(I->mnemonic, f));
      t.tag.mnemonic = I->mnemonic;
      t.tag.cls = "reserved_field";
      L.push_back(t);
      return;
    }
    if (kind == 2) {
      // A register operand whose index is past its file (fN, aN with N >= count).
      std::vector<std::pair<const isa::InstrSpec*, const isa::OperandSpec*>> c;
      for (const isa::InstrSpec& I : spec_.instructions())
        for (const isa::OperandSpec& o : I.operands)
          if (o.kind != OperandKind::Imm && o.kind != OperandKind::Zero &&
              spec_.operand_kind(o.kind).count < (1u << spec_.field(o.field).width()))
            c.push_back({&I, &o});
      auto [I, o] = pick(c);
      const uint64_t v = u(spec_.operand_kind(o->kind).count, imm_max(o->field));
      std::map<std::string, uint64_t> f = {{o->field, v}};
      t.text = ".word " + hex16(raw(I->mnemonic, f));
      t.tag.mnemonic = I->mnemonic;
      t.tag.cls = "register_index";
      L.push_back(t);
      return;
    }
    L.push_back(tested("C_HADAMARD_TRANSFORM", {}, "legal"));
  }

  // ------------------------------------------------------------------ body
  std::string stage() {
    if (chance(0.3)) return "";
    std::vector<std::string> names;
    for (const auto& s : spec_.stages())
      if (s.name != "other") names.push_back(s.name);
    return pick(names);
  }

  std::string choose_mnemonic() {
    std::vector<std::string> ms;
    std::vector<double> w;
    for (const isa::InstrSpec& I : spec_.instructions()) {
      const std::string& m = I.mnemonic;
      if (drawn(m) == Drawn::never) continue;
      if (m == "C_BREAK" && (depth_ == 0 || no_break_)) continue;
      if (m == "C_SET_TOPK_REG" && no_topk_set_) continue;
      double weight = 1.0;
      // Long instructions are drawn less often (cycles bound).
      const int64_t lat =
          spec_.latency(I, P_, {{"rows", std::max(HVR, HMR)}, {"len", M}, {"E", 32}, {"k", 4}});
      if (lat > 1000) weight = 0.15;
      if (m == "C_BREAK") weight = 0.3;
      auto it = mix_.weights.find(m);
      if (it != mix_.weights.end()) weight = it->second;
      if (weight <= 0) continue;
      ms.push_back(m);
      w.push_back(weight);
    }
    // load_mix refuses weights that leave no instruction drawn always.
    if (ms.empty()) throw std::logic_error("random: no instruction to draw");
    std::discrete_distribution<size_t> d(w.begin(), w.end());
    return ms[d(rng_)];
  }

  void body(std::vector<Node>& out, unsigned depth, unsigned& left, bool loops) {
    depth_ = depth;
    while (left > 0) {
      if (loops && depth < LD && chance(mix_.loop_share)) {
        Node l;
        l.loop = true;
        l.reg = loop_base_ + depth;
        l.count = static_cast<uint32_t>(chance(0.2) ? 1 : u(1, 3));
        l.stage = stage();
        unsigned sub = static_cast<unsigned>(u(1, std::min<unsigned>(left, 4)));
        left -= sub;
        body(l.body, depth + 1, sub, loops);
        depth_ = depth;
        out.push_back(std::move(l));
      } else {
        Node s;
        s.stage = stage();
        const std::string m = choose_mnemonic();
        emit(m, chance(0.3) ? "boundary" : "legal", s.lines);
        out.push_back(std::move(s));
        --left;
      }
      if (depth > 0 && chance(0.3)) break;
    }
  }

  uint64_t cycles(const std::vector<Node>& nodes) const {
    uint64_t c = 0;
    for (const Node& n : nodes) {
      if (n.loop) {
        c += 1 + n.count * (1 + cycles(n.body));
        continue;
      }
      for (const Instr& i : n.lines) {
        const isa::InstrSpec* I = spec_.by_mnemonic(i.tag.mnemonic);
        if (!I || i.text.rfind(".word", 0) == 0) continue;
        c += static_cast<uint64_t>(spec_.latency(
            *I, P_, {{"rows", std::max(HVR, HMR)}, {"len", M}, {"E", MAXE}, {"k", 255}}));
      }
    }
    return c;
  }

  // ------------------------------------------------------------------ memories
  uint16_t bf16() {
    if (chance(special_share_)) {
      static const std::vector<uint16_t> sp = {
          0x0000, 0x8000, 0x0001, 0x8001, 0x007F, 0x807F, 0x0080, 0x8080, 0x7F7F, 0xFF7F,
          0x7F80, 0xFF80, 0x7FC0, 0xFFC0, 0x7F81, 0xFF81, 0x7FFF, 0xFFFF, 0x3F80, 0xBF80};
      if (chance(0.2))
        return static_cast<uint16_t>(u(0, 0x7F) | (chance(0.5) ? 0x8000 : 0));  // subnormal
      return pick(sp);
    }
    if (chance(0.05)) return static_cast<uint16_t>(u(0, 0xFFFF));
    const uint64_t s = u(0, 1), e = u(120, 134), mnt = u(0, 127);
    return static_cast<uint16_t>((s << 15) | (e << 7) | mnt);
  }
  void put16(std::vector<uint8_t>& b, uint16_t v) {
    b.push_back(static_cast<uint8_t>(v));
    b.push_back(static_cast<uint8_t>(v >> 8));
  }
  /// n E4M3 codes covering all 256 codes as evenly as n allows, shuffled.
  std::vector<uint8_t> codes(uint64_t n) {
    std::vector<uint8_t> c(n);
    for (uint64_t i = 0; i < n; ++i) c[i] = static_cast<uint8_t>(i);
    std::shuffle(c.begin(), c.end(), rng_);
    return c;
  }
  uint8_t e8m0(const std::string& cls) {
    if (cls == "normal") return static_cast<uint8_t>(u(120, 134));
    if (cls == "nan") return chance(0.25) ? 0xFF : static_cast<uint8_t>(u(120, 134));
    if (cls == "extreme") return pick(std::vector<uint8_t>{0x00, 0x01, 0x02, 0xFD, 0xFE, 0x7F});
    return static_cast<uint8_t>(u(0, 255));
  }

  void make_image() {
    auto vram_rows = [&](uint64_t first, uint64_t n) {
      Region r{isa::Space::Vram, first, {}};
      for (uint64_t i = 0; i < n * static_cast<uint64_t>(V); ++i) put16(r.bytes, bf16());
      out_.regions.push_back(std::move(r));
    };
    vram_rows(0, 16);
    vram_rows(static_cast<uint64_t>(VR) - 4, 4);
    Region fp{isa::Space::FpSram, 0, {}};
    for (int64_t i = 0; i < std::min<int64_t>(FW, 2 * V); ++i) put16(fp.bytes, bf16());
    out_.regions.push_back(std::move(fp));
    Region fpt{isa::Space::FpSram, static_cast<uint64_t>(FW - 16), {}};
    for (int i = 0; i < 16; ++i) put16(fpt.bytes, bf16());
    out_.regions.push_back(std::move(fpt));
    // INT SRAM: token indices, then words with FP32 specials among them.
    Region in{isa::Space::IntSram, 0, {}};
    idx_.assign(kIdxWords, 0);
    auto put32 = [](std::vector<uint8_t>& b, uint32_t v) {
      for (int s = 0; s < 32; s += 8) b.push_back(static_cast<uint8_t>(v >> s));
    };
    for (uint64_t i = 0; i < kIdxWords; ++i) {
      idx_[i] = chance(0.2) ? 0 : u(0, 7);
      put32(in.bytes, static_cast<uint32_t>(idx_[i]));
    }
    static const std::vector<uint32_t> f32sp = {0x00000000, 0x80000000, 0x00000001, 0x807FFFFF,
                                                0x7F800000, 0xFF800000, 0x7FC00000, 0x7F800001,
                                                0x7F7FFFFF, 0x3F800000, 0xFFFFFFFF};
    for (int i = 0; i < 16; ++i)
      put32(in.bytes, chance(0.5) ? pick(f32sp) : static_cast<uint32_t>(u(0, 0xFFFFFFFFull)));
    out_.regions.push_back(std::move(in));
    // MRAM: tile 0 and the last tile, each with one scale class (docs/random.md).
    const uint64_t rowb = static_cast<uint64_t>(M + M / X);
    tile_class_.assign(static_cast<size_t>(MT), "zero");
    init_tiles_ = {0, static_cast<uint64_t>(MT - 1)};
    for (uint64_t t : init_tiles_) {
      const std::string cls =
          pick(std::vector<std::string>{"normal", "nan", "extreme", "all_codes"});
      tile_class_[t] = cls;
      Region r{isa::Space::Mram, t * static_cast<uint64_t>(M), {}};
      const std::vector<uint8_t> cs = codes(static_cast<uint64_t>(M * M));
      uint64_t scale_i = 0;
      for (int64_t row = 0; row < M; ++row) {
        for (int64_t i = 0; i < M; ++i) r.bytes.push_back(cs[static_cast<size_t>(row * M + i)]);
        for (int64_t i = 0; i < M / X; ++i)
          r.bytes.push_back(cls == "all_codes" ? static_cast<uint8_t>(scale_i++ * 37 + t)
                                               : e8m0(cls));
      }
      (void)rowb;
      out_.regions.push_back(std::move(r));
    }
    // HBM: codes and scales at the bottom and the top.
    for (int side = 0; side < 2; ++side) {
      const uint64_t n =
          std::min<uint64_t>(static_cast<uint64_t>(2 * (HMR * M + HMR * M / X)), 8192);
      Region r{isa::Space::Hbm, side == 0 ? 0 : static_cast<uint64_t>(HB) - n, codes(n)};
      const std::string cls =
          pick(std::vector<std::string>{"normal", "nan", "extreme", "all_codes"});
      // Scale bytes are read from wherever SCALE points: mix scale-like bytes in.
      for (auto& b : r.bytes)
        if (chance(0.3)) b = e8m0(cls);
      out_.regions.push_back(std::move(r));
    }
  }

  const isa::Spec& spec_;
  const isa::MachinePreset& P_;
  std::mt19937_64 rng_;
  const Mix& mix_;
  int64_t V, M, B, H, X, VR, MT, FW, IW, HB, HVR, HMR, MAXE;
  unsigned LD = 0;
  unsigned loop_base_ = 12;
  unsigned depth_ = 0;
  bool no_topk_set_ = false;
  bool no_break_ = false;
  double special_share_ = 0.1;
  std::vector<uint64_t> idx_;
  std::vector<std::string> tile_class_;
  std::vector<uint64_t> init_tiles_;
  RandomProgram out_;
};

uint64_t dyn(const std::vector<Node>& nodes) {
  uint64_t c = 0;
  for (const Node& n : nodes) c += n.loop ? 1 + n.count * (1 + dyn(n.body)) : n.lines.size();
  return c;
}
uint64_t stat(const std::vector<Node>& nodes) {
  uint64_t c = 0;
  for (const Node& n : nodes) c += n.loop ? 2 + stat(n.body) : n.lines.size();
  return c;
}

void render_nodes(const isa::Spec& spec, const std::vector<Node>& nodes, unsigned depth,
                  std::ostringstream& s, std::vector<Tag>& tags) {
  for (const Node& n : nodes) {
    if (!n.stage.empty()) s << "; @stage=" << n.stage << '\n';
    if (n.loop) {
      s << std::string(depth * 2, ' ') << "C_LOOP_START gp" << n.reg << ", " << n.count << '\n';
      const std::string cls = n.count == 1 ? "boundary" : "legal";
      tags.push_back({"C_LOOP_START", cls, depth, "", "", true});
      render_nodes(spec, n.body, depth + 1, s, tags);
      s << std::string(depth * 2, ' ') << "C_LOOP_END gp" << n.reg << '\n';
      tags.push_back({"C_LOOP_END", cls, depth + 1, "", "", true});
      continue;
    }
    for (const Instr& i : n.lines) {
      s << std::string(depth * 2, ' ') << i.text << '\n';
      Tag t = i.tag;
      t.depth = depth;
      if (i.text.rfind(".word", 0) == 0 && t.mnemonic.empty()) {
        const isa::InstrSpec* I = spec.by_opcode(static_cast<uint8_t>(
            isa::extract(static_cast<uint32_t>(std::stoul(i.text.substr(6), nullptr, 16)),
                         spec.field("opcode"))));
        if (I) t.mnemonic = I->mnemonic;
      }
      tags.push_back(t);
    }
  }
}

}  // namespace

Drawn drawn(const std::string& m) {
  if (m == "C_HADAMARD_TRANSFORM" || m == "C_LOOP_START" || m == "C_LOOP_END") return Drawn::never;
  if (m == "C_BREAK" || m == "C_SET_TOPK_REG") return Drawn::sometimes;
  return Drawn::always;
}

RandomProgram generate(const isa::Spec& spec, const isa::MachinePreset& preset, uint64_t seed,
                       const Mix& mix) {
  return Gen(spec, preset, seed, mix).run();
}

uint64_t static_size(const RandomProgram& p) { return stat(p.nodes); }
uint64_t dynamic_bound(const RandomProgram& p) { return dyn(p.nodes); }

Rendered render(const isa::Spec& spec, const isa::MachinePreset& preset, const RandomProgram& p) {
  Rendered r;
  std::ostringstream s;
  s << "; moesim random seed=" << p.seed << " machine=" << p.machine;
  if (!p.intended_trap.empty()) s << " trap=" << p.intended_trap;
  s << "\n";
  render_nodes(spec, p.nodes, 0, s, r.tags);
  r.asm_text = s.str();
  r.program = isa::assemble(spec, r.asm_text, "random-" + std::to_string(p.seed) + ".asm");
  for (const Region& g : p.regions) {
    isa::MemorySegment seg{g.begin * isa::unit_bytes(g.space, preset), g.bytes};
    switch (g.space) {
      case isa::Space::Vram:
        r.image.vram.push_back(seg);
        break;
      case isa::Space::Mram:
        r.image.mram.push_back(seg);
        break;
      case isa::Space::FpSram:
        r.image.fp_sram.push_back(seg);
        break;
      case isa::Space::IntSram:
        r.image.int_sram.push_back(seg);
        break;
      case isa::Space::Hbm:
        r.image.hbm.push_back(seg);
        break;
    }
  }
  return r;
}

std::string case_yaml(const isa::MachinePreset& preset, const RandomProgram& p,
                      const std::string& comment) {
  std::ostringstream s;
  std::istringstream c(comment);
  for (std::string line; std::getline(c, line);) s << "# " << line << '\n';
  s << "machine: " << p.machine << '\n';
  if (p.budget) s << "budget: " << *p.budget << '\n';
  if (p.regions.empty()) return s.str();
  s << "init:\n";
  for (isa::Space sp : isa::kAllSpaces) {
    bool any = false;
    for (const Region& g : p.regions) {
      if (g.space != sp) continue;
      if (!any) s << "  " << isa::space_name(sp) << ":\n";
      any = true;
      const bool rows = sp == isa::Space::Vram || sp == isa::Space::Mram;
      s << "    - {" << (rows ? "row" : "addr") << ": " << g.begin << ", ";
      // Values of the region, 16 (bytes: 24) to a line.
      std::vector<std::string> vals;
      char b[16];
      if (sp == isa::Space::Vram || sp == isa::Space::FpSram) {
        s << "bf16: [";
        for (size_t i = 0; i + 1 < g.bytes.size(); i += 2) {
          std::snprintf(b, sizeof b, "\"0x%04X\"", g.bytes[i] | (g.bytes[i + 1] << 8));
          vals.push_back(b);
        }
      } else if (sp == isa::Space::IntSram) {
        s << "u32: [";
        for (size_t i = 0; i + 3 < g.bytes.size(); i += 4) {
          const uint32_t v =
              static_cast<uint32_t>(g.bytes[i] | (g.bytes[i + 1] << 8) | (g.bytes[i + 2] << 16)) |
              (static_cast<uint32_t>(g.bytes[i + 3]) << 24);
          std::snprintf(b, sizeof b, "0x%08X", v);
          vals.push_back(b);
        }
      } else {
        s << "bytes: [";
        for (uint8_t x : g.bytes) vals.push_back(std::to_string(x));
      }
      const size_t per_line = sp == isa::Space::Mram || sp == isa::Space::Hbm ? 24 : 16;
      for (size_t i = 0; i < vals.size(); ++i) {
        s << vals[i];
        if (i + 1 < vals.size()) s << ((i + 1) % per_line == 0 ? ",\n        " : ", ");
      }
      s << "]}\n";
    }
  }
  (void)preset;
  return s.str();
}

}  // namespace moesim::rnd
