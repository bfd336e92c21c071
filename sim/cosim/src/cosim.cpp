// Lockstep co-simulation harness and comparator (see cosim.hpp).
#include "moesim/cosim/cosim.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <deque>
#include <map>
#include <sstream>
#include <stdexcept>
#include <tuple>

#include "moesim/cosim/timeline.hpp"
#include "moesim/isa/assembler.hpp"
#include "moesim/isa/encoding.hpp"
#include "moesim/isa/format.hpp"
#include "moesim/isa/usage_error.hpp"

namespace moesim::cosim {
namespace {

/// The final comparison reads each space in chunks of this many bytes from both engines. Small
/// enough that the two chunk buffers (engine read() returns a new vector) come from malloc's heap
/// and are reused: 1 MiB buffers were mapped and unmapped afresh for every chunk, and first
/// touches of pages are slow on a virtual machine (64 MiB of HBM per engine: about a tenth of
/// the demo program's co-simulation time).
constexpr uint64_t kCompareChunkBytes = uint64_t{16} << 10;

using isa::hex;

/// A retire record that queued a DMA transfer: a DMA instruction (isa.yaml unit `dma`) that
/// occupied the core for one cycle (docs/overlap.md section 2; serially it occupies it for its
/// whole latency, at least HBM_LATENCY cycles).
bool queues_transfer(const isa::Spec& spec, const isa::RetireRecord& r) {
  if (r.kind != isa::RecordKind::Retire || r.trap || r.end_cycle != r.start_cycle + 1) return false;
  const isa::InstrSpec* ins = isa::decode(spec, r.word).spec;
  return ins != nullptr && ins->unit == isa::unit_name(isa::Unit::Dma);
}

/// Per-stage accumulation for one or two engines: the cycle billing of docs/overlap.md section 7
/// from each engine's own records, as they arrive (in the order of their end cycles).
///
/// Every cycle of the run goes to one stage: a cycle some instruction occupies (a retire record's
/// [start_cycle, end_cycle)) to that instruction's stage; a cycle no instruction occupies (a
/// stall, [ready_cycle, start_cycle), or the drain after the last instruction) to the stage of the
/// transfer in progress then. A transfer's hidden cycles are those of [s, f) occupied by another
/// instruction than its own DMA instruction: (f - s) minus its unoccupied cycles minus its DMA
/// instruction's issue cycle when the transfer started in it. A transfer can be settled once the
/// core's occupancy is known up to f: unoccupied cycles only come from a record's stall, whose
/// gap [ready, start) is known when that record arrives, and the next gap starts at or after the
/// end of the last retire record. With DMA_QUEUE 0 no cycle is unoccupied and no transfer record
/// comes: the billing is the retire records' occupancy.
class StageTable {
 public:
  explicit StageTable(const isa::Spec& spec) : spec_(spec) {}

  /// Bills `r` of engine `side` and the HBM bytes its engine attributed to it
  /// (isa::RetireRecord::hbm_read, hbm_written).
  void add(size_t side, const isa::RetireRecord& r) {
    Row& row = rows_[r.stage];
    row.hbm_read[side] += r.hbm_read;
    row.hbm_written[side] += r.hbm_written;
    Side& sd = sides_[side];
    if (r.kind == isa::RecordKind::Transfer) {
      Pending t{r.stage, r.start_cycle, r.end_cycle, 0, false};
      const auto it = sd.dma_issue.find(r.index);
      if (it != sd.dma_issue.end()) {
        t.own = it->second == r.start_cycle;
        sd.dma_issue.erase(it);
      }
      sd.pending.push_back(t);
      return;
    }
    row.instructions[side] += 1;
    row.cycles[side] += r.end_cycle - r.start_cycle;
    if (r.stall_cycles != 0) {
      row.stall_cycles[side] += r.stall_cycles;
      const auto cause = static_cast<size_t>(r.stall_cause);
      if (cause >= 1 && cause <= kStallCauses)
        row.stall_by_cause[cause - 1][side] += r.stall_cycles;
      bill_unoccupied(side, r.ready_cycle, r.start_cycle);
    }
    sd.occupied_to = std::max(sd.occupied_to, r.end_cycle);
    if (queues_transfer(spec_, r)) sd.dma_issue[r.index] = r.start_cycle;
    settle(side, sd.occupied_to);
  }

  /// Ends the billing of engine `side`: the cycles after its last instruction go to the transfers
  /// still unsettled (the queue drained), and these are settled.
  void finish(size_t side) {
    bill_unoccupied(side, sides_[side].occupied_to, UINT64_MAX);
    settle(side, UINT64_MAX);
  }

  std::vector<StageRow> rows(const isa::Spec& spec) const {
    std::vector<StageRow> out;
    auto emit = [&](uint8_t code) {
      auto it = rows_.find(code);
      if (it == rows_.end()) return;
      StageRow row = it->second;
      row.code = code;
      row.name = spec.stage_name(code);
      out.push_back(row);
    };
    for (const auto& s : spec.stages()) emit(s.code);
    for (const auto& [code, row] : rows_)  // codes not in stages.yaml (a broken engine)
      if (spec.stage_by_code(code) == nullptr) emit(code);
    return out;
  }

 private:
  static constexpr size_t kStallCauses = std::tuple_size_v<decltype(StageRow::stall_by_cause)>;
  using Row = StageRow;
  /// A transfer whose hidden cycles are not known yet.
  struct Pending {
    uint8_t stage;
    uint64_t s, f;
    uint64_t unoccupied;  ///< cycles of [s, f) no instruction occupied, billed to it
    bool own;             ///< its DMA instruction issued in s (occupying the core in s)
  };
  struct Side {
    std::deque<Pending> pending;  ///< in completion order
    uint64_t occupied_to = 0;     ///< end of the last retire record: the next gap starts there
    /// Issue cycles of the one-cycle DMA instructions whose transfer has not arrived, by index.
    std::map<uint64_t, uint64_t> dma_issue;
  };

  /// Bills the unoccupied cycles [from, to) to the transfers in progress then.
  void bill_unoccupied(size_t side, uint64_t from, uint64_t to) {
    for (Pending& t : sides_[side].pending) {
      const uint64_t a = std::max(from, t.s), b = std::min(to, t.f);
      if (a >= b) continue;
      t.unoccupied += b - a;
      rows_[t.stage].cycles[side] += b - a;
    }
  }
  /// Settles the transfers that complete by `upto`: their hidden cycles.
  void settle(size_t side, uint64_t upto) {
    auto& q = sides_[side].pending;
    while (!q.empty() && q.front().f <= upto) {
      const Pending& t = q.front();
      rows_[t.stage].hidden_cycles[side] += t.f - t.s - t.unoccupied - (t.own ? 1 : 0);
      q.pop_front();
    }
  }

  const isa::Spec& spec_;
  std::map<uint8_t, Row> rows_;
  std::array<Side, 2> sides_;
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
void feed(const isa::Spec& spec, const CosimOptions& options, UnitTable& units, size_t side,
          isa::Engine& engine, const isa::RetireRecord& r) {
  const std::vector<isa::UnitSpan> spans = engine.take_unit_spans();
  for (const isa::UnitSpan& s : spans) units.add(side, s);
  if (options.sinks.empty()) return;
  if (r.kind == isa::RecordKind::Transfer) {
    for (TimelineSink* sink : options.sinks) {
      for (const isa::UnitSpan& s : spans) sink->unit_busy(side, s);
      sink->transfer(side, r);
    }
    return;
  }
  const WorkItem w = work_item(options.work, engine, r);
  const bool issue = queues_transfer(spec, r);
  for (TimelineSink* sink : options.sinks) {
    sink->instruction(side, r, w);
    if (issue) sink->dma_issue(side, r);
    for (const isa::UnitSpan& s : spans) sink->unit_busy(side, s);
  }
}

/// Last writer of every memory unit one engine's retire records named, per space, as disjoint
/// intervals [begin, end) -> writer. Also the set of units the program wrote.
class WriteMap {
 public:
  void write(const isa::RetireRecord& r) {
    for (const isa::MemWrite& m : r.mems) assign(m.space, m.begin, m.end, {r.index, r.pc, r.word});
  }
  std::optional<Writer> writer(isa::Space space, uint64_t unit) const {
    const auto& m = spaces_[static_cast<size_t>(space)];
    auto it = m.upper_bound(unit);
    if (it == m.begin()) return std::nullopt;
    --it;
    if (unit < it->second.first) return it->second.second;
    return std::nullopt;
  }

 private:
  void assign(isa::Space space, uint64_t begin, uint64_t end, const Writer& w) {
    if (end <= begin) return;
    auto& m = spaces_[static_cast<size_t>(space)];
    auto it = m.lower_bound(begin);
    if (it != m.begin()) {
      auto prev = std::prev(it);
      if (prev->second.first > begin) {  // cut the interval that straddles `begin`
        const auto old = prev->second;
        prev->second.first = begin;
        if (old.first > end) m.emplace(end, old);  // and keep its part past `end`
      }
    }
    while (it != m.end() && it->first < end) {
      if (it->second.first > end) {  // keep the part past `end`
        const auto tail = it->second;
        m.erase(it);
        m.emplace(end, tail);
        break;
      }
      it = m.erase(it);
    }
    m[begin] = {end, w};
  }
  std::array<std::map<uint64_t, std::pair<uint64_t, Writer>>, isa::kAllSpaces.size()> spaces_;
};

/// One engine's registers as its retire records left them (reset values first): the values an
/// instruction's operands held at issue.
class ShadowRegs {
 public:
  ShadowRegs() {
    const isa::ArchRegs reset;
    const std::array<uint32_t, isa::kNumCtrlRegs> ctrl{reset.scale, reset.stride, reset.v_mask,
                                                       reset.topk_policy};
    for (size_t i = 0; i < ctrl.size(); ++i)
      values_[static_cast<size_t>(isa::RegFile::Ctrl)][i] = ctrl[i];
  }
  void retire(const isa::RetireRecord& r) {
    for (const isa::RegWrite& w : r.regs)
      values_[static_cast<size_t>(w.file) & 3][w.index] = w.value;
  }
  uint64_t value(isa::RegFile file, uint8_t index) const {
    return values_[static_cast<size_t>(file) & 3][index];
  }

 private:
  std::array<std::array<uint64_t, 256>, 4> values_{};
};

/// The operands of `r`'s instruction with their values at issue (see OperandValue).
std::vector<OperandValue> operand_values(const isa::Spec& spec, const ShadowRegs& regs,
                                         const isa::RetireRecord& r) {
  std::vector<OperandValue> out;
  const isa::Decoded d = isa::decode(spec, r.word);
  if (d.spec == nullptr) return out;
  std::vector<OperandValue> imms;
  for (const isa::OperandSpec& op : d.spec->operands) {
    const uint32_t v = isa::extract(r.word, spec.field(op.field));
    switch (op.kind) {
      case isa::OperandKind::Gp:
      case isa::OperandKind::Fp:
      case isa::OperandKind::Addr: {
        const isa::RegFile file = op.kind == isa::OperandKind::Gp   ? isa::RegFile::Gp
                                  : op.kind == isa::OperandKind::Fp ? isa::RegFile::Fp
                                                                    : isa::RegFile::Addr;
        out.push_back({op.name, reg_name(file, static_cast<uint8_t>(v)),
                       regs.value(file, static_cast<uint8_t>(v))});
        break;
      }
      case isa::OperandKind::Imm:
        imms.push_back({op.name, "", v});
        break;
      case isa::OperandKind::Zero:
        break;
    }
  }
  out.insert(out.end(), imms.begin(), imms.end());
  for (const isa::CtrlRegName& c : isa::kCtrlRegNames) {
    const std::string name = c.name;
    const size_t at = d.spec->semantics.find(name);
    if (at == std::string::npos) continue;
    // A whole word: not STRIDE inside "rstride" nor V_MASK inside another name.
    auto word_char = [](char ch) {
      return std::isalnum(static_cast<unsigned char>(ch)) || ch == '_';
    };
    const std::string& t = d.spec->semantics;
    if ((at > 0 && word_char(t[at - 1])) ||
        (at + name.size() < t.size() && word_char(t[at + name.size()])))
      continue;
    out.push_back({name, name, regs.value(isa::RegFile::Ctrl, static_cast<uint8_t>(c.reg))});
  }
  return out;
}

/// Bytes of one element of `space` (the unit of comparison of ElementDiff).
uint64_t element_bytes(isa::Space space) {
  switch (space) {
    case isa::Space::Vram:
    case isa::Space::FpSram:
      return 2;
    case isa::Space::IntSram:
      return 4;
    case isa::Space::Mram:
    case isa::Space::Hbm:
      break;
  }
  return 1;
}

/// The written ranges of the divergent records whose bytes differ between the engines, decoded.
std::vector<MemDiff> mem_diffs(const std::array<isa::Engine*, 2>& eng,
                               const std::array<WriteMap, 2>& writers, uint64_t mlen,
                               const isa::RetireRecord& a, const isa::RetireRecord& b) {
  // Every range either record wrote, once.
  std::vector<isa::MemWrite> ranges;
  for (const auto* list : {&a.mems, &b.mems})
    for (const isa::MemWrite& m : *list)
      if (std::none_of(ranges.begin(), ranges.end(), [&](const isa::MemWrite& x) {
            return x.space == m.space && x.begin == m.begin && x.end == m.end;
          }))
        ranges.push_back(m);
  std::vector<MemDiff> out;
  for (const isa::MemWrite& m : ranges) {
    const uint64_t n = m.end - m.begin;
    if (n == 0 || m.end > eng[0]->size(m.space) || m.end > eng[1]->size(m.space)) continue;
    const auto ba = eng[0]->read(m.space, m.begin, n);
    const auto bb = eng[1]->read(m.space, m.begin, n);
    if (ba == bb || ba.size() != bb.size()) continue;
    const uint64_t ub = ba.size() / n;
    const uint64_t eb = element_bytes(m.space);
    const uint64_t ml = mlen != 0 ? mlen : ub;
    MemDiff d;
    d.space = m.space;
    d.begin = m.begin;
    d.end = m.end;
    std::optional<uint64_t> last_element;
    for (size_t i = 0; i < ba.size(); ++i) {
      if (ba[i] == bb[i]) continue;
      ++d.differing_bytes;
      const uint64_t unit = m.begin + i / ub, byte = i % ub;
      const uint64_t first = i - byte % eb;  // element start, offset in the range
      if (last_element && *last_element == first) continue;
      last_element = first;
      ++d.differing_elements;
      if (d.elements.size() >= MemDiff::kMaxElements) continue;
      ElementDiff e;
      e.unit = unit;
      e.byte = byte - byte % eb;
      e.element = isa::element_name(m.space, ml, e.byte);
      const uint8_t* ua = ba.data() + (i - byte);
      const uint8_t* ubp = bb.data() + (i - byte);
      e.values = {isa::element_value(m.space, ua, ml, e.byte),
                  isa::element_value(m.space, ubp, ml, e.byte)};
      if (d.elements.empty())
        for (size_t s = 0; s < 2; ++s) d.previous_writer[s] = writers[s].writer(m.space, unit);
      d.elements.push_back(std::move(e));
    }
    out.push_back(std::move(d));
  }
  return out;
}

std::string mem_text(const isa::MemWrite& m) {
  return std::string(isa::space_name(m.space)) + "[" + std::to_string(m.begin) + "," +
         std::to_string(m.end) + ")#" + hex(m.digest, 16);
}

/// Readable lines for each difference between the two divergent records.
std::vector<std::string> explain(const isa::Spec& spec, const std::array<isa::Engine*, 2>& eng,
                                 const isa::RetireRecord& a, const isa::RetireRecord& b) {
  const std::string na = eng[0]->name(), nb = eng[1]->name();
  std::vector<std::string> out;
  auto both = [&](const std::string& field, const std::string& va, const std::string& vb) {
    out.push_back(field + ": " + na + " " + va + ", " + nb + " " + vb);
  };
  if (a.kind != b.kind) both("kind", isa::record_kind_name(a.kind), isa::record_kind_name(b.kind));
  if (a.index != b.index) both("index", std::to_string(a.index), std::to_string(b.index));
  if (a.pc != b.pc) both("pc", std::to_string(a.pc), std::to_string(b.pc));
  if (a.word != b.word)
    both("word", hex(a.word) + " (" + isa::disassemble(spec, a.word) + ")",
         hex(b.word) + " (" + isa::disassemble(spec, b.word) + ")");
  if (a.stage != b.stage) both("stage", spec.stage_name(a.stage), spec.stage_name(b.stage));
  if (a.ready_cycle != b.ready_cycle)
    both("ready_cycle", std::to_string(a.ready_cycle), std::to_string(b.ready_cycle));
  if (a.stall_cycles != b.stall_cycles)
    both("stall_cycles", std::to_string(a.stall_cycles), std::to_string(b.stall_cycles));
  if (a.stall_cause != b.stall_cause)
    both("stall_cause", isa::stall_cause_name(a.stall_cause), isa::stall_cause_name(b.stall_cause));
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

SpaceDiff compare_space(const isa::Engine& a, const isa::Engine& b, isa::Space space,
                        const std::array<WriteMap, 2>& writers) {
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
      const uint64_t unit = at / d.unit_bytes;
      const std::array<std::optional<Writer>, 2> w{writers[0].writer(space, unit),
                                                   writers[1].writer(space, unit)};
      if (!d.first_byte) {
        d.first_byte = at;
        d.first_values = {ba[i], bb[i]};
        d.first_writer = w;
      }
      ++d.differing_bytes;
      if (!w[0] && !w[1]) ++d.unwritten_differing_bytes;
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
    } catch (const UsageError&) {
      throw;  // names its output already
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
  if (a.kind != b.kind) f.push_back("kind");
  if (a.stage != b.stage) f.push_back("stage");
  if (a.ready_cycle != b.ready_cycle) f.push_back("ready_cycle");
  if (a.stall_cycles != b.stall_cycles) f.push_back("stall_cycles");
  if (a.stall_cause != b.stall_cause) f.push_back("stall_cause");
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
  return std::all_of(spaces.begin(), spaces.end(),
                     [](const SpaceDiff& s) { return s.outputs_equal(); });
}

bool CosimResult::final_state_equal() const {
  return reg_diffs.empty() &&
         std::all_of(spaces.begin(), spaces.end(), [](const SpaceDiff& s) { return s.equal(); });
}

bool CosimResult::cycles_match() const {
  if (!completed || divergence) return false;
  if (total_cycles[0] != total_cycles[1] || retired[0] != retired[1]) return false;
  return std::all_of(stages.begin(), stages.end(), [](const StageRow& r) { return r.match(); }) &&
         std::all_of(units.begin(), units.end(), [](const UnitRow& u) { return u.match(); });
}

bool CosimResult::profiles_match() const {
  if (!completed || divergence || hbm_difference) return false;
  return std::all_of(stages.begin(), stages.end(),
                     [](const StageRow& r) { return r.match() && r.hbm_match(); });
}

struct Lockstep::Impl {
  Impl(const isa::Spec& spec, isa::Engine& a, isa::Engine& b, const CosimOptions& options)
      : spec(spec),
        options(options),
        eng{&a, &b},
        table(spec),
        units(spec),
        base{a.retired(), b.retired()} {
    res.engines = {a.name(), b.name()};
  }
  const isa::Spec& spec;
  const CosimOptions& options;
  const std::array<isa::Engine*, 2> eng;
  CosimResult res;
  StageTable table;
  UnitTable units;
  std::array<std::deque<isa::RetireRecord>, 2> history;
  std::array<WriteMap, 2> writers;   // last writer per memory unit, per engine
  std::array<ShadowRegs, 2> shadow;  // registers as the records left them, per engine
  // Retire indices before this run (a window or focused run starts from a checkpoint).
  const std::array<uint64_t, 2> base;
  std::array<isa::RetireRecord, 2> rec;
  std::array<const isa::RetireRecord*, 2> last{};  // the records of the last next()
  std::vector<std::string> fields;                 // and how they differ
  bool done = false, finished = false;
};

Lockstep::Lockstep(const isa::Spec& spec, isa::Engine& a, isa::Engine& b,
                   const CosimOptions& options)
    : impl_(std::make_unique<Impl>(spec, a, b, options)) {}

Lockstep::~Lockstep() = default;

bool Lockstep::done() const { return impl_->done; }

const std::array<const isa::RetireRecord*, 2>& Lockstep::records() const { return impl_->last; }

const std::vector<std::string>& Lockstep::fields() const { return impl_->fields; }

bool Lockstep::next() {
  Impl& m = *impl_;
  if (m.done) return false;
  const CosimOptions& options = m.options;
  const std::array<isa::Engine*, 2>& eng = m.eng;
  CosimResult& res = m.res;
  std::array<isa::RetireRecord, 2>& rec = m.rec;
  m.last = {};
  std::array<bool, 2> got{};
  for (size_t s = 0; s < 2; ++s) {
    rec[s] = isa::RetireRecord{};  // each step fills a fresh record, as run_cosim always did
    got[s] = eng[s]->step(rec[s]);
    if (got[s]) {
      fill_digests(*eng[s], rec[s]);
      m.table.add(s, rec[s]);
      feed(m.spec, options, m.units, s, *eng[s], rec[s]);
    }
  }
  if (!got[0] && !got[1]) {
    res.completed = true;
    m.fields.clear();
    m.done = true;
    return false;
  }
  if (got[0] && got[1]) {
    m.fields = differing_fields(rec[0], rec[1]);
  } else {
    m.fields = {"retired"};
  }
  if (!m.fields.empty()) {
    Divergence d;
    d.reach = res.compared;
    d.index = res.compared;
    for (size_t s = 0; s < 2; ++s)  // a transfer: its DMA instruction's retire, in this run
      if (got[s] && rec[s].kind == isa::RecordKind::Transfer && rec[s].index >= m.base[s])
        d.index = std::min(d.index, rec[s].index - m.base[s]);
    d.fields = m.fields;
    for (size_t s = 0; s < 2; ++s) {
      if (got[s]) d.records[s] = rec[s];
      d.history[s].assign(m.history[s].begin(), m.history[s].end());
    }
    for (size_t s = 0; s < 2; ++s) {
      if (!got[s]) continue;
      d.operands[s] = operand_values(m.spec, m.shadow[s], rec[s]);
      d.work[s] = work_item(options.work, *eng[s], rec[s]);
    }
    if (got[0] && got[1]) {
      d.details = explain(m.spec, eng, rec[0], rec[1]);
      d.mem_diffs = mem_diffs(eng, m.writers, options.mlen, rec[0], rec[1]);
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
    for (size_t s = 0; s < 2; ++s) {
      if (!got[s]) continue;
      m.writers[s].write(rec[s]);  // the final comparison sees these writes too
      m.last[s] = &*res.divergence->records[s];
    }
    m.done = true;
    return true;
  }
  if (!res.hbm_difference &&
      (rec[0].hbm_read != rec[1].hbm_read || rec[0].hbm_written != rec[1].hbm_written))
    res.hbm_difference = HbmDifference{
        rec[0], {rec[0].hbm_read, rec[1].hbm_read}, {rec[0].hbm_written, rec[1].hbm_written}};
  if (rec[0].trap) res.trap = rec[0].trap;
  const bool transfer = rec[0].kind == isa::RecordKind::Transfer;
  for (size_t s = 0; s < 2; ++s) {
    m.writers[s].write(rec[s]);
    m.shadow[s].retire(rec[s]);
    // The records stay readable (records()) until the next call: in the history, or in rec
    // when no history is kept.
    if (options.history == 0) {
      m.history[s].clear();
      m.last[s] = &rec[s];
      continue;
    }
    m.history[s].push_back(std::move(rec[s]));
    if (m.history[s].size() > options.history) m.history[s].pop_front();
    m.last[s] = &m.history[s].back();
  }
  // Instructions count their retire records; a transfer record is part of its DMA instruction.
  if (transfer) return true;
  const uint64_t compared = ++res.compared;
  if (options.progress && options.progress_every != 0 && compared % options.progress_every == 0)
    options.progress(compared, eng[0]->cycles());
  if (options.max_instructions != 0 && compared >= options.max_instructions) {
    // The limit is reached only if an instruction is left: a program that ends with exactly
    // max_instructions retired has ended (the extra step of a halted engine returns false).
    isa::RetireRecord extra[2];
    const bool more_a = eng[0]->step(extra[0]), more_b = eng[1]->step(extra[1]);
    res.limit_reached = more_a || more_b;
    res.completed = !res.limit_reached;
    m.done = true;
  }
  return true;
}

CosimResult Lockstep::finish() {
  Impl& m = *impl_;
  if (m.finished) throw std::logic_error("cosim::Lockstep::finish() called twice");
  m.finished = true;
  m.done = true;
  m.last = {};
  CosimResult& res = m.res;
  for (size_t s = 0; s < 2; ++s) m.table.finish(s);
  res.stages = m.table.rows(m.spec);
  res.units = m.units.rows();
  for (size_t s = 0; s < 2; ++s) {
    res.total_cycles[s] = m.eng[s]->cycles();
    res.retired[s] = m.eng[s]->retired();
  }
  compare_regs(m.eng[0]->regs(), m.eng[1]->regs(), res.reg_diffs);
  for (isa::Space sp : isa::kAllSpaces)
    res.spaces.push_back(compare_space(*m.eng[0], *m.eng[1], sp, m.writers));
  finish_sinks(m.options, std::max(res.total_cycles[0], res.total_cycles[1]));
  return std::move(res);
}

CosimResult run_cosim(const isa::Spec& spec, isa::Engine& a, isa::Engine& b,
                      const CosimOptions& options) {
  Lockstep run(spec, a, b, options);
  while (run.next()) {
  }
  return run.finish();
}

RunResult run_single(const isa::Spec& spec, isa::Engine& engine, const CosimOptions& options) {
  RunResult res;
  res.engine = engine.name();
  StageTable table(spec);
  UnitTable units(spec);
  uint64_t n = 0;
  for (;;) {
    isa::RetireRecord r;
    if (!engine.step(r)) break;
    table.add(0, r);
    feed(spec, options, units, 0, engine, r);
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
  table.finish(0);
  res.stages = table.rows(spec);
  res.units = units.rows();
  res.total_cycles = engine.cycles();
  res.retired = engine.retired();
  finish_sinks(options, res.total_cycles);
  return res;
}

}  // namespace moesim::cosim
