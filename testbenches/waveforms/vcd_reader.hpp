// A strict VCD reader for the tests (IEEE 1364-2005 §18 plus the `string` variable extension):
// the header must declare a timescale and balanced scopes and end with $enddefinitions; every
// hierarchical name is declared once (an optional `[msb:lsb]` range must match the width);
// times must strictly increase; every value change must name a declared identifier with a value
// of the declared kind and width: `s<text>` for string variables (width 0, as fst2vcd writes,
// or 1), binary digits or x/z for wires, at most one value per variable and timestamp.
// Throws std::runtime_error "line N: ..." on the first violation.
#pragma once

#include <cstdint>
#include <istream>
#include <map>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace moesim::test {

struct VcdVar {
  std::string type;  // wire, reg, string, real, ...
  unsigned width = 0;
  std::string path;  // scope.scope.name
};

struct VcdData {
  std::string timescale;
  std::map<std::string, VcdVar> vars;  // by identifier code
  std::map<std::string, std::vector<std::pair<uint64_t, std::string>>> changes;  // id -> (t, v)
  uint64_t last_time = 0;
  size_t timestamps = 0;

  /// Identifier of the variable with hierarchical name `path`; throws if absent.
  std::string id_of(const std::string& path) const {
    for (const auto& [id, v] : vars)
      if (v.path == path) return id;
    throw std::runtime_error("no VCD variable " + path);
  }
  /// Every (time, value) change of `path`, in time order; throws if `path` is absent.
  const std::vector<std::pair<uint64_t, std::string>>& history(const std::string& path) const {
    static const std::vector<std::pair<uint64_t, std::string>> none;
    auto it = changes.find(id_of(path));
    return it == changes.end() ? none : it->second;
  }
  /// The value of `path` at time `t` (the last change at or before t); "" before the first.
  std::string value_at(const std::string& path, uint64_t t) const {
    std::string v;
    for (const auto& [time, value] : history(path)) {
      if (time > t) break;
      v = value;
    }
    return v;
  }
};

inline VcdData read_vcd_strict(std::istream& in) {
  VcdData d;
  std::vector<std::string> scopes;
  size_t line_no = 0;
  std::string line;
  auto fail = [&](const std::string& msg) -> void {
    throw std::runtime_error("line " + std::to_string(line_no) + ": " + msg);
  };

  // ---- header: tokens up to $enddefinitions $end.
  std::vector<std::string> toks;
  bool defs_done = false;
  while (!defs_done && std::getline(in, line)) {
    ++line_no;
    std::istringstream ls(line);
    std::string t;
    while (ls >> t) toks.push_back(t);
    // Process complete $... $end groups.
    size_t i = 0;
    while (i < toks.size()) {
      size_t end = i;
      while (end < toks.size() && toks[end] != "$end") ++end;
      if (end == toks.size()) break;  // incomplete, read more lines
      if (end == i) fail("$end without a keyword");
      const std::string& kw = toks[i];
      std::vector<std::string> args(toks.begin() + static_cast<std::ptrdiff_t>(i) + 1,
                                    toks.begin() + static_cast<std::ptrdiff_t>(end));
      if (kw == "$date" || kw == "$version" || kw == "$comment") {
        // free text
      } else if (kw == "$timescale") {
        if (args.empty()) fail("empty $timescale");
        for (const auto& a : args) d.timescale += a;
      } else if (kw == "$scope") {
        if (args.size() != 2) fail("$scope needs a type and a name");
        scopes.push_back(args[1]);
      } else if (kw == "$upscope") {
        if (!args.empty() || scopes.empty()) fail("unbalanced $upscope");
        scopes.pop_back();
      } else if (kw == "$var") {
        if (args.size() < 3) fail("$var needs type, width, id, reference");
        VcdVar v;
        v.type = args[0];
        try {
          v.width = static_cast<unsigned>(std::stoul(args[1]));
        } catch (const std::exception&) {
          fail("bad $var width '" + args[1] + "'");
        }
        if (v.width == 0 && v.type != "string") fail("$var width 0");
        if (v.type == "string" && v.width > 1) fail("string $var of width " + args[1]);
        const std::string& id = args[2];
        if (args.size() < 4) fail("$var without a reference name");
        if (args.size() > 5) fail("junk in $var");
        if (args.size() == 5 && args[4] != "[" + std::to_string(v.width - 1) + ":0]" &&
            !(v.width == 1 && args[4] == "[0]"))
          fail("$var range " + args[4] + " does not match width " + args[1]);
        for (const auto& s : scopes) v.path += s + ".";
        v.path += args[3];
        if (d.vars.count(id)) fail("identifier '" + id + "' declared twice");
        for (const auto& [other_id, other] : d.vars)
          if (other.path == v.path) fail("variable " + v.path + " declared twice");
        d.vars[id] = v;
      } else if (kw == "$enddefinitions") {
        if (!args.empty()) fail("junk in $enddefinitions");
        defs_done = true;
      } else {
        fail("unknown header keyword '" + kw + "'");
      }
      i = end + 1;
      if (defs_done && i != toks.size()) fail("text after $enddefinitions $end");
    }
    toks.erase(toks.begin(), toks.begin() + static_cast<std::ptrdiff_t>(std::min(i, toks.size())));
  }
  if (!defs_done) fail("no $enddefinitions");
  if (d.timescale.empty()) fail("no $timescale");
  if (!scopes.empty()) fail("unclosed $scope");
  if (d.vars.empty()) fail("no variables");

  // ---- value changes.
  bool have_time = false;
  bool in_dump = false;
  auto change = [&](const std::string& id, const std::string& value, char kind) {
    auto it = d.vars.find(id);
    if (it == d.vars.end()) fail("value change for undeclared identifier '" + id + "'");
    if (!have_time) fail("value change before the first timestamp");
    const VcdVar& v = it->second;
    if (kind == 's' && v.type != "string") fail("string value for non-string '" + v.path + "'");
    if (kind != 's' && v.type == "string") fail("non-string value for string '" + v.path + "'");
    if (kind == 'b' && value.size() > v.width) fail("value wider than " + v.path);
    if (kind == '1' && v.width != 1) fail("scalar value for vector " + v.path);
    auto& history = d.changes[id];
    if (!history.empty() && history.back().first == d.last_time)
      fail("two values for " + v.path + " at time " + std::to_string(d.last_time));
    history.push_back({d.last_time, value});
  };
  while (std::getline(in, line)) {
    ++line_no;
    std::istringstream ls(line);
    std::string t;
    while (ls >> t) {
      if (t[0] == '#') {
        uint64_t time = 0;
        try {
          size_t used = 0;
          time = std::stoull(t.substr(1), &used);
          if (used + 1 != t.size()) throw std::invalid_argument(t);
        } catch (const std::exception&) {
          fail("bad timestamp '" + t + "'");
        }
        if (have_time && time <= d.last_time)
          fail("time " + std::to_string(time) + " not after " + std::to_string(d.last_time));
        d.last_time = time;
        have_time = true;
        ++d.timestamps;
      } else if (t == "$dumpvars" || t == "$dumpall" || t == "$dumpon" || t == "$dumpoff") {
        if (in_dump) fail("nested " + t);
        in_dump = true;
      } else if (t == "$end") {
        if (!in_dump) fail("stray $end");
        in_dump = false;
      } else if (t[0] == 'b' || t[0] == 'B' || t[0] == 'r' || t[0] == 'R' || t[0] == 's' ||
                 t[0] == 'S') {
        std::string id;
        if (!(ls >> id)) fail("vector value without identifier");
        const char kind = static_cast<char>(std::tolower(static_cast<unsigned char>(t[0])));
        const std::string value = t.substr(1);
        if (kind == 'b') {
          if (value.empty() || value.find_first_not_of("01xzXZ") != std::string::npos)
            fail("bad binary value '" + t + "'");
        } else if (kind == 's' && value.empty()) {
          fail("empty string value");
        }
        change(id, value, kind);
      } else if (std::string("01xzXZ").find(t[0]) != std::string::npos) {
        if (t.size() < 2) fail("scalar value without identifier");
        change(t.substr(1), t.substr(0, 1), '1');
      } else {
        fail("unexpected token '" + t + "'");
      }
    }
  }
  if (in_dump) fail("unterminated $dumpvars");
  if (!have_time) fail("no timestamps");
  return d;
}

}  // namespace moesim::test
