// JSON and console reports (see report.hpp).
#include "moesim/report/report.hpp"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cstdio>
#include <iomanip>
#include <sstream>
#include <stdexcept>
#include <tuple>

#include "moesim/isa/assembler.hpp"
#include "moesim/isa/encoding.hpp"
#include "moesim/isa/format.hpp"

namespace moesim::report {
namespace {

using isa::hex;

nlohmann::json trap_json(const isa::Spec& spec, const std::optional<isa::Trap>& t) {
  if (!t) return nullptr;
  const isa::TrapSpec* ts = spec.trap_by_code(t->cause);
  return {{"cause", t->cause},
          {"name", ts ? ts->name : "unknown"},
          {"pc", t->pc},
          {"word", hex(t->word, 8)}};
}

/// Differing bytes inside the listed ranges; less than differing_bytes when runs were left out.
uint64_t listed_bytes(const cosim::SpaceDiff& d) {
  uint64_t n = 0;
  for (const auto& [first, end] : d.ranges) n += end - first;
  return n;
}

nlohmann::json writer_json(const isa::Spec& spec, const std::optional<cosim::Writer>& w) {
  if (!w) return nullptr;
  return {{"index", w->index},
          {"pc", w->pc},
          {"word", hex(w->word, 8)},
          {"disassembly", isa::disassemble(spec, w->word)}};
}

nlohmann::json operands_json(const std::vector<cosim::OperandValue>& ops) {
  nlohmann::json j = nlohmann::json::array();
  for (const cosim::OperandValue& o : ops)
    j.push_back({{"operand", o.operand},
                 {"reg", o.reg.empty() ? nlohmann::json(nullptr) : nlohmann::json(o.reg)},
                 {"value", hex(o.value)},
                 {"decoded",
                  o.reg.empty() ? std::to_string(o.value) : isa::register_value(o.reg, o.value)}});
  return j;
}

nlohmann::json addresses_json(const isa::Spec& spec, const isa::MachinePreset* machine,
                              const isa::RetireRecord& r,
                              const std::vector<cosim::OperandValue>& ops) {
  nlohmann::json j = nlohmann::json::array();
  for (const EffectiveAddress& a : effective_addresses(spec, machine, r.word, ops)) {
    nlohmann::json e = {{"space", a.space},
                        {"access", a.access},
                        {"what", a.what},
                        {"formula", a.formula},
                        {"value", a.value ? nlohmann::json(*a.value) : nlohmann::json(nullptr)},
                        {"text", address_text(a, machine)}};
    if (!a.value) e["missing"] = a.missing;
    j.push_back(e);
  }
  return j;
}

nlohmann::json work_json(const cosim::WorkItem& w) {
  auto v = [](int32_t x) { return x < 0 ? nlohmann::json(nullptr) : nlohmann::json(x); };
  return {{"token", v(w.token)}, {"slot", v(w.slot)}, {"expert", v(w.expert)}};
}

nlohmann::json space_json(const isa::Spec& spec, const std::array<std::string, 2>& engines,
                          const cosim::SpaceDiff& d) {
  nlohmann::json j = {{"equal", d.equal()},
                      {"size_bytes", d.size_bytes},
                      {"unit_bytes", d.unit_bytes},
                      {"differing_bytes", d.differing_bytes},
                      {"size_differs", d.size_differs},
                      {"outputs_equal", d.outputs_equal()},
                      {"unwritten_differing_bytes", d.unwritten_differing_bytes}};
  if (d.first_byte) {
    j["first_difference"] = {{"byte", *d.first_byte},
                             {"unit", *d.first_byte / d.unit_bytes},
                             {"values", {hex(d.first_values[0], 2), hex(d.first_values[1], 2)}},
                             {"last_writer",
                              {{engines[0], writer_json(spec, d.first_writer[0])},
                               {engines[1], writer_json(spec, d.first_writer[1])}}}};
  } else {
    j["first_difference"] = nullptr;
  }
  nlohmann::json ranges = nlohmann::json::array();
  for (const auto& range : d.ranges) {
    const auto units = unit_range(d, range);
    ranges.push_back(
        {{"bytes", {range.first, range.second}}, {"units", {units.first, units.second}}});
  }
  j["ranges"] = ranges;
  j["ranges_complete"] = listed_bytes(d) == d.differing_bytes;
  return j;
}

void emit_yaml(YAML::Emitter& out, const nlohmann::json& j) {
  switch (j.type()) {
    case nlohmann::json::value_t::object:
      out << YAML::BeginMap;
      for (const auto& [key, value] : j.items()) {
        out << YAML::Key << key << YAML::Value;
        emit_yaml(out, value);
      }
      out << YAML::EndMap;
      break;
    case nlohmann::json::value_t::array:
      out << YAML::BeginSeq;
      for (const auto& value : j) emit_yaml(out, value);
      out << YAML::EndSeq;
      break;
    case nlohmann::json::value_t::string:
      out << YAML::DoubleQuoted << j.get_ref<const std::string&>();
      break;
    case nlohmann::json::value_t::boolean:
      out << j.get<bool>();
      break;
    case nlohmann::json::value_t::number_unsigned:
      out << j.get<uint64_t>();
      break;
    case nlohmann::json::value_t::number_integer:
      out << j.get<int64_t>();
      break;
    case nlohmann::json::value_t::number_float:
      out << j.get<double>();
      break;
    case nlohmann::json::value_t::null:
      out << YAML::Null;
      break;
    case nlohmann::json::value_t::binary:
    case nlohmann::json::value_t::discarded:
      throw std::invalid_argument("report_yaml: a binary or discarded JSON value has no YAML form");
  }
}

}  // namespace

nlohmann::json record_json(const isa::Spec& spec, const isa::RetireRecord& r) {
  nlohmann::json regs = nlohmann::json::array();
  for (const auto& w : r.regs)
    regs.push_back({{"reg", cosim::reg_name(w.file, w.index)}, {"value", hex(w.value)}});
  nlohmann::json mems = nlohmann::json::array();
  for (const auto& m : r.mems)
    mems.push_back({{"space", isa::space_name(m.space)},
                    {"begin", m.begin},
                    {"end", m.end},
                    {"digest", hex(m.digest, 16)}});
  return {{"kind", isa::record_kind_name(r.kind)},
          {"index", r.index},
          {"pc", r.pc},
          {"word", hex(r.word, 8)},
          {"disassembly", isa::disassemble(spec, r.word)},
          {"stage", spec.stage_name(r.stage)},
          {"ready_cycle", r.ready_cycle},
          {"stall_cycles", r.stall_cycles},
          {"stall_cause", isa::stall_cause_name(r.stall_cause)},
          {"start_cycle", r.start_cycle},
          {"end_cycle", r.end_cycle},
          {"regs", regs},
          {"mems", mems},
          {"trap", trap_json(spec, r.trap)}};
}

std::string writer_text(const isa::Spec& spec, const std::optional<cosim::Writer>& w) {
  if (!w) return "the initial image (never written)";
  return "#" + std::to_string(w->index) + " pc " + std::to_string(w->pc) + " " +
         isa::disassemble(spec, w->word);
}

std::string work_text(const cosim::WorkItem& w) {
  auto v = [](int32_t x) { return x < 0 ? std::string("-") : std::to_string(x); };
  return "token " + v(w.token) + " slot " + v(w.slot) + " expert " + v(w.expert);
}

std::string operands_text(const std::vector<cosim::OperandValue>& ops) {
  std::string t;
  for (const cosim::OperandValue& o : ops) {
    t += t.empty() ? "" : ", ";
    if (o.reg.empty())
      t += o.operand + "=" + std::to_string(o.value);
    else if (o.reg == o.operand)
      t += o.reg + "=" + isa::register_value(o.reg, o.value);
    else
      t += o.operand + "=" + o.reg + "=" + isa::register_value(o.reg, o.value);
  }
  return t.empty() ? "none" : t;
}

std::vector<EffectiveAddress> effective_addresses(const isa::Spec& spec,
                                                  const isa::MachinePreset* machine, uint32_t word,
                                                  const std::vector<cosim::OperandValue>& ops) {
  std::vector<EffectiveAddress> out;
  const isa::Decoded d = isa::decode(spec, word);
  if (d.spec == nullptr) return out;
  for (const isa::AccessSpec& acc : d.spec->accesses) {
    EffectiveAddress a{acc.space, acc.access, acc.what, acc.address.text(), std::nullopt, ""};
    try {
      a.value = acc.address.eval([&](const std::string& id) -> int64_t {
        for (const cosim::OperandValue& o : ops)
          if (o.operand == id) return static_cast<int64_t>(o.value);
        if (machine != nullptr) {
          const auto p = machine->params.find(id);
          if (p != machine->params.end()) return p->second;
        }
        a.missing = id;
        throw isa::ExprError(id);
      });
    } catch (const isa::ExprError&) {
      a.value.reset();
      if (a.missing.empty()) a.missing = "(the formula fails: overflow or division by 0)";
    }
    out.push_back(a);
  }
  return out;
}

std::string address_text(const EffectiveAddress& a, const isa::MachinePreset* machine) {
  // The value first (what a person compares), then the isa.yaml formula it came from.
  std::string t =
      a.space + " " + (a.access == "read_write" ? "read+write" : a.access) + " " + a.what + ": ";
  if (!a.value) return t + "? = " + a.formula + " (no value for " + a.missing + ")";
  t += std::to_string(*a.value);
  const char* row_param = a.space == "vram" ? "VLEN" : a.space == "mram" ? "MLEN" : nullptr;
  if (a.space == "hbm") {
    t += " (" + hex(static_cast<uint64_t>(*a.value)) + ")";
  } else if (row_param != nullptr && machine != nullptr && machine->params.count(row_param) &&
             machine->params.at(row_param) > 0 && *a.value >= 0) {
    const int64_t n = machine->params.at(row_param);
    t += " (row " + std::to_string(*a.value / n);
    if (*a.value % n != 0) t += " element " + std::to_string(*a.value % n);
    t += ")";
  }
  return t + " = " + a.formula;
}

std::vector<std::string> mem_diff_lines(const isa::Spec& spec,
                                        const std::array<std::string, 2>& engines,
                                        const cosim::MemDiff& m) {
  std::vector<std::string> out;
  const std::string space = isa::space_name(m.space);
  out.push_back(space + " " + isa::unit_noun(m.space) + "s [" + std::to_string(m.begin) + ", " +
                std::to_string(m.end) + ") written: " + std::to_string(m.differing_elements) +
                (m.differing_elements == 1 ? " element differs" : " elements differ") + " (" +
                std::to_string(m.differing_bytes) +
                (m.differing_bytes == 1 ? " byte)" : " bytes)"));
  for (const cosim::ElementDiff& e : m.elements)
    out.push_back("  " + std::string(isa::unit_noun(m.space)) + " " + std::to_string(e.unit) +
                  (e.element.empty() ? "" : " " + e.element) + ": " + engines[0] + " " +
                  e.values[0] + ", " + engines[1] + " " + e.values[1]);
  if (m.differing_elements > m.elements.size())
    out.push_back("  ... " + std::to_string(m.differing_elements - m.elements.size()) + " more");
  if (!m.elements.empty())
    out.push_back("  previous writer of " + std::string(isa::unit_noun(m.space)) + " " +
                  std::to_string(m.elements.front().unit) + ": " + engines[0] + " " +
                  writer_text(spec, m.previous_writer[0]) + "; " + engines[1] + " " +
                  writer_text(spec, m.previous_writer[1]));
  return out;
}

std::string rerun_command(const std::vector<std::string>& argv, const cosim::Divergence& d,
                          const std::string& stem) {
  return rerun_command(argv, &d, std::nullopt, stem);
}

std::string rerun_command(const std::vector<std::string>& argv, const cosim::Divergence* d,
                          const std::optional<RetireRange>& range, const std::string& stem) {
  if (d == nullptr && !range) return "";
  // Flags of the original run that the re-run replaces or leaves out (its outputs); a range
  // also replaces the window flags (and --reference, which needs the whole program).
  static const std::vector<std::string> kDropped = {
      "--max-instructions", "--trace-rtl", "--trace-window", "--vcd", "--report", "--html",
      "--trace-json",       "--profile",   "--history"};
  static const std::vector<std::string> kRangeDropped = {
      "--windows",         "--jobs",      "--checkpoint-dir", "--from-retire", "--to-retire",
      "--from-checkpoint", "--reference", "--trace-log",      "--dump",        "--asm-out"};
  auto quote = [](const std::string& a) {
    if (!a.empty() && a.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                          "0123456789-_./:=,@+%") == std::string::npos)
      return a;
    std::string q = "'";
    for (char c : a) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return q + "'";
  };
  auto dropped = [&](const std::string& name) {
    return std::find(kDropped.begin(), kDropped.end(), name) != kDropped.end() ||
           (range &&
            std::find(kRangeDropped.begin(), kRangeDropped.end(), name) != kRangeDropped.end());
  };
  std::string cmd;
  for (size_t i = 0; i < argv.size(); ++i) {
    const std::string& a = argv[i];
    const std::string name = a.substr(0, a.find('='));
    if (i > 0 && dropped(name)) {
      // "--flag value": skip the value too (--reference is a flag without one)
      if (name == a && name != "--reference") ++i;
      continue;
    }
    cmd += (cmd.empty() ? "" : " ") + quote(a);
  }
  if (range) {
    // The FST and the VCD of a range cover only the range.
    cmd += " --from-retire " + std::to_string(range->from);
    if (range->to) cmd += " --to-retire " + std::to_string(*range->to);
    return cmd + " --vcd " + quote(stem + ".vcd") + " --trace-rtl " + quote(stem + ".fst");
  }
  // The cycles of the last history record before the divergence through the divergent one.
  uint64_t first = UINT64_MAX, last = 0;
  for (size_t s = 0; s < 2; ++s) {
    if (d->records[s]) {
      first = std::min(first, d->records[s]->start_cycle);
      last = std::max(last, d->records[s]->end_cycle);
    }
    if (!d->history[s].empty()) first = std::min(first, d->history[s].front().start_cycle);
  }
  if (first == UINT64_MAX) first = 0;
  cmd += " --max-instructions " + std::to_string(d->reach + 1) + " --vcd " + quote(stem + ".vcd") +
         " --trace-rtl " + quote(stem + ".fst") + " --trace-window " + std::to_string(first) + ":" +
         std::to_string(std::max(last, first + 1));
  return cmd;
}

double utilisation(uint64_t busy_cycles, uint64_t total_cycles) {
  return total_cycles == 0 ? 0.0
                           : static_cast<double>(busy_cycles) / static_cast<double>(total_cycles);
}

std::pair<uint64_t, uint64_t> unit_range(const cosim::SpaceDiff& d,
                                         const std::pair<uint64_t, uint64_t>& bytes) {
  return {bytes.first / d.unit_bytes, (bytes.second + d.unit_bytes - 1) / d.unit_bytes};
}

std::string cosim_verdict(const cosim::CosimResult& r) {
  return r.limit_reached ? "STOPPED" : r.equal() ? "EQUAL" : "MISMATCH";
}

namespace {

/// Any stage with hidden or stall cycles: the run had a DMA queue (docs/overlap.md section 7).
bool any_overlap(const std::vector<cosim::StageRow>& rows) {
  return std::any_of(rows.begin(), rows.end(),
                     [](const cosim::StageRow& r) { return r.overlapped(); });
}

/// {"queue_full": n, "raw": n, "waw": n, "war": n} of engine `side`.
nlohmann::json stall_causes_json(const cosim::StageRow& row, size_t side) {
  nlohmann::json j = nlohmann::json::object();
  for (size_t c = 0; c < row.stall_by_cause.size(); ++c)
    j[isa::stall_cause_name(static_cast<isa::StallCause>(c + 1))] = row.stall_by_cause[c][side];
  return j;
}

}  // namespace

nlohmann::json cosim_json(const isa::Spec& spec, const cosim::CosimResult& r,
                          const isa::MachinePreset* machine) {
  const std::string& na = r.engines[0];
  const std::string& nb = r.engines[1];
  nlohmann::json j;
  j["outputs_bit_exact"] = r.outputs_bit_exact();
  j["cycles_match"] = r.cycles_match();
  j["profiles_match"] = r.profiles_match();
  if (r.hbm_difference) {  // only when there is one: the report of an equal run is unchanged
    const cosim::HbmDifference& h = *r.hbm_difference;
    j["first_hbm_difference"] = {{"record", record_json(spec, h.record)},
                                 {na + "_hbm_bytes_read", h.read[0]},
                                 {nb + "_hbm_bytes_read", h.read[1]},
                                 {na + "_hbm_bytes_written", h.written[0]},
                                 {nb + "_hbm_bytes_written", h.written[1]}};
  }
  j["completed"] = r.completed;
  j["instructions"] = r.compared;
  j["total_cycles"] = {{na, r.total_cycles[0]}, {nb, r.total_cycles[1]}};
  j["retired"] = {{na, r.retired[0]}, {nb, r.retired[1]}};
  nlohmann::json stages = nlohmann::json::object();
  const bool overlap = any_overlap(r.stages);
  for (const auto& row : r.stages) {
    nlohmann::json s = {{"code", row.code},
                        {"instructions", row.instructions[0]},
                        {na + "_cycles", row.cycles[0]},
                        {nb + "_cycles", row.cycles[1]},
                        {na + "_hbm_bytes_read", row.hbm_read[0]},
                        {nb + "_hbm_bytes_read", row.hbm_read[1]},
                        {na + "_hbm_bytes_written", row.hbm_written[0]},
                        {nb + "_hbm_bytes_written", row.hbm_written[1]},
                        {"match", row.match() && row.hbm_match()}};
    if (row.instructions[0] != row.instructions[1]) s[nb + "_instructions"] = row.instructions[1];
    if (overlap) {  // only with a DMA queue: a serial run's report is unchanged
      s[na + "_hidden_cycles"] = row.hidden_cycles[0];
      s[nb + "_hidden_cycles"] = row.hidden_cycles[1];
      s[na + "_stall_cycles"] = row.stall_cycles[0];
      s[nb + "_stall_cycles"] = row.stall_cycles[1];
      s[na + "_stall_cycles_by_cause"] = stall_causes_json(row, 0);
      s[nb + "_stall_cycles_by_cause"] = stall_causes_json(row, 1);
    }
    stages[row.name] = s;
  }
  j["stages"] = stages;
  nlohmann::json units = nlohmann::json::object();
  for (const auto& row : r.units)
    units[row.name] = {{na + "_busy_cycles", row.busy_cycles[0]},
                       {nb + "_busy_cycles", row.busy_cycles[1]},
                       {na + "_spans", row.spans[0]},
                       {nb + "_spans", row.spans[1]},
                       {na + "_utilisation", utilisation(row.busy_cycles[0], r.total_cycles[0])},
                       {nb + "_utilisation", utilisation(row.busy_cycles[1], r.total_cycles[1])},
                       {"match", row.match()}};
  j["units"] = units;
  if (r.divergence) {
    const cosim::Divergence& d = *r.divergence;
    const isa::RetireRecord& ref = d.records[0] ? *d.records[0] : *d.records[1];
    nlohmann::json hist = {{na, nlohmann::json::array()}, {nb, nlohmann::json::array()}};
    for (size_t s = 0; s < 2; ++s)
      for (const auto& h : d.history[s]) hist[r.engines[s]].push_back(record_json(spec, h));
    const std::string dis = isa::disassemble(spec, ref.word);
    nlohmann::json mem_diffs = nlohmann::json::array();
    for (const cosim::MemDiff& m : d.mem_diffs) {
      nlohmann::json elements = nlohmann::json::array();
      for (const cosim::ElementDiff& e : m.elements)
        elements.push_back({{"unit", e.unit},
                            {"byte", e.byte},
                            {"element", e.element},
                            {na, e.values[0]},
                            {nb, e.values[1]}});
      mem_diffs.push_back({{"space", isa::space_name(m.space)},
                           {"units", {m.begin, m.end}},
                           {"differing_bytes", m.differing_bytes},
                           {"differing_elements", m.differing_elements},
                           {"elements", elements},
                           {"previous_writer",
                            {{na, writer_json(spec, m.previous_writer[0])},
                             {nb, writer_json(spec, m.previous_writer[1])}}}});
    }
    nlohmann::json why = nlohmann::json::object();
    for (size_t s = 0; s < 2; ++s) {
      if (!d.records[s]) {
        why[r.engines[s]] = nullptr;
        continue;
      }
      why[r.engines[s]] = {
          {"operands_at_issue", operands_json(d.operands[s])},
          {"addresses", addresses_json(spec, machine, *d.records[s], d.operands[s])},
          {"work", work_json(d.work[s])},
          {"cycles", {d.records[s]->start_cycle, d.records[s]->end_cycle}}};
    }
    j["first_divergence"] = {
        {"decoded", why},
        {"memory_differences", mem_diffs},
        {"index", d.index},
        {"pc", ref.pc},
        {"word", hex(ref.word, 8)},
        {"disassembly", dis},
        {"mnemonic", dis.substr(0, dis.find(' '))},
        {"stage", spec.stage_name(ref.stage)},
        {"fields", d.fields},
        {"details", d.details},
        {na, d.records[0] ? record_json(spec, *d.records[0]) : nlohmann::json(nullptr)},
        {nb, d.records[1] ? record_json(spec, *d.records[1]) : nlohmann::json(nullptr)},
        {"history", hist}};
  } else {
    j["first_divergence"] = nullptr;
  }
  j["trap"] = trap_json(spec, r.trap);
  nlohmann::json regs = nlohmann::json::array();
  for (const auto& d : r.reg_diffs)
    regs.push_back({{"reg", d.name}, {na, hex(d.values[0])}, {nb, hex(d.values[1])}});
  nlohmann::json mems = nlohmann::json::object();
  for (const auto& s : r.spaces) mems[isa::space_name(s.space)] = space_json(spec, r.engines, s);
  j["final_state_equal"] = r.final_state_equal();
  j["final_state"] = {{"registers_equal", r.reg_diffs.empty()},
                      {"register_differences", regs},
                      {"memories", mems},
                      {"outputs", kOutputsDefinition}};
  return j;
}

nlohmann::json run_json(const isa::Spec& spec, const cosim::RunResult& r) {
  nlohmann::json stages = nlohmann::json::object();
  const bool overlap = any_overlap(r.stages);
  for (const auto& row : r.stages) {
    stages[row.name] = {{"code", row.code},
                        {"instructions", row.instructions[0]},
                        {"cycles", row.cycles[0]},
                        {"hbm_bytes_read", row.hbm_read[0]},
                        {"hbm_bytes_written", row.hbm_written[0]}};
    if (overlap) {
      stages[row.name]["hidden_cycles"] = row.hidden_cycles[0];
      stages[row.name]["stall_cycles"] = row.stall_cycles[0];
      stages[row.name]["stall_cycles_by_cause"] = stall_causes_json(row, 0);
    }
  }
  nlohmann::json units = nlohmann::json::object();
  for (const auto& row : r.units)
    units[row.name] = {{"busy_cycles", row.busy_cycles[0]},
                       {"spans", row.spans[0]},
                       {"utilisation", utilisation(row.busy_cycles[0], r.total_cycles)}};
  return {{"engine", r.engine},
          {"instructions", r.retired},
          {"total_cycles", r.total_cycles},
          {"stages", stages},
          {"units", units},
          {"trap", trap_json(spec, r.trap)}};
}

std::string report_yaml(const nlohmann::json& j) {
  YAML::Emitter out;
  emit_yaml(out, j);
  if (!out.good()) throw std::invalid_argument("report_yaml: " + out.GetLastError());
  return std::string(out.c_str()) + "\n";
}

std::string record_line(const isa::Spec& spec, const isa::RetireRecord& r) {
  std::ostringstream s;
  // "#N pc P" padded so that the words and disassembly of a block of records line up.
  s << std::left << std::setw(16) << ("#" + std::to_string(r.index) + " pc " + std::to_string(r.pc))
    << ' ' << hex(r.word, 8) << "  " << std::left << std::setw(34) << isa::disassemble(spec, r.word)
    << " [" << spec.stage_name(r.stage) << "] cycles " << r.start_cycle << ".." << r.end_cycle;
  for (const auto& w : r.regs) s << ' ' << cosim::reg_name(w.file, w.index) << '=' << hex(w.value);
  for (const auto& m : r.mems)
    s << ' ' << isa::space_name(m.space) << '[' << m.begin << ',' << m.end << ")#"
      << hex(m.digest, 16);
  if (r.trap) {
    const isa::TrapSpec* ts = spec.trap_by_code(r.trap->cause);
    s << " TRAP " << (ts ? ts->name : std::to_string(r.trap->cause));
  }
  return s.str();
}

void print_stage_table(std::ostream& os, const std::vector<cosim::StageRow>& rows,
                       const std::vector<std::string>& engines) {
  const bool two = engines.size() == 2;
  // With a DMA queue (docs/overlap.md section 7): per engine hidden and stall cycles, the stall
  // cycles split by cause.
  const bool overlap = any_overlap(rows);
  constexpr size_t kCauses = std::tuple_size_v<decltype(cosim::StageRow::stall_by_cause)>;
  char line[256];
  std::snprintf(line, sizeof line, "%-26s %12s", "stage", "instructions");
  os << line;
  for (const auto& e : engines) {
    std::snprintf(line, sizeof line, " %15s", (e + " cycles").c_str());
    os << line;
    if (!overlap) continue;
    std::snprintf(line, sizeof line, " %13s %12s", (e + " hidden").c_str(), (e + " stall").c_str());
    os << line;
    for (size_t c = 0; c < kCauses; ++c) {
      std::snprintf(line, sizeof line, " %10s",
                    isa::stall_cause_name(static_cast<isa::StallCause>(c + 1)));
      os << line;
    }
  }
  os << (two ? "  match\n" : "\n");
  cosim::StageRow total;
  auto print_row = [&](const char* name, const cosim::StageRow& r, bool match) {
    std::snprintf(line, sizeof line, "%-26s %12llu", name,
                  static_cast<unsigned long long>(r.instructions[0]));
    os << line;
    for (size_t s = 0; s < engines.size(); ++s) {
      std::snprintf(line, sizeof line, " %15llu", static_cast<unsigned long long>(r.cycles[s]));
      os << line;
      if (!overlap) continue;
      std::snprintf(line, sizeof line, " %13llu %12llu",
                    static_cast<unsigned long long>(r.hidden_cycles[s]),
                    static_cast<unsigned long long>(r.stall_cycles[s]));
      os << line;
      for (size_t c = 0; c < kCauses; ++c) {
        std::snprintf(line, sizeof line, " %10llu",
                      static_cast<unsigned long long>(r.stall_by_cause[c][s]));
        os << line;
      }
    }
    os << (two ? (match ? "  yes\n" : "  NO\n") : "\n");
  };
  for (const auto& r : rows) {
    print_row(r.name.c_str(), r, r.match());
    for (size_t s = 0; s < 2; ++s) {
      total.instructions[s] += r.instructions[s];
      total.cycles[s] += r.cycles[s];
      total.hidden_cycles[s] += r.hidden_cycles[s];
      total.stall_cycles[s] += r.stall_cycles[s];
      for (size_t c = 0; c < kCauses; ++c) total.stall_by_cause[c][s] += r.stall_by_cause[c][s];
    }
  }
  print_row("total", total, total.match());
}

void print_unit_table(std::ostream& os, const std::vector<cosim::UnitRow>& rows,
                      const std::vector<std::string>& engines,
                      const std::vector<uint64_t>& total_cycles) {
  const bool two = engines.size() == 2;
  char line[256];
  std::snprintf(line, sizeof line, "%-26s", "unit");
  os << line;
  for (const auto& e : engines) {
    std::snprintf(line, sizeof line, " %15s %8s %7s", (e + " busy").c_str(), "spans", "util");
    os << line;
  }
  os << (two ? "  match\n" : "\n");
  for (const auto& r : rows) {
    std::snprintf(line, sizeof line, "%-26s", r.name.c_str());
    os << line;
    for (size_t s = 0; s < engines.size(); ++s) {
      std::snprintf(line, sizeof line, " %15llu %8llu %6.1f%%",
                    static_cast<unsigned long long>(r.busy_cycles[s]),
                    static_cast<unsigned long long>(r.spans[s]),
                    100.0 * utilisation(r.busy_cycles[s], total_cycles.at(s)));
      os << line;
    }
    os << (two ? (r.match() ? "  yes\n" : "  NO\n") : "\n");
  }
}

void print_cosim_details(std::ostream& os, const isa::Spec& spec, const cosim::CosimResult& r,
                         const std::string& rerun, const isa::MachinePreset* machine) {
  if (r.divergence) {
    const cosim::Divergence& d = *r.divergence;
    const isa::RetireRecord& ref = d.records[0] ? *d.records[0] : *d.records[1];
    os << "FIRST DIVERGENCE at retire #" << d.index << ": pc " << ref.pc << " " << hex(ref.word, 8)
       << " " << isa::disassemble(spec, ref.word) << " [" << spec.stage_name(ref.stage) << "]\n";
    os << "  differing fields:";
    for (const auto& f : d.fields) os << ' ' << f;
    os << '\n';
    for (const auto& line : d.details) os << "  " << line << '\n';
    for (const cosim::MemDiff& m : d.mem_diffs)
      for (const std::string& line : mem_diff_lines(spec, r.engines, m)) os << "  " << line << '\n';
    for (size_t s = 0; s < 2; ++s) {
      os << "  " << r.engines[s] << ": "
         << (d.records[s] ? record_line(spec, *d.records[s]) : std::string("(no record: stopped)"))
         << '\n';
      if (!d.records[s]) continue;
      os << "    cycles " << d.records[s]->start_cycle << ".." << d.records[s]->end_cycle << ", "
         << work_text(d.work[s]) << "; operands at issue: " << operands_text(d.operands[s]) << '\n';
      for (const EffectiveAddress& a :
           effective_addresses(spec, machine, d.records[s]->word, d.operands[s]))
        os << "    address: " << address_text(a, machine) << '\n';
    }
    if (!rerun.empty()) os << "  re-run just the failing part:\n    " << rerun << '\n';
    for (size_t s = 0; s < 2; ++s) {
      os << "  last " << d.history[s].size() << " retired by " << r.engines[s] << ":\n";
      for (const auto& h : d.history[s]) os << "    " << record_line(spec, h) << '\n';
    }
  }
  if (r.trap) {
    const isa::TrapSpec* ts = spec.trap_by_code(r.trap->cause);
    os << "note: both engines trapped: " << (ts ? ts->name : std::to_string(r.trap->cause))
       << " at pc " << r.trap->pc << " (" << isa::disassemble(spec, r.trap->word) << ")\n";
  }
  os << "final state" << (r.divergence ? " (at the stop)" : "") << ": registers "
     << (r.reg_diffs.empty() ? "equal" : "DIFFER") << '\n';
  for (const auto& d : r.reg_diffs)
    os << "  " << d.name << ": " << r.engines[0] << ' ' << hex(d.values[0]) << ", " << r.engines[1]
       << ' ' << hex(d.values[1]) << '\n';
  for (const auto& s : r.spaces) {
    os << "  " << std::left << std::setw(9) << isa::space_name(s.space) << std::right;
    if (s.equal()) {
      os << "equal (" << s.size_bytes << " bytes)\n";
      continue;
    }
    os << "DIFFER: " << s.differing_bytes << (s.differing_bytes == 1 ? " byte" : " bytes");
    if (s.unwritten_differing_bytes != 0)
      os << " (" << s.unwritten_differing_bytes << (s.outputs_equal() ? "" : " of them")
         << " never written by the program: not outputs)";
    if (s.first_byte)
      os << ", first at byte " << *s.first_byte << " (unit " << *s.first_byte / s.unit_bytes
         << "): " << r.engines[0] << ' ' << hex(s.first_values[0], 2) << ", " << r.engines[1] << ' '
         << hex(s.first_values[1], 2);
    if (s.size_differs) os << "; sizes differ";
    os << '\n';
    if (s.first_byte)
      os << "    last writer of byte " << *s.first_byte << ": " << r.engines[0] << ' '
         << writer_text(spec, s.first_writer[0]) << "; " << r.engines[1] << ' '
         << writer_text(spec, s.first_writer[1]) << '\n';
    for (const auto& range : s.ranges) {
      const auto units = unit_range(s, range);
      os << "    bytes [" << range.first << ", " << range.second << ") = units [" << units.first
         << ", " << units.second << ")\n";
    }
    if (listed_bytes(s) != s.differing_bytes)
      os << "    ... more differing bytes beyond the first " << s.ranges.size() << " ranges\n";
  }
}

}  // namespace moesim::report
