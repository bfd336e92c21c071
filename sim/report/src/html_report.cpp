// Self-contained HTML report (html_report.hpp).
#include "moesim/report/html_report.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <vector>

#include "moesim/isa/assembler.hpp"
#include "moesim/isa/file_output.hpp"
#include "moesim/isa/format.hpp"
#include "moesim/report/report.hpp"

namespace moesim::report {
namespace {

// Chart geometry in SVG user units.
constexpr int kLabelWidth = 230;
constexpr int kBarArea = 430;
constexpr int kValueWidth = 110;
constexpr int kBarHeight = 14;
constexpr int kGroupGap = 10;
constexpr int kLegendHeight = 24;
constexpr int kAxisHeight = 36;

/// What both kinds of run have in common; `cosim` is set for a co-simulation.
struct View {
  std::string title;
  std::string verdict;
  std::vector<std::string> engines;
  std::vector<uint64_t> total_cycles;
  std::vector<uint64_t> retired;
  const std::vector<cosim::StageRow>* stages = nullptr;
  const std::vector<cosim::UnitRow>* units = nullptr;
  std::optional<isa::Trap> trap;
  const cosim::CosimResult* cosim = nullptr;
  const isa::MachinePreset* machine = nullptr;  ///< evaluates effective addresses; may be null
};

using isa::hex;

std::string percent(double share) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f%%", 100.0 * share);
  return buf;
}

std::string trap_text(const isa::Spec& spec, const isa::Trap& t) {
  const isa::TrapSpec* ts = spec.trap_by_code(t.cause);
  return (ts ? ts->name : "cause " + std::to_string(t.cause)) + " at pc " + std::to_string(t.pc) +
         " (" + isa::disassemble(spec, t.word) + ")";
}

/// A table cell with data hooks: <td class="num" data-engine=".." data-kind="..">value</td>.
std::string num_cell(const std::string& engine, const char* kind, uint64_t value) {
  return "<td class=\"num\" data-engine=\"" + html_escape(engine) + "\" data-kind=\"" + kind +
         "\">" + std::to_string(value) + "</td>";
}

std::string text_cell(const std::string& text) {
  return "<td class=\"num\">" + html_escape(text) + "</td>";
}

std::string match_cell(bool match) {
  return match ? "<td class=\"ok\">yes</td>" : "<td class=\"bad\">NO</td>";
}

/// Scalars of `j` as (dotted key, text) rows; arrays of scalars joined with ", ".
void flatten(const nlohmann::json& j, const std::string& prefix,
             std::vector<std::pair<std::string, std::string>>& rows) {
  auto text = [](const nlohmann::json& v) {
    return v.is_string() ? v.get<std::string>() : v.dump();
  };
  if (j.is_object()) {
    for (const auto& [key, value] : j.items())
      flatten(value, prefix.empty() ? key : prefix + "." + key, rows);
  } else if (j.is_array() && std::all_of(j.begin(), j.end(), [](const nlohmann::json& v) {
               return v.is_primitive();
             })) {
    std::string joined;
    for (const auto& v : j) joined += (joined.empty() ? "" : ", ") + text(v);
    rows.emplace_back(prefix, joined);
  } else if (j.is_array()) {
    for (size_t i = 0; i < j.size(); ++i)
      flatten(j[i], prefix + "[" + std::to_string(i) + "]", rows);
  } else {
    rows.emplace_back(prefix, text(j));
  }
}

void write_head(std::ostream& os, const View& v) {
  os << "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>"
     << html_escape(v.title) << "</title>\n<style>\n"
     << "body{font-family:sans-serif;margin:1.5em;color:#222}\n"
     << "table{border-collapse:collapse;margin:0.5em 0 1.5em}\n"
     << "th,td{border:1px solid #ccc;padding:2px 8px;text-align:left}\n"
     << "td.num{text-align:right;font-family:monospace}\n"
     << "tr.total td{font-weight:bold}\n"
     << ".ok{color:#176f2c}.bad{color:#b00020;font-weight:bold}\n"
     << "tr.diff td{background:#fde2e4}\n"
     << "pre{background:#f5f5f5;padding:0.5em;overflow-x:auto}\n"
     << ".verdict{font-size:1.3em;font-weight:bold}\n"
     << "svg text{font-family:sans-serif;font-size:12px}\n"
     << ".e0{fill:#4e79a7}.e1{fill:#f28e2b}\n"
     << ".axis line{stroke:#ddd}.axis text{fill:#555;font-size:11px}\n"
     << ".log,.logbar{display:none}\n"
     << "body:has(#log-scale:checked) .log,body:has(#log-scale:checked) .logbar{display:inline}\n"
     << "body:has(#log-scale:checked) .lin,body:has(#log-scale:checked) .bar{display:none}\n"
     << "details{margin:1em 0}summary{cursor:pointer;font-weight:bold}\n"
     << "#verdict-detail a{color:inherit}\n"
     << "</style>\n</head>\n<body>\n<h1>" << html_escape(v.title) << "</h1>\n";
}

void write_verdict(std::ostream& os, const isa::Spec& spec, const View& v) {
  const bool good = v.verdict == "EQUAL" || v.verdict == "COMPLETED";
  os << "<p class=\"verdict " << (good ? "ok" : "bad") << "\" id=\"verdict\">"
     << html_escape(v.verdict) << "</p>\n";
  if (v.cosim != nullptr) {
    const cosim::CosimResult& r = *v.cosim;
    os << "<ul id=\"verdict-detail\">\n";
    auto item = [&](bool ok, const std::string& text) {
      os << "<li class=\"" << (ok ? "ok" : "bad") << "\">" << html_escape(text) << "</li>\n";
    };
    if (r.divergence) {
      const cosim::Divergence& d = *r.divergence;
      const isa::RetireRecord& ref = d.records[0] ? *d.records[0] : *d.records[1];
      os << "<li class=\"bad\"><a href=\"#divergence\">First divergence at retire #" << d.index
         << ", pc " << ref.pc << " " << html_escape(isa::disassemble(spec, ref.word)) << " ["
         << html_escape(spec.stage_name(ref.stage)) << "]</a>: ";
      for (size_t i = 0; i < d.fields.size(); ++i)
        os << (i ? ", " : "") << html_escape(d.fields[i]);
      os << " differ</li>\n";
    } else if (r.limit_reached) {
      item(false, "The program did not end within --max-instructions.");
    } else {
      item(r.outputs_bit_exact(),
           std::string("Outputs ") + (r.outputs_bit_exact() ? "bit-exact" : "NOT bit-exact"));
      item(r.cycles_match(),
           std::string("Cycles ") + (r.cycles_match() ? "match" : "DO NOT match"));
      item(r.profiles_match(),
           std::string("Stage profiles ") + (r.profiles_match() ? "equal" : "DIFFER"));
    }
    if (!r.final_state_equal())
      os << "<li class=\"bad\"><a href=\"#final-state\">Final state differs</a>"
         << (r.outputs_bit_exact() ? " outside the outputs (memory the program never wrote)" : "")
         << "</li>\n";
    os << "</ul>\n";
  }
  os << "<p>";
  for (size_t e = 0; e < v.engines.size(); ++e)
    os << (e ? "; " : "") << html_escape(v.engines[e]) << ": " << v.retired[e]
       << " instructions retired, " << v.total_cycles[e] << " cycles";
  os << "</p>\n";
  if (v.trap) os << "<p>Trap: " << html_escape(trap_text(spec, *v.trap)) << "</p>\n";
}

void write_context(std::ostream& os, const nlohmann::json& context) {
  std::vector<std::pair<std::string, std::string>> rows;
  if (!context.is_null()) flatten(context, "", rows);
  if (rows.empty()) return;
  os << "<details id=\"settings\">\n<summary>Run settings (" << rows.size()
     << " entries)</summary>\n<table id=\"context\">\n";
  for (const auto& [key, value] : rows)
    os << "<tr><th>" << html_escape(key) << "</th><td>" << html_escape(value) << "</td></tr>\n";
  os << "</table>\n</details>\n";
}

/// Tick values of a linear axis from 0 to at least `max`: steps of 1, 2 or 5 times a power of
/// ten, about five of them.
std::vector<uint64_t> linear_ticks(uint64_t max) {
  uint64_t step = 1;
  for (;;) {
    for (uint64_t m : {1u, 2u, 5u})
      if (max / (step * m) <= 5) {
        std::vector<uint64_t> t;
        for (uint64_t x = 0; x <= max; x += step * m) t.push_back(x);
        return t;
      }
    step *= 10;
  }
}

void write_chart(std::ostream& os, const View& v) {
  os << "<h2 id=\"chart\">Cycles per stage</h2>\n";
  const auto& stages = *v.stages;
  if (stages.empty()) {
    os << "<p>No instruction retired.</p>\n";
    return;
  }
  uint64_t max = 1;
  for (const auto& s : stages)
    for (size_t e = 0; e < v.engines.size(); ++e) max = std::max(max, s.cycles[e]);
  const std::vector<uint64_t> ticks = linear_ticks(max);
  const double lin_max = static_cast<double>(std::max<uint64_t>(ticks.back(), max));
  const double log_max = std::log10(static_cast<double>(max) + 1.0);
  auto lin = [&](uint64_t c) {
    int w = static_cast<int>(static_cast<double>(c) / lin_max * kBarArea);
    return c > 0 && w == 0 ? 1 : w;
  };
  auto logw = [&](uint64_t c) {
    int w = static_cast<int>(std::log10(static_cast<double>(c) + 1.0) / log_max * kBarArea);
    return c > 0 && w == 0 ? 1 : w;
  };
  const int n = static_cast<int>(v.engines.size());
  const int group = n * kBarHeight + kGroupGap;
  const int width = kLabelWidth + kBarArea + kValueWidth;
  const int plot = kLegendHeight + static_cast<int>(stages.size()) * group;
  const int height = plot + kAxisHeight;
  os << "<p class=\"chart-scale\"><input type=\"checkbox\" id=\"log-scale\">"
     << "<label for=\"log-scale\">log scale (log10 of cycles + 1), to see small stages</label>"
     << "</p>\n<svg id=\"stage-chart\" width=\"" << width << "\" height=\"" << height
     << "\" role=\"img\" aria-label=\"cycles per stage\">\n";
  for (int e = 0; e < n; ++e) {
    const int x = kLabelWidth + e * 150;
    os << "<rect class=\"e" << e << "\" x=\"" << x << "\" y=\"4\" width=\"12\" height=\"12\"/>"
       << "<text x=\"" << x + 16 << "\" y=\"15\">" << html_escape(v.engines[e]) << "</text>\n";
  }
  // Axes: grid lines and tick labels, linear and log (one shown at a time).
  os << "<g class=\"axis lin\">";
  for (uint64_t t : ticks) {
    const int x = kLabelWidth + static_cast<int>(static_cast<double>(t) / lin_max * kBarArea);
    os << "<line x1=\"" << x << "\" x2=\"" << x << "\" y1=\"" << kLegendHeight - 4 << "\" y2=\""
       << plot << "\"/><text x=\"" << x << "\" y=\"" << plot + 14 << "\" text-anchor=\"middle\">"
       << t << "</text>";
  }
  os << "<text x=\"" << kLabelWidth + kBarArea / 2 << "\" y=\"" << plot + 30
     << "\" text-anchor=\"middle\">cycles</text></g>\n<g class=\"axis log\">";
  // Ticks at 0 and the powers of ten, placed where their bars end (log10(cycles + 1)).
  for (uint64_t t = 0;; t = t == 0 ? 10 : t * 10) {
    const int x = kLabelWidth + (t == 0 ? 0 : logw(t));
    const std::string label = t >= 1000000 ? std::to_string(t / 1000000) + "M"
                              : t >= 1000  ? std::to_string(t / 1000) + "k"
                                           : std::to_string(t);
    os << "<line x1=\"" << x << "\" x2=\"" << x << "\" y1=\"" << kLegendHeight - 4 << "\" y2=\""
       << plot << "\"/><text x=\"" << x << "\" y=\"" << plot + 14 << "\" text-anchor=\"middle\">"
       << label << "</text>";
    if (t > max || t > UINT64_MAX / 10) break;
  }
  os << "<text x=\"" << kLabelWidth + kBarArea / 2 << "\" y=\"" << plot + 30
     << "\" text-anchor=\"middle\">cycles (log scale)</text></g>\n";
  for (size_t i = 0; i < stages.size(); ++i) {
    const cosim::StageRow& s = stages[i];
    const int y = kLegendHeight + static_cast<int>(i) * group;
    os << "<g data-stage-bar=\"" << html_escape(s.name) << "\">\n<text x=\"0\" y=\""
       << y + n * kBarHeight / 2 + 4 << "\">" << html_escape(s.name) << "</text>\n";
    for (int e = 0; e < n; ++e) {
      const uint64_t c = s.cycles[static_cast<size_t>(e)];
      const std::string engine = html_escape(v.engines[static_cast<size_t>(e)]);
      const int by = y + e * kBarHeight;
      const std::string title = "<title>" + html_escape(s.name) + ", " + engine + ": " +
                                std::to_string(c) + " cycles</title>";
      const int w = lin(c), lw = logw(c);
      os << "<rect class=\"bar e" << e << "\" data-engine=\"" << engine << "\" data-cycles=\"" << c
         << "\" x=\"" << kLabelWidth << "\" y=\"" << by << "\" width=\"" << w << "\" height=\""
         << kBarHeight - 2 << "\">" << title << "</rect><text class=\"lin\" x=\""
         << kLabelWidth + w + 4 << "\" y=\"" << by + kBarHeight - 3 << "\">" << c << "</text>\n"
         << "<rect class=\"logbar e" << e << "\" x=\"" << kLabelWidth << "\" y=\"" << by
         << "\" width=\"" << lw << "\" height=\"" << kBarHeight - 2 << "\">" << title
         << "</rect><text class=\"log\" x=\"" << kLabelWidth + lw + 4 << "\" y=\""
         << by + kBarHeight - 3 << "\">" << c << "</text>\n";
    }
    os << "</g>\n";
  }
  os << "</svg>\n";
}

void write_stage_table(std::ostream& os, const View& v) {
  const size_t n = v.engines.size();
  os << "<h2>Stages</h2>\n<table id=\"stages\">\n<tr><th>stage</th>";
  for (const auto& e : v.engines) os << "<th>" << html_escape(e) << " instructions</th>";
  for (const auto& e : v.engines) os << "<th>" << html_escape(e) << " cycles</th>";
  for (const auto& e : v.engines) os << "<th>" << html_escape(e) << " share</th>";
  os << (n == 2 ? "<th>match</th>" : "") << "</tr>\n";
  std::array<uint64_t, 2> ti{}, tc{};
  for (const auto& s : *v.stages) {
    os << "<tr data-stage=\"" << html_escape(s.name) << "\"><td>" << html_escape(s.name) << "</td>";
    for (size_t e = 0; e < n; ++e) os << num_cell(v.engines[e], "instructions", s.instructions[e]);
    for (size_t e = 0; e < n; ++e) os << num_cell(v.engines[e], "cycles", s.cycles[e]);
    for (size_t e = 0; e < n; ++e)
      os << text_cell(percent(utilisation(s.cycles[e], v.total_cycles[e])));
    os << (n == 2 ? match_cell(s.match()) : "") << "</tr>\n";
    for (size_t e = 0; e < n; ++e) {
      ti[e] += s.instructions[e];
      tc[e] += s.cycles[e];
    }
  }
  os << "<tr class=\"total\"><td>total</td>";
  for (size_t e = 0; e < n; ++e) os << num_cell(v.engines[e], "instructions", ti[e]);
  for (size_t e = 0; e < n; ++e) os << num_cell(v.engines[e], "cycles", tc[e]);
  for (size_t e = 0; e < n; ++e) os << text_cell(percent(utilisation(tc[e], v.total_cycles[e])));
  os << (n == 2 ? match_cell(ti[0] == ti[1] && tc[0] == tc[1]) : "") << "</tr>\n</table>\n";
}

void write_unit_table(std::ostream& os, const View& v) {
  const size_t n = v.engines.size();
  os << "<h2>Units</h2>\n<p>Utilisation = busy cycles / total cycles of the engine.</p>\n"
     << "<table id=\"units\">\n<tr><th>unit</th>";
  for (const auto& e : v.engines) os << "<th>" << html_escape(e) << " busy cycles</th>";
  for (const auto& e : v.engines) os << "<th>" << html_escape(e) << " spans</th>";
  for (const auto& e : v.engines) os << "<th>" << html_escape(e) << " utilisation</th>";
  os << (n == 2 ? "<th>match</th>" : "") << "</tr>\n";
  for (const auto& u : *v.units) {
    os << "<tr data-unit=\"" << html_escape(u.name) << "\"><td>" << html_escape(u.name) << "</td>";
    for (size_t e = 0; e < n; ++e) os << num_cell(v.engines[e], "busy_cycles", u.busy_cycles[e]);
    for (size_t e = 0; e < n; ++e) os << num_cell(v.engines[e], "spans", u.spans[e]);
    for (size_t e = 0; e < n; ++e)
      os << text_cell(percent(utilisation(u.busy_cycles[e], v.total_cycles[e])));
    os << (n == 2 ? match_cell(u.match()) : "") << "</tr>\n";
  }
  os << "</table>\n";
}

/// One row per record field; fields the comparator named get class "diff".
void write_records(std::ostream& os, const isa::Spec& spec, const cosim::CosimResult& r,
                   const cosim::Divergence& d, const isa::MachinePreset* machine) {
  os << "<table id=\"divergent-records\">\n<tr><th>field</th>";
  for (const auto& e : r.engines) os << "<th>" << html_escape(e) << "</th>";
  os << "</tr>\n";
  using Getter = std::string (*)(const isa::Spec&, const isa::RetireRecord&);
  const std::vector<std::pair<const char*, Getter>> fields = {
      {"index",
       [](const isa::Spec&, const isa::RetireRecord& x) { return std::to_string(x.index); }},
      {"pc", [](const isa::Spec&, const isa::RetireRecord& x) { return std::to_string(x.pc); }},
      {"word", [](const isa::Spec&, const isa::RetireRecord& x) { return hex(x.word, 8); }},
      {"disassembly",
       [](const isa::Spec& s, const isa::RetireRecord& x) { return isa::disassemble(s, x.word); }},
      {"stage",
       [](const isa::Spec& s, const isa::RetireRecord& x) { return s.stage_name(x.stage); }},
      {"start_cycle",
       [](const isa::Spec&, const isa::RetireRecord& x) { return std::to_string(x.start_cycle); }},
      {"end_cycle",
       [](const isa::Spec&, const isa::RetireRecord& x) { return std::to_string(x.end_cycle); }},
      {"regs",
       [](const isa::Spec&, const isa::RetireRecord& x) {
         std::string t;
         for (const auto& w : x.regs)
           t += (t.empty() ? "" : " ") + cosim::reg_name(w.file, w.index) + "=" + hex(w.value);
         return t;
       }},
      {"mems",
       [](const isa::Spec&, const isa::RetireRecord& x) {
         std::string t;
         for (const auto& m : x.mems)
           t += (t.empty() ? "" : " ") + std::string(isa::space_name(m.space)) + "[" +
                std::to_string(m.begin) + "," + std::to_string(m.end) + ")#" + hex(m.digest, 16);
         return t;
       }},
      {"trap", [](const isa::Spec& s, const isa::RetireRecord& x) {
         return x.trap ? trap_text(s, *x.trap) : std::string("none");
       }}};
  for (const auto& [name, get] : fields) {
    const bool differs = std::find(d.fields.begin(), d.fields.end(), name) != d.fields.end();
    os << "<tr" << (differs ? " class=\"diff\"" : "") << "><th>" << name << "</th>";
    for (size_t e = 0; e < 2; ++e)
      os << "<td>" << (d.records[e] ? html_escape(get(spec, *d.records[e])) : "(stopped)")
         << "</td>";
    os << "</tr>\n";
  }
  // Decoded: the work item and the operands with their values at issue.
  os << "<tr><th>work</th>";
  for (size_t e = 0; e < 2; ++e)
    os << "<td>" << (d.records[e] ? html_escape(work_text(d.work[e])) : "(stopped)") << "</td>";
  os << "</tr>\n<tr><th>operands at issue</th>";
  for (size_t e = 0; e < 2; ++e) {
    os << "<td>";
    if (d.records[e])
      for (const cosim::OperandValue& o : d.operands[e])
        os << "<div>" << html_escape(operands_text({o})) << "</div>";
    else
      os << "(stopped)";
    os << "</td>";
  }
  os << "</tr>\n<tr><th>addresses at issue</th>";
  for (size_t e = 0; e < 2; ++e) {
    os << "<td>";
    if (d.records[e]) {
      const auto addresses = effective_addresses(spec, machine, d.records[e]->word, d.operands[e]);
      for (const EffectiveAddress& a : addresses)
        os << "<div>" << html_escape(address_text(a, machine)) << "</div>";
      if (addresses.empty()) os << "none";
    } else {
      os << "(stopped)";
    }
    os << "</td>";
  }
  os << "</tr>\n</table>\n";
}

void write_mem_diffs(std::ostream& os, const isa::Spec& spec, const cosim::CosimResult& r,
                     const cosim::Divergence& d) {
  for (const cosim::MemDiff& m : d.mem_diffs) {
    const std::string noun = isa::unit_noun(m.space);
    os << "<h3>" << isa::space_name(m.space) << " " << noun << "s [" << m.begin << ", " << m.end
       << ") written: " << m.differing_elements
       << (m.differing_elements == 1 ? " element differs" : " elements differ") << " ("
       << m.differing_bytes << (m.differing_bytes == 1 ? " byte" : " bytes") << ")</h3>\n"
       << "<table class=\"elements\">\n<tr><th>" << noun << "</th><th>element</th><th>"
       << html_escape(r.engines[0]) << "</th><th>" << html_escape(r.engines[1]) << "</th></tr>\n";
    for (const cosim::ElementDiff& e : m.elements)
      os << "<tr class=\"diff\">" << text_cell(std::to_string(e.unit)) << "<td>"
         << html_escape(e.element) << "</td>" << text_cell(e.values[0]) << text_cell(e.values[1])
         << "</tr>\n";
    if (m.differing_elements > m.elements.size())
      os << "<tr><td colspan=\"4\">... " << m.differing_elements - m.elements.size()
         << " more</td></tr>\n";
    os << "</table>\n";
    if (!m.elements.empty())
      os << "<p>Previous writer of " << noun << " " << m.elements.front().unit << ": "
         << html_escape(r.engines[0]) << " <code>"
         << html_escape(writer_text(spec, m.previous_writer[0])) << "</code>; "
         << html_escape(r.engines[1]) << " <code>"
         << html_escape(writer_text(spec, m.previous_writer[1])) << "</code></p>\n";
  }
}

void write_divergence(std::ostream& os, const isa::Spec& spec, const cosim::CosimResult& r,
                      const nlohmann::json& context, const isa::MachinePreset* machine) {
  if (!r.divergence) return;
  const cosim::Divergence& d = *r.divergence;
  os << "<h2 id=\"divergence\">First divergence: retire #" << d.index << "</h2>\n<p>Differing "
     << "fields:";
  for (const auto& f : d.fields) os << " <code>" << html_escape(f) << "</code>";
  os << "</p>\n<ul>\n";
  for (const auto& line : d.details) os << "<li>" << html_escape(line) << "</li>\n";
  os << "</ul>\n";
  write_records(os, spec, r, d, machine);
  write_mem_diffs(os, spec, r, d);
  if (context.is_object() && context.contains("rerun") && context["rerun"].is_string())
    os << "<p>Re-run just the failing part:</p>\n<pre id=\"rerun\">"
       << html_escape(context["rerun"].get<std::string>()) << "</pre>\n";
  for (size_t e = 0; e < 2; ++e) {
    os << "<h3>Last " << d.history[e].size() << " retired by " << html_escape(r.engines[e])
       << "</h3>\n<pre>";
    for (const auto& h : d.history[e]) os << html_escape(record_line(spec, h)) << '\n';
    os << "</pre>\n";
  }
}

void write_final_state(std::ostream& os, const isa::Spec& spec, const cosim::CosimResult& r) {
  os << "<h2 id=\"final-state\">Final state" << (r.divergence ? " (at the stop)" : "")
     << "</h2>\n<p class=\"note\">" << html_escape(kOutputsDefinition) << ".</p>\n";
  if (r.reg_diffs.empty()) {
    os << "<p>Registers equal.</p>\n";
  } else {
    os << "<table id=\"registers\">\n<tr><th>register</th><th>" << html_escape(r.engines[0])
       << "</th><th>" << html_escape(r.engines[1]) << "</th></tr>\n";
    for (const auto& d : r.reg_diffs)
      os << "<tr class=\"diff\"><td>" << html_escape(d.name) << "</td>"
         << text_cell(hex(d.values[0])) << text_cell(hex(d.values[1])) << "</tr>\n";
    os << "</table>\n";
  }
  os << "<table id=\"memories\">\n<tr><th>space</th><th>compared bytes</th><th>unit bytes</th>"
     << "<th>differing bytes</th><th>of them never written (not outputs)</th>"
     << "<th>first difference</th><th>differing ranges</th></tr>\n";
  for (const auto& s : r.spaces) {
    const std::string name = isa::space_name(s.space);
    os << "<tr data-space=\"" << html_escape(name) << "\"" << (s.equal() ? "" : " class=\"diff\"")
       << "><td>" << html_escape(name) << "</td>" << text_cell(std::to_string(s.size_bytes))
       << text_cell(std::to_string(s.unit_bytes)) << text_cell(std::to_string(s.differing_bytes))
       << text_cell(std::to_string(s.unwritten_differing_bytes)) << "<td>";
    if (s.first_byte)
      os << "byte " << *s.first_byte << " (unit " << *s.first_byte / s.unit_bytes
         << "): " << html_escape(r.engines[0]) << ' ' << hex(s.first_values[0], 2) << ", "
         << html_escape(r.engines[1]) << ' ' << hex(s.first_values[1], 2)
         << "<div>last writer: " << html_escape(r.engines[0]) << " <code>"
         << html_escape(writer_text(spec, s.first_writer[0])) << "</code>; "
         << html_escape(r.engines[1]) << " <code>"
         << html_escape(writer_text(spec, s.first_writer[1])) << "</code></div>";
    if (s.size_differs) os << (s.first_byte ? "; " : "") << "sizes differ";
    os << "</td><td>";
    uint64_t listed = 0;
    for (const auto& range : s.ranges) {
      const auto units = unit_range(s, range);
      os << "<div class=\"range\">bytes [" << range.first << ", " << range.second << ") = units ["
         << units.first << ", " << units.second << ")</div>";
      listed += range.second - range.first;
    }
    if (listed != s.differing_bytes) os << "<div>... more beyond these ranges</div>";
    os << "</td></tr>\n";
  }
  os << "</table>\n";
}

std::string render(const isa::Spec& spec, const View& v, const nlohmann::json& context) {
  std::ostringstream os;
  // Top down: verdict, the first divergence and the final state, the stage chart, the tables,
  // the run settings folded away.
  write_head(os, v);
  write_verdict(os, spec, v);
  if (v.cosim) write_divergence(os, spec, *v.cosim, context, v.machine);
  if (v.cosim && (v.cosim->divergence || !v.cosim->final_state_equal()))
    write_final_state(os, spec, *v.cosim);
  write_chart(os, v);
  write_stage_table(os, v);
  write_unit_table(os, v);
  if (v.cosim && !v.cosim->divergence && v.cosim->final_state_equal())
    write_final_state(os, spec, *v.cosim);
  write_context(os, context);
  os << "</body>\n</html>\n";
  return os.str();
}

std::string program_name(const nlohmann::json& context) {
  if (context.is_object() && context.contains("program") && context["program"].is_object() &&
      context["program"].contains("name") && context["program"]["name"].is_string())
    return context["program"]["name"].get<std::string>();
  return "";
}

}  // namespace

std::string html_report(const isa::Spec& spec, const cosim::CosimResult& r,
                        const nlohmann::json& context, const isa::MachinePreset* machine) {
  View v;
  const std::string program = program_name(context);
  v.title = "moesim cosim" + (program.empty() ? std::string() : ": " + program);
  v.verdict = cosim_verdict(r);
  v.engines = {r.engines[0], r.engines[1]};
  v.total_cycles = {r.total_cycles[0], r.total_cycles[1]};
  v.retired = {r.retired[0], r.retired[1]};
  v.stages = &r.stages;
  v.units = &r.units;
  v.trap = r.trap;
  v.cosim = &r;
  v.machine = machine;
  return render(spec, v, context);
}

std::string html_report(const isa::Spec& spec, const cosim::RunResult& r,
                        const nlohmann::json& context) {
  View v;
  const std::string program = program_name(context);
  v.title = "moesim run " + r.engine + (program.empty() ? std::string() : ": " + program);
  v.verdict = r.limit_reached ? "STOPPED" : r.trap ? "TRAPPED" : "COMPLETED";
  v.engines = {r.engine};
  v.total_cycles = {r.total_cycles};
  v.retired = {r.retired};
  v.stages = &r.stages;
  v.units = &r.units;
  v.trap = r.trap;
  return render(spec, v, context);
}

void write_html_report(const std::filesystem::path& path, const isa::Spec& spec,
                       const cosim::CosimResult& r, const nlohmann::json& context,
                       const isa::MachinePreset* machine) {
  isa::write_file(path, html_report(spec, r, context, machine));
}

void write_html_report(const std::filesystem::path& path, const isa::Spec& spec,
                       const cosim::RunResult& r, const nlohmann::json& context) {
  isa::write_file(path, html_report(spec, r, context));
}

}  // namespace moesim::report
