// The coverage report as text, JSON and HTML (moesim/coverage/coverage.hpp).
#include <cstdio>
#include <nlohmann/json.hpp>
#include <sstream>

#include "moesim/coverage/coverage.hpp"
#include "moesim/isa/html_escape.hpp"

namespace moesim::coverage {
namespace {

using isa::html_escape;

std::string pct(double v) {
  char b[32];
  std::snprintf(b, sizeof b, "%.2f", v);
  return b;
}

}  // namespace

std::string to_text(const Report& r) {
  std::ostringstream o;
  o << "RTL coverage of " << r.files << " file(s)\n";
  o << "  kind     points      hit   waived   percent   minimum\n";
  for (Kind k : kKinds) {
    const size_t i = static_cast<size_t>(k);
    const KindSummary& s = r.kinds[i];
    char line[160];
    std::snprintf(line, sizeof line, "  %-6s %8zu %8zu %8zu %8s%% %8s%%%s\n", kind_name(k),
                  s.points, s.hit, s.waived, pct(s.percent()).c_str(),
                  pct(r.thresholds.min[i]).c_str(), r.below[i] ? "  BELOW" : "");
    o << line;
  }
  for (const Waiver& w : r.stale)
    o << "stale waiver (" << w.source << "): '" << w.point
      << "' matches no uncovered point (covered now, or no such point): remove it\n";
  if (!r.uncovered.empty()) {
    o << "uncovered (" << r.uncovered.size() << "):\n";
    for (const Point* p : r.uncovered) o << "  " << kind_name(p->kind) << "  " << p->name() << '\n';
  }
  o << "COVERAGE: " << (r.pass() ? "PASS" : "FAIL") << '\n';
  return o.str();
}

std::string to_json(const Report& r) {
  nlohmann::ordered_json j;
  j["files"] = r.files;
  j["pass"] = r.pass();
  for (Kind k : kKinds) {
    const size_t i = static_cast<size_t>(k);
    const KindSummary& s = r.kinds[i];
    j["kinds"][kind_name(k)] = {{"points", s.points},         {"hit", s.hit},
                                {"waived", s.waived},         {"percent", s.percent()},
                                {"min", r.thresholds.min[i]}, {"below", r.below[i]}};
  }
  j["uncovered"] = nlohmann::ordered_json::array();
  for (const Point* p : r.uncovered)
    j["uncovered"].push_back(
        {{"kind", kind_name(p->kind)}, {"name", p->name()}, {"file", p->file}, {"line", p->line}});
  j["waived"] = nlohmann::ordered_json::array();
  for (const auto& [p, w] : r.waived)
    j["waived"].push_back({{"kind", kind_name(p->kind)},
                           {"name", p->name()},
                           {"reason", w.reason},
                           {"waiver", w.point}});
  j["stale"] = nlohmann::ordered_json::array();
  for (const Waiver& w : r.stale)
    j["stale"].push_back({{"point", w.point}, {"reason", w.reason}, {"source", w.source}});
  return j.dump(2) + "\n";
}

std::string to_html(const Report& r) {
  std::ostringstream o;
  o << "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>moesim RTL coverage</title>\n"
       "<style>body{font-family:sans-serif;margin:2em}table{border-collapse:collapse}"
       "td,th{border:1px solid #999;padding:2px 8px;text-align:right}td.l{text-align:left}"
       ".bad{background:#fdd}.ok{background:#dfd}code{font-size:90%}</style></head><body>\n";
  o << "<h1>moesim RTL coverage: " << (r.pass() ? "PASS" : "FAIL") << "</h1>\n<p>" << r.files
    << " coverage file(s) merged.</p>\n";
  o << "<table><tr><th>kind</th><th>points</th><th>hit</th><th>waived</th><th>percent</th>"
       "<th>minimum</th></tr>\n";
  for (Kind k : kKinds) {
    const size_t i = static_cast<size_t>(k);
    const KindSummary& s = r.kinds[i];
    o << "<tr class=\"" << (r.below[i] ? "bad" : "ok") << "\"><td class=\"l\">" << kind_name(k)
      << "</td><td>" << s.points << "</td><td>" << s.hit << "</td><td>" << s.waived << "</td><td>"
      << pct(s.percent()) << " %</td><td>" << pct(r.thresholds.min[i]) << " %</td></tr>\n";
  }
  o << "</table>\n";
  if (!r.stale.empty()) {
    o << "<h2>Stale waivers</h2>\n<ul>\n";
    for (const Waiver& w : r.stale)
      o << "<li><code>" << html_escape(w.point) << "</code> (" << html_escape(w.source)
        << "): matches no uncovered point</li>\n";
    o << "</ul>\n";
  }
  for (Kind k : kKinds) {
    std::ostringstream items;
    size_t n = 0;
    for (const Point* p : r.uncovered)
      if (p->kind == k) {
        items << "<li><code>" << html_escape(p->name()) << "</code></li>\n";
        ++n;
      }
    if (n == 0) continue;
    o << "<h2>Uncovered " << kind_name(k) << " points (" << n << ")</h2>\n<ul>\n"
      << items.str() << "</ul>\n";
  }
  if (!r.waived.empty()) {
    o << "<h2>Waived (" << r.waived.size() << ")</h2>\n<table>\n";
    for (const auto& [p, w] : r.waived)
      o << "<tr><td class=\"l\"><code>" << html_escape(p->name()) << "</code></td><td class=\"l\">"
        << html_escape(w.reason) << "</td></tr>\n";
    o << "</table>\n";
  }
  o << "</body></html>\n";
  return o.str();
}

}  // namespace moesim::coverage
