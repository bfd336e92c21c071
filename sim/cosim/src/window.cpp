// Windowed co-simulation: boundaries, the window result file and the merge (window.hpp).
#include "moesim/cosim/window.hpp"

#include <array>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <stdexcept>
#include <utility>

#include "moesim/isa/encoding.hpp"

namespace moesim::cosim {

using nlohmann::json;

StopAt::StopAt(isa::Engine& inner, uint64_t stop_at) : inner_(inner), stop_at_(stop_at) { seed(); }

void StopAt::seed() {
  regs_.clear();
  last_.clear();
  for (const auto& [name, value] : named_registers(inner_.regs())) regs_[name] = value;
}

bool StopAt::step(isa::RetireRecord& out) {
  if (inner_.retired() >= stop_at_) return false;
  if (!inner_.step(out)) return false;
  last_.clear();
  for (const isa::RegWrite& w : out.regs) {
    const std::string name = reg_name(w.file, w.index);
    last_.emplace(name, regs_[name]);
    regs_[name] = w.value;
  }
  return true;
}

void StopAt::restore(const isa::Program& p, const isa::ArchState& s) {
  inner_.restore(p, s);
  seed();
}

uint64_t StopAt::at_issue(const std::string& reg) const {
  auto it = last_.find(reg);
  if (it != last_.end()) return it->second;
  it = regs_.find(reg);
  return it == regs_.end() ? 0 : it->second;
}

void operands_at_issue(Divergence& d, const std::array<const StopAt*, 2>& e) {
  for (size_t s = 0; s < 2; ++s) {
    if (!d.records[s]) continue;
    for (OperandValue& op : d.operands[s])
      if (!op.reg.empty()) op.value = e[s]->at_issue(op.reg);
  }
}

std::vector<uint64_t> window_bounds(uint64_t total, unsigned windows) {
  if (windows == 0) throw std::invalid_argument("window_bounds: 0 windows");
  std::vector<uint64_t> b{0};
  for (unsigned k = 1; k <= windows; ++k) {
    const auto x = static_cast<uint64_t>(static_cast<unsigned __int128>(total) * k / windows);
    if (x != b.back()) b.push_back(x);
  }
  if (b.size() == 1) b.push_back(0);  // an empty run: one window [0, 0]
  return b;
}

std::vector<uint64_t> window_bounds(uint64_t total, unsigned windows,
                                    const std::vector<bool>& queue_empty) {
  if (queue_empty.size() != total + 1)
    throw std::invalid_argument("window_bounds: " + std::to_string(queue_empty.size()) +
                                " queue states for " + std::to_string(total) + " retires");
  std::vector<uint64_t> b{0};
  for (uint64_t x : window_bounds(total, windows)) {
    if (x == 0) continue;
    while (x < total && !queue_empty[x]) ++x;
    if (x != b.back()) b.push_back(x);
  }
  if (b.size() == 1) b.push_back(0);  // an empty run: one window [0, 0]
  return b;
}

QueueWatch::QueueWatch(const isa::Spec& spec, const isa::MachinePreset& preset)
    : spec_(spec), queued_(preset.params.count("DMA_QUEUE") && preset.get("DMA_QUEUE") > 0) {}

void QueueWatch::add(const isa::RetireRecord& r) {
  if (r.kind == isa::RecordKind::Transfer) {
    if (pending_ == 0) throw std::logic_error("QueueWatch: a transfer record with none pending");
    --pending_;
    return;
  }
  if (!queued_ || r.trap) return;
  const isa::InstrSpec* ins = isa::decode(spec_, r.word).spec;
  if (ins != nullptr && ins->unit == isa::unit_name(isa::Unit::Dma)) ++pending_;
}

namespace {

json rec_json(const isa::RetireRecord& r) {
  json regs = json::array(), mems = json::array();
  for (const auto& w : r.regs) regs.push_back({static_cast<int>(w.file), w.index, w.value});
  for (const auto& m : r.mems)
    mems.push_back({static_cast<int>(m.space), m.begin, m.end, m.digest});
  json j = {{"kind", static_cast<int>(r.kind)},
            {"index", r.index},
            {"pc", r.pc},
            {"word", r.word},
            {"stage", r.stage},
            {"ready", r.ready_cycle},
            {"stall", r.stall_cycles},
            {"cause", static_cast<int>(r.stall_cause)},
            {"start", r.start_cycle},
            {"end", r.end_cycle},
            {"regs", regs},
            {"mems", mems},
            {"hbm_read", r.hbm_read},
            {"hbm_written", r.hbm_written}};
  j["trap"] = r.trap ? json{r.trap->cause, r.trap->pc, r.trap->word} : json(nullptr);
  return j;
}

isa::RetireRecord rec_from(const json& j) {
  isa::RetireRecord r;
  r.kind = static_cast<isa::RecordKind>(j.at("kind").get<int>());
  r.index = j.at("index").get<uint64_t>();
  r.pc = j.at("pc").get<uint32_t>();
  r.word = j.at("word").get<uint32_t>();
  r.stage = j.at("stage").get<uint8_t>();
  r.ready_cycle = j.at("ready").get<uint64_t>();
  r.stall_cycles = j.at("stall").get<uint64_t>();
  r.stall_cause = static_cast<isa::StallCause>(j.at("cause").get<int>());
  r.start_cycle = j.at("start").get<uint64_t>();
  r.end_cycle = j.at("end").get<uint64_t>();
  for (const json& w : j.at("regs"))
    r.regs.push_back({static_cast<isa::RegFile>(w.at(0).get<int>()), w.at(1).get<uint8_t>(),
                      w.at(2).get<uint64_t>()});
  for (const json& m : j.at("mems"))
    r.mems.push_back({static_cast<isa::Space>(m.at(0).get<int>()), m.at(1).get<uint64_t>(),
                      m.at(2).get<uint64_t>(), m.at(3).get<uint64_t>()});
  r.hbm_read = j.at("hbm_read").get<uint64_t>();
  r.hbm_written = j.at("hbm_written").get<uint64_t>();
  if (!j.at("trap").is_null())
    r.trap = isa::Trap{j["trap"].at(0).get<uint8_t>(), j["trap"].at(1).get<uint32_t>(),
                       j["trap"].at(2).get<uint32_t>()};
  return r;
}

json trap_json(const std::optional<isa::Trap>& t) {
  return t ? json{t->cause, t->pc, t->word} : json(nullptr);
}
std::optional<isa::Trap> trap_from(const json& j) {
  if (j.is_null()) return std::nullopt;
  return isa::Trap{j.at(0).get<uint8_t>(), j.at(1).get<uint32_t>(), j.at(2).get<uint32_t>()};
}

json writer_json(const std::optional<Writer>& w) {
  return w ? json{w->index, w->pc, w->word} : json(nullptr);
}
std::optional<Writer> writer_from(const json& j) {
  if (j.is_null()) return std::nullopt;
  return Writer{j.at(0).get<uint64_t>(), j.at(1).get<uint32_t>(), j.at(2).get<uint32_t>()};
}

json writers_json(const std::array<std::optional<Writer>, 2>& w) {
  return json{writer_json(w[0]), writer_json(w[1])};
}
std::array<std::optional<Writer>, 2> writers_from(const json& j) {
  return {writer_from(j.at(0)), writer_from(j.at(1))};
}

/// The decoded "why" of a divergence (Divergence::operands, work, mem_diffs): what a single
/// run's report prints, so a window's report can print the same.
json why_json(const Divergence& d) {
  json ops = json::array(), work = json::array(), mems = json::array();
  for (size_t s = 0; s < 2; ++s) {
    json o = json::array();
    for (const OperandValue& v : d.operands[s]) o.push_back({v.operand, v.reg, v.value});
    ops.push_back(o);
    work.push_back({d.work[s].token, d.work[s].slot, d.work[s].expert});
  }
  for (const MemDiff& m : d.mem_diffs) {
    json elements = json::array();
    for (const ElementDiff& e : m.elements)
      elements.push_back({e.unit, e.byte, e.element, e.values[0], e.values[1]});
    mems.push_back({{"space", static_cast<int>(m.space)},
                    {"begin", m.begin},
                    {"end", m.end},
                    {"differing_bytes", m.differing_bytes},
                    {"differing_elements", m.differing_elements},
                    {"elements", elements},
                    {"previous_writer", writers_json(m.previous_writer)}});
  }
  return {{"operands", ops}, {"work", work}, {"mem_diffs", mems}};
}

void why_from(const json& j, Divergence& d) {
  for (size_t s = 0; s < 2; ++s) {
    for (const json& v : j.at("operands").at(s))
      d.operands[s].push_back(
          {v.at(0).get<std::string>(), v.at(1).get<std::string>(), v.at(2).get<uint64_t>()});
    const json& w = j.at("work").at(s);
    d.work[s] = {w.at(0).get<int32_t>(), w.at(1).get<int32_t>(), w.at(2).get<int32_t>()};
  }
  for (const json& m : j.at("mem_diffs")) {
    MemDiff md;
    md.space = static_cast<isa::Space>(m.at("space").get<int>());
    md.begin = m.at("begin").get<uint64_t>();
    md.end = m.at("end").get<uint64_t>();
    md.differing_bytes = m.at("differing_bytes").get<uint64_t>();
    md.differing_elements = m.at("differing_elements").get<uint64_t>();
    for (const json& e : m.at("elements"))
      md.elements.push_back({e.at(0).get<uint64_t>(),
                             e.at(1).get<uint64_t>(),
                             e.at(2).get<std::string>(),
                             {e.at(3).get<std::string>(), e.at(4).get<std::string>()}});
    md.previous_writer = writers_from(m.at("previous_writer"));
    d.mem_diffs.push_back(std::move(md));
  }
}

json result_json(const CosimResult& r) {
  json j;
  j["engines"] = r.engines;
  j["completed"] = r.completed;
  j["limit_reached"] = r.limit_reached;
  j["compared"] = r.compared;
  j["trap"] = trap_json(r.trap);
  j["total_cycles"] = r.total_cycles;
  j["retired"] = r.retired;
  json stages = json::array();
  for (const StageRow& s : r.stages)
    stages.push_back({{"code", s.code},
                      {"name", s.name},
                      {"instructions", s.instructions},
                      {"cycles", s.cycles},
                      {"hbm_read", s.hbm_read},
                      {"hbm_written", s.hbm_written},
                      {"hidden_cycles", s.hidden_cycles},
                      {"stall_cycles", s.stall_cycles},
                      {"stall_by_cause", s.stall_by_cause}});
  j["stages"] = stages;
  json units = json::array();
  for (const UnitRow& u : r.units)
    units.push_back({{"name", u.name}, {"busy_cycles", u.busy_cycles}, {"spans", u.spans}});
  j["units"] = units;
  json regs = json::array();
  for (const RegDiff& d : r.reg_diffs) regs.push_back({{"name", d.name}, {"values", d.values}});
  j["reg_diffs"] = regs;
  json spaces = json::array();
  for (const SpaceDiff& s : r.spaces) {
    json ranges = json::array();
    for (const auto& [a, b] : s.ranges) ranges.push_back({a, b});
    spaces.push_back({{"space", static_cast<int>(s.space)},
                      {"unit_bytes", s.unit_bytes},
                      {"size_bytes", s.size_bytes},
                      {"size_differs", s.size_differs},
                      {"differing_bytes", s.differing_bytes},
                      {"first_byte", s.first_byte ? json(*s.first_byte) : json(nullptr)},
                      {"first_values", s.first_values},
                      {"ranges", ranges},
                      {"unwritten_differing_bytes", s.unwritten_differing_bytes},
                      {"first_writer", writers_json(s.first_writer)}});
  }
  j["spaces"] = spaces;
  j["hbm_difference"] = r.hbm_difference ? json{{"record", rec_json(r.hbm_difference->record)},
                                                {"read", r.hbm_difference->read},
                                                {"written", r.hbm_difference->written}}
                                         : json(nullptr);
  if (r.divergence) {
    const Divergence& d = *r.divergence;
    json dj = {{"index", d.index},
               {"reach", d.reach},
               {"fields", d.fields},
               {"details", d.details},
               {"why", why_json(d)}};
    for (size_t s = 0; s < 2; ++s) {
      dj["records"].push_back(d.records[s] ? rec_json(*d.records[s]) : json(nullptr));
      json h = json::array();
      for (const auto& rec : d.history[s]) h.push_back(rec_json(rec));
      dj["history"].push_back(h);
    }
    j["divergence"] = dj;
  } else {
    j["divergence"] = nullptr;
  }
  return j;
}

CosimResult result_from(const json& j) {
  CosimResult r;
  r.engines = j.at("engines").get<std::array<std::string, 2>>();
  r.completed = j.at("completed").get<bool>();
  r.limit_reached = j.at("limit_reached").get<bool>();
  r.compared = j.at("compared").get<uint64_t>();
  r.trap = trap_from(j.at("trap"));
  r.total_cycles = j.at("total_cycles").get<std::array<uint64_t, 2>>();
  r.retired = j.at("retired").get<std::array<uint64_t, 2>>();
  for (const json& s : j.at("stages")) {
    StageRow row;
    row.code = s.at("code").get<uint8_t>();
    row.name = s.at("name").get<std::string>();
    row.instructions = s.at("instructions").get<std::array<uint64_t, 2>>();
    row.cycles = s.at("cycles").get<std::array<uint64_t, 2>>();
    row.hbm_read = s.at("hbm_read").get<std::array<uint64_t, 2>>();
    row.hbm_written = s.at("hbm_written").get<std::array<uint64_t, 2>>();
    row.hidden_cycles = s.at("hidden_cycles").get<std::array<uint64_t, 2>>();
    row.stall_cycles = s.at("stall_cycles").get<std::array<uint64_t, 2>>();
    row.stall_by_cause = s.at("stall_by_cause").get<decltype(row.stall_by_cause)>();
    r.stages.push_back(row);
  }
  for (const json& u : j.at("units")) {
    UnitRow row;
    row.name = u.at("name").get<std::string>();
    row.busy_cycles = u.at("busy_cycles").get<std::array<uint64_t, 2>>();
    row.spans = u.at("spans").get<std::array<uint64_t, 2>>();
    r.units.push_back(row);
  }
  for (const json& d : j.at("reg_diffs"))
    r.reg_diffs.push_back(
        {d.at("name").get<std::string>(), d.at("values").get<std::array<uint64_t, 2>>()});
  for (const json& s : j.at("spaces")) {
    SpaceDiff d;
    d.space = static_cast<isa::Space>(s.at("space").get<int>());
    d.unit_bytes = s.at("unit_bytes").get<uint64_t>();
    d.size_bytes = s.at("size_bytes").get<uint64_t>();
    d.size_differs = s.at("size_differs").get<bool>();
    d.differing_bytes = s.at("differing_bytes").get<uint64_t>();
    if (!s.at("first_byte").is_null()) d.first_byte = s["first_byte"].get<uint64_t>();
    d.first_values = s.at("first_values").get<std::array<uint8_t, 2>>();
    for (const json& rg : s.at("ranges"))
      d.ranges.emplace_back(rg.at(0).get<uint64_t>(), rg.at(1).get<uint64_t>());
    d.unwritten_differing_bytes = s.at("unwritten_differing_bytes").get<uint64_t>();
    d.first_writer = writers_from(s.at("first_writer"));
    r.spaces.push_back(d);
  }
  if (!j.at("hbm_difference").is_null()) {
    const json& h = j["hbm_difference"];
    r.hbm_difference =
        HbmDifference{rec_from(h.at("record")), h.at("read").get<std::array<uint64_t, 2>>(),
                      h.at("written").get<std::array<uint64_t, 2>>()};
  }
  if (!j.at("divergence").is_null()) {
    const json& dj = j["divergence"];
    Divergence d;
    d.index = dj.at("index").get<uint64_t>();
    d.reach = dj.at("reach").get<uint64_t>();
    d.fields = dj.at("fields").get<std::vector<std::string>>();
    d.details = dj.at("details").get<std::vector<std::string>>();
    why_from(dj.at("why"), d);
    for (size_t s = 0; s < 2; ++s) {
      if (!dj.at("records").at(s).is_null()) d.records[s] = rec_from(dj["records"][s]);
      for (const json& h : dj.at("history").at(s)) d.history[s].push_back(rec_from(h));
    }
    r.divergence = std::move(d);
  }
  return r;
}

}  // namespace

std::string window_result_json(const WindowResult& w) {
  const json j = {{"from", w.from},
                  {"to", w.to},
                  {"result", result_json(w.result)},
                  {"end_state", w.end_state},
                  {"wall_time_s", w.wall_time_s}};
  return j.dump(1) + "\n";
}

WindowResult parse_window_result(const std::string& text, const std::string& name) {
  try {
    const json j = json::parse(text);
    WindowResult w;
    w.from = j.at("from").get<uint64_t>();
    w.to = j.at("to").get<uint64_t>();
    w.result = result_from(j.at("result"));
    w.end_state = j.at("end_state").get<std::vector<std::string>>();
    w.wall_time_s = j.at("wall_time_s").get<double>();
    return w;
  } catch (const json::exception& e) {
    throw std::runtime_error(name + ": not a window result (" + e.what() + ")");
  }
}

CosimResult merge_windows(const isa::Spec& spec, const std::vector<WindowResult>& windows,
                          size_t& last) {
  if (windows.empty()) throw std::invalid_argument("merge_windows: no windows");
  CosimResult m;
  m.engines = windows.front().result.engines;
  m.completed = true;
  std::map<uint8_t, StageRow> stages;
  m.units = windows.front().result.units;
  for (UnitRow& u : m.units) u.busy_cycles = u.spans = {0, 0};
  for (last = 0; last < windows.size(); ++last) {
    const WindowResult& w = windows[last];
    const CosimResult& r = w.result;
    m.compared += r.compared;
    for (const StageRow& s : r.stages) {
      auto [it, fresh] = stages.emplace(s.code, s);
      if (fresh) continue;
      for (size_t e = 0; e < 2; ++e) {
        it->second.instructions[e] += s.instructions[e];
        it->second.cycles[e] += s.cycles[e];
        it->second.hbm_read[e] += s.hbm_read[e];
        it->second.hbm_written[e] += s.hbm_written[e];
        it->second.hidden_cycles[e] += s.hidden_cycles[e];
        it->second.stall_cycles[e] += s.stall_cycles[e];
        for (size_t c = 0; c < s.stall_by_cause.size(); ++c)
          it->second.stall_by_cause[c][e] += s.stall_by_cause[c][e];
      }
    }
    if (r.units.size() != m.units.size())
      throw std::runtime_error("merge_windows: windows report different unit lists");
    for (size_t u = 0; u < r.units.size(); ++u)
      for (size_t e = 0; e < 2; ++e) {
        m.units[u].busy_cycles[e] += r.units[u].busy_cycles[e];
        m.units[u].spans[e] += r.units[u].spans[e];
      }
    m.trap = r.trap;
    m.total_cycles = r.total_cycles;
    m.retired = r.retired;
    m.reg_diffs = r.reg_diffs;
    m.spaces = r.spaces;
    m.limit_reached = r.limit_reached;
    if (!m.hbm_difference) m.hbm_difference = r.hbm_difference;
    if (r.divergence) {
      m.divergence = r.divergence;
      m.divergence->index += w.from;
      m.divergence->reach += w.from;
    }
    if (r.divergence || !r.completed || !w.end_state.empty() || last + 1 == windows.size()) {
      m.completed = r.completed;
      break;
    }
  }
  // Stage rows in stages.yaml order, then codes it does not know (as run_cosim orders them).
  for (const auto& s : spec.stages()) {
    auto it = stages.find(s.code);
    if (it != stages.end()) m.stages.push_back(it->second);
  }
  for (const auto& [code, row] : stages)
    if (spec.stage_by_code(code) == nullptr) m.stages.push_back(row);
  return m;
}

}  // namespace moesim::cosim
