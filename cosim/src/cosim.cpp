// Lockstep co-simulation harness and comparator (see cosim.hpp).
#include "moesim/cosim/cosim.hpp"

#include <algorithm>
#include <array>
#include <deque>
#include <map>
#include <sstream>
#include <stdexcept>

#include "moesim/cosim/timeline.hpp"
#include "moesim/isa/assembler.hpp"
#include "moesim/isa/format.hpp"
#include "moesim/isa/usage_error.hpp"

namespace moesim::cosim {
namespace {

constexpr uint64_t kCompareChunkBytes = uint64_t{1} << 20;

using isa::hex;

/// Per-stage accumulation for one or two engines.
class StageTable {
 public:
  /// Bills `r` and the HBM traffic `engine` reported since the previous add() of this side.
  void add(size_t side, const isa::RetireRecord& r, const isa::Engine& engine) {
    Row& row = rows_[r.stage];
    row.instructions[side] += 1;
    row.cycles[side] += r.end_cycle - r.start_cycle;
    const uint64_t rd = engine.hbm_bytes_read(), wr = engine.hbm_bytes_written();
    row.hbm_read[side] += rd - hbm_seen_[side][0];
    row.hbm_written[side] += wr - hbm_seen_[side][1];
    hbm_seen_[side] = {rd, wr};
  }
  std::vector<StageRow> rows(const isa::Spec& spec) const {
    std::vector<StageRow> out;
    auto emit = [&](uint8_t code) {
      auto it = rows_.find(code);
      if (it == rows_.end()) return;
      StageRow row;
      row.code = code;
      row.name = spec.stage_name(code);
      row.instructions = it->second.instructions;
      row.cycles = it->second.cycles;
      row.hbm_read = it->second.hbm_read;
      row.hbm_written = it->second.hbm_written;
      out.push_back(row);
    };
    for (const auto& s : spec.stages()) emit(s.code);
    for (const auto& [code, row] : rows_)  // codes not in stages.yaml (a broken engine)
      if (spec.stage_by_code(code) == nullptr) emit(code);
    return out;
  }

 private:
  struct Row {
    std::array<uint64_t, 2> instructions{};
    std::array<uint64_t, 2> cycles{};
    std::array<uint64_t, 2> hbm_read{};
    std::array<uint64_t, 2> hbm_written{};
  };
  std::map<uint8_t, Row> rows_;
  std::array<std::array<uint64_t, 2>, 2> hbm_seen_{};  ///< [side] {read, written} at the last add
};

/// Unit busy totals of one or two engines, every unit of isa.yaml.
class UnitTable {
 public:
  explicit UnitTable(const isa::Spec& spec) : rows_(spec.units().size()) {
    for (size_t u = 0; u < rows_.size(); ++u) rows_[u].name = spec.units()[u];
  }
  void add(size_t side, const isa::UnitSpan& s) {
    if (s.unit >= rows_.size())
      throw std::runtime_error("engine reported busy unit " + std::to_string(s.unit) +
                               ", isa.yaml has " + std::to_string(rows_.size()) + " units");
    rows_[s.unit].busy_cycles[side] += s.end - s.begin;
    rows_[s.unit].spans[side] += 1;
  }
  const std::vector<UnitRow>& rows() const { return rows_; }

 private:
  std::vector<UnitRow> rows_;
};

/// The token / expert pair of the instruction at r.pc; the expert read from `engine`'s INT SRAM
/// when the tag names a word (after retire, so V_TOPK's result is there).
WorkItem work_item(const std::vector<isa::WorkTag>& tags, const isa::Engine& engine,
                   const isa::RetireRecord& r) {
  WorkItem w;
  if (r.pc >= tags.size()) return w;
  const isa::WorkTag& t = tags[r.pc];
  w.token = t.token;
  w.slot = t.slot;
  w.expert = t.expert;
  if (t.expert_at >= 0 && static_cast<uint64_t>(t.expert_at) < engine.size(isa::Space::IntSram)) {
    const auto b = engine.read(isa::Space::IntSram, static_cast<uint64_t>(t.expert_at), 1);
    const uint32_t v = static_cast<uint32_t>(b[0]) | static_cast<uint32_t>(b[1]) << 8 |
                       static_cast<uint32_t>(b[2]) << 16 | static_cast<uint32_t>(b[3]) << 24;
    w.expert = v <= static_cast<uint32_t>(INT32_MAX) ? static_cast<int32_t>(v) : -1;
  }
  return w;
}

/// Hands record `r` and the spans engine `side` closed with it to the sinks and the unit table.
void feed(const CosimOptions& options, UnitTable& units, size_t side, isa::Engine& engine,
          const isa::RetireRecord& r) {
  const std::vector<isa::UnitSpan> spans = engine.take_unit_spans();
  for (const isa::UnitSpan& s : spans) units.add(side, s);
  if (options.sinks.empty()) return;
  const WorkItem w = work_item(options.work, engine, r);
  for (TimelineSink* sink : options.sinks) {
    sink->instruction(side, r, w);
    for (const isa::UnitSpan& s : spans) sink->unit_busy(side, s);
  }
}

std::string mem_text(const isa::MemWrite& m) {
  return std::string(isa::space_name(m.space)) + "[" + std::to_string(m.begin) + "," +
         std::to_string(m.end) + ")#" + hex(m.digest);
}

/// Readable lines for each difference between the two divergent records.
std::vector<std::string> explain(const isa::Spec& spec, const std::array<isa::Engine*, 2>& eng,
                                 const isa::RetireRecord& a, const isa::RetireRecord& b) {
  const std::string na = eng[0]->name(), nb = eng[1]->name();
  std::vector<std::string> out;
  auto both = [&](const std::string& field, const std::string& va, const std::string& vb) {
    out.push_back(field + ": " + na + " " + va + ", " + nb + " " + vb);
  };
  if (a.index != b.index) both("index", std::to_string(a.index), std::to_string(b.index));
  if (a.pc != b.pc) both("pc", std::to_string(a.pc), std::to_string(b.pc));
  if (a.word != b.word)
    both("word", hex(a.word) + " (" + isa::disassemble(spec, a.word) + ")",
         hex(b.word) + " (" + isa::disassemble(spec, b.word) + ")");
  if (a.stage != b.stage) both("stage", spec.stage_name(a.stage), spec.stage_name(b.stage));
  if (a.start_cycle != b.start_cycle)
    both("start_cycle", std::to_string(a.start_cycle), std::to_string(b.start_cycle));
  if (a.end_cycle != b.end_cycle)
    both("end_cycle", std::to_string(a.end_cycle), std::to_string(b.end_cycle));
  if (a.regs != b.regs) {
    std::map<std::pair<int, int>, std::array<std::optional<uint64_t>, 2>> m;
    for (const auto& w : a.regs) m[{static_cast<int>(w.file), w.index}][0] = w.value;
    for (const auto& w : b.regs) m[{static_cast<int>(w.file), w.index}][1] = w.value;
    for (const auto& [key, v] : m) {
      if (v[0] == v[1]) continue;
      auto show = [](const std::optional<uint64_t>& x) { return x ? hex(*x) : "not written"; };
      both("regs " +
               reg_name(static_cast<isa::RegFile>(key.first), static_cast<uint8_t>(key.second)),
           show(v[0]), show(v[1]));
    }
  }
  if (a.mems != b.mems) {
    std::string ma, mb;
    for (const auto& w : a.mems) ma += (ma.empty() ? "" : " ") + mem_text(w);
    for (const auto& w : b.mems) mb += (mb.empty() ? "" : " ") + mem_text(w);
    both("mems", ma.empty() ? "-" : ma, mb.empty() ? "-" : mb);
    // Same range, different contents: name the first differing byte.
    for (const auto& wa : a.mems) {
      for (const auto& wb : b.mems) {
        if (wa.space != wb.space || wa.begin != wb.begin || wa.end != wb.end ||
            wa.digest == wb.digest)
          continue;
        const auto ba = eng[0]->read(wa.space, wa.begin, wa.end - wa.begin);
        const auto bb = eng[1]->read(wb.space, wb.begin, wb.end - wb.begin);
        const uint64_t ub = ba.size() / (wa.end - wa.begin);
        for (size_t i = 0; i < std::min(ba.size(), bb.size()); ++i) {
          if (ba[i] == bb[i]) continue;
          out.push_back(std::string(isa::space_name(wa.space)) + " unit " +
                        std::to_string(wa.begin + i / ub) + " byte " + std::to_string(i % ub) +
                        " (first differing byte): " + na + " " + hex(ba[i]) + ", " + nb + " " +
                        hex(bb[i]));
          break;
        }
      }
    }
  }
  if (!(a.trap == b.trap)) {
    auto show = [&](const std::optional<isa::Trap>& t) {
      if (!t) return std::string("none");
      const isa::TrapSpec* ts = spec.trap_by_code(t->cause);
      return (ts ? ts->name : "cause " + std::to_string(t->cause)) + " at pc " +
             std::to_string(t->pc);
    };
    both("trap", show(a.trap), show(b.trap));
  }
  return out;
}

void compare_regs(const isa::ArchRegs& a, const isa::ArchRegs& b, std::vector<RegDiff>& out) {
  const auto ra = named_registers(a), rb = named_registers(b);
  for (size_t i = 0; i < ra.size(); ++i)
    if (ra[i].second != rb[i].second) out.push_back({ra[i].first, {ra[i].second, rb[i].second}});
}

SpaceDiff compare_space(const isa::Engine& a, const isa::Engine& b, isa::Space space) {
  SpaceDiff d;
  d.space = space;
  const uint64_t sa = a.size(space), sb = b.size(space);
  d.size_differs = sa != sb;
  const uint64_t units = std::min(sa, sb);
  if (units == 0) return d;
  // Unit size from the engine itself (one unit read), so the comparator needs no preset.
  d.unit_bytes = a.read(space, 0, 1).size();
  d.size_bytes = units * d.unit_bytes;
  const uint64_t chunk = std::max<uint64_t>(1, kCompareChunkBytes / d.unit_bytes);
  for (uint64_t u = 0; u < units; u += chunk) {
    const uint64_t n = std::min(chunk, units - u);
    const auto ba = a.read(space, u, n);
    const auto bb = b.read(space, u, n);
    if (ba.size() != bb.size())
      throw std::runtime_error(std::string("engines return different byte counts for ") +
                               isa::space_name(space));
    if (ba == bb) continue;
    for (size_t i = 0; i < ba.size(); ++i) {
      if (ba[i] == bb[i]) continue;
      const uint64_t at = u * d.unit_bytes + i;
      if (!d.first_byte) {
        d.first_byte = at;
        d.first_values = {ba[i], bb[i]};
      }
      ++d.differing_bytes;
      if (!d.ranges.empty() && d.ranges.back().second == at) {
        d.ranges.back().second = at + 1;
      } else if (d.ranges.size() < SpaceDiff::kMaxDiffRanges) {
        d.ranges.emplace_back(at, at + 1);
      }
    }
  }
  return d;
}

}  // namespace

std::string reg_name(isa::RegFile file, uint8_t index) {
  switch (file) {
    case isa::RegFile::Gp:
      return "gp" + std::to_string(index);
    case isa::RegFile::Fp:
      return "f" + std::to_string(index);
    case isa::RegFile::Addr:
      return "a" + std::to_string(index);
    case isa::RegFile::Ctrl:
      for (const isa::CtrlRegName& c : isa::kCtrlRegNames)  // isa.yaml control_registers
        if (static_cast<uint8_t>(c.reg) == index) return c.name;
      return "ctrl" + std::to_string(index);
  }
  return "reg?" + std::to_string(index);
}

std::vector<std::pair<std::string, uint64_t>> named_registers(const isa::ArchRegs& r) {
  std::vector<std::pair<std::string, uint64_t>> out;
  for (size_t i = 0; i < r.gp.size(); ++i)
    out.emplace_back(reg_name(isa::RegFile::Gp, static_cast<uint8_t>(i)), r.gp[i]);
  for (size_t i = 0; i < r.fp.size(); ++i)
    out.emplace_back(reg_name(isa::RegFile::Fp, static_cast<uint8_t>(i)), r.fp[i]);
  for (size_t i = 0; i < r.addr.size(); ++i)
    out.emplace_back(reg_name(isa::RegFile::Addr, static_cast<uint8_t>(i)), r.addr[i]);
  // ArchRegs names its control registers; their order is isa.yaml's (CtrlReg).
  static_assert(isa::kNumCtrlRegs == 4, "isa.yaml control_registers: update ArchRegs and this");
  const std::array<uint32_t, isa::kNumCtrlRegs> ctrl{r.scale, r.stride, r.v_mask, r.topk_policy};
  for (uint8_t i = 0; i < isa::kNumCtrlRegs; ++i)
    out.emplace_back(reg_name(isa::RegFile::Ctrl, i), ctrl[i]);
  out.emplace_back("TOPK_VALID", r.topk_valid ? 1 : 0);
  return out;
}

void fill_digests(const isa::Engine& engine, isa::RetireRecord& r) {
  for (auto& m : r.mems) {
    const auto bytes = engine.read(m.space, m.begin, m.end - m.begin);
    m.digest = isa::fnv1a64(bytes.data(), bytes.size());
  }
}

namespace {

/// Ends every sink; a write error (disk full...) is an output problem, reported as bad usage.
void finish_sinks(const CosimOptions& options, uint64_t end_time) {
  for (TimelineSink* sink : options.sinks) {
    try {
      sink->finish(end_time);
    } catch (const std::runtime_error& e) {
      throw UsageError(std::string("timeline output: ") + e.what());
    }
  }
}

}  // namespace

std::vector<std::string> differing_fields(const isa::RetireRecord& a, const isa::RetireRecord& b) {
  std::vector<std::string> f;
  if (a.index != b.index) f.push_back("index");
  if (a.pc != b.pc) f.push_back("pc");
  if (a.word != b.word) f.push_back("word");
  if (a.stage != b.stage) f.push_back("stage");
  if (a.start_cycle != b.start_cycle) f.push_back("start_cycle");
  if (a.end_cycle != b.end_cycle) f.push_back("end_cycle");
  if (a.regs != b.regs) f.push_back("regs");
  if (a.mems != b.mems) f.push_back("mems");
  if (!(a.trap == b.trap)) f.push_back("trap");
  return f;
}

bool CosimResult::outputs_bit_exact() const {
  if (!completed || divergence) return false;
  if (!reg_diffs.empty()) return false;
  return std::all_of(spaces.begin(), spaces.end(), [](const SpaceDiff& s) { return s.equal(); });
}

bool CosimResult::cycles_match() const {
  if (!completed || divergence) return false;
  if (total_cycles[0] != total_cycles[1] || retired[0] != retired[1]) return false;
  return std::all_of(stages.begin(), stages.end(), [](const StageRow& r) { return r.match(); }) &&
         std::all_of(units.begin(), units.end(), [](const UnitRow& u) { return u.match(); });
}

bool CosimResult::profiles_match() const {
  if (!completed || divergence) return false;
  return std::all_of(stages.begin(), stages.end(),
                     [](const StageRow& r) { return r.match() && r.hbm_match(); });
}

CosimResult run_cosim(const isa::Spec& spec, isa::Engine& a, isa::Engine& b,
                      const CosimOptions& options) {
  const std::array<isa::Engine*, 2> eng{&a, &b};
  CosimResult res;
  res.engines = {a.name(), b.name()};
  StageTable table;
  UnitTable units(spec);
  std::array<std::deque<isa::RetireRecord>, 2> history;
  uint64_t index = 0;
  for (;;) {
    std::array<isa::RetireRecord, 2> rec;
    std::array<bool, 2> got{};
    for (size_t s = 0; s < 2; ++s) {
      got[s] = eng[s]->step(rec[s]);
      if (got[s]) {
        fill_digests(*eng[s], rec[s]);
        table.add(s, rec[s], *eng[s]);
        feed(options, units, s, *eng[s], rec[s]);
      }
    }
    if (!got[0] && !got[1]) {
      res.completed = true;
      break;
    }
    std::vector<std::string> fields;
    if (got[0] && got[1]) {
      fields = differing_fields(rec[0], rec[1]);
    } else {
      fields = {"retired"};
    }
    if (!fields.empty()) {
      Divergence d;
      d.index = index;
      d.fields = fields;
      for (size_t s = 0; s < 2; ++s) {
        if (got[s]) d.records[s] = rec[s];
        d.history[s].assign(history[s].begin(), history[s].end());
      }
      if (got[0] && got[1]) {
        d.details = explain(spec, eng, rec[0], rec[1]);
      } else {
        const size_t stopped = got[0] ? 1 : 0;
        d.details.push_back(eng[stopped]->name() + " stopped after " +
                            std::to_string(eng[stopped]->retired()) + " instructions; " +
                            eng[1 - stopped]->name() + " retired pc " +
                            std::to_string(rec[1 - stopped].pc));
      }
      uint64_t t = UINT64_MAX;
      for (size_t s = 0; s < 2; ++s)
        if (got[s]) t = std::min(t, rec[s].start_cycle);
      for (TimelineSink* sink : options.sinks) sink->mismatch(t);
      res.divergence = std::move(d);
      break;
    }
    if (rec[0].trap) res.trap = rec[0].trap;
    for (size_t s = 0; s < 2; ++s) {
      history[s].push_back(std::move(rec[s]));
      if (history[s].size() > options.history) history[s].pop_front();
    }
    ++index;
    res.compared = index;
    if (options.progress && options.progress_every != 0 && index % options.progress_every == 0)
      options.progress(index, a.cycles());
    if (options.max_instructions != 0 && index >= options.max_instructions) {
      // The limit is reached only if an instruction is left: a program that ends with exactly
      // max_instructions retired has ended (the extra step of a halted engine returns false).
      isa::RetireRecord extra[2];
      const bool more_a = a.step(extra[0]), more_b = b.step(extra[1]);
      res.limit_reached = more_a || more_b;
      res.completed = !res.limit_reached;
      break;
    }
  }
  res.stages = table.rows(spec);
  res.units = units.rows();
  for (size_t s = 0; s < 2; ++s) {
    res.total_cycles[s] = eng[s]->cycles();
    res.retired[s] = eng[s]->retired();
  }
  compare_regs(a.regs(), b.regs(), res.reg_diffs);
  for (isa::Space sp : isa::kAllSpaces) res.spaces.push_back(compare_space(a, b, sp));
  finish_sinks(options, std::max(res.total_cycles[0], res.total_cycles[1]));
  return res;
}

RunResult run_single(const isa::Spec& spec, isa::Engine& engine, const CosimOptions& options) {
  RunResult res;
  res.engine = engine.name();
  StageTable table;
  UnitTable units(spec);
  uint64_t n = 0;
  for (;;) {
    isa::RetireRecord r;
    if (!engine.step(r)) break;
    table.add(0, r, engine);
    feed(options, units, 0, engine, r);
    if (r.trap) res.trap = r.trap;
    ++n;
    if (options.progress && options.progress_every != 0 && n % options.progress_every == 0)
      options.progress(n, engine.cycles());
    if (options.max_instructions != 0 && n >= options.max_instructions) {
      isa::RetireRecord extra;  // as in run_cosim: the limit counts only if one is left
      res.limit_reached = engine.step(extra);
      break;
    }
  }
  res.stages = table.rows(spec);
  res.units = units.rows();
  res.total_cycles = engine.cycles();
  res.retired = engine.retired();
  finish_sinks(options, res.total_cycles);
  return res;
}

}  // namespace moesim::cosim
