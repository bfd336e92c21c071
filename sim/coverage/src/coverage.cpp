// Reading, merging and judging RTL coverage files (moesim/coverage/coverage.hpp).
#include "moesim/coverage/coverage.hpp"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <charconv>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

namespace moesim::coverage {
namespace {

constexpr const char* kHeader = "# SystemC::Coverage-3";

/// Verilator's names of generate blocks (g_occ__BRA__2__KET__) as written in the source.
std::string pretty_hier(std::string h) {
  if (h.rfind("TOP.", 0) == 0) h.erase(0, 4);
  for (const auto& [from, to] : {std::pair<std::string, std::string>{"__BRA__", "["},
                                 std::pair<std::string, std::string>{"__KET__", "]"}}) {
    for (size_t p = h.find(from); p != std::string::npos; p = h.find(from, p + to.size()))
      h.replace(p, from.size(), to);
  }
  return h;
}

/// The part of a source path from the rtl_model/ folder on, else its base name: names do not
/// depend on where the tree was built.
std::string short_file(const std::string& f) {
  const size_t p = f.rfind("rtl_model/");
  if (p != std::string::npos) return f.substr(p);
  return std::filesystem::path(f).filename().string();
}

Kind kind_of_page(const std::string& page, const std::string& where) {
  const std::string prefix = page.substr(0, page.find('/'));
  if (prefix == "v_line") return Kind::Line;
  if (prefix == "v_branch") return Kind::Branch;
  if (prefix == "v_toggle") return Kind::Toggle;
  if (prefix == "v_user") return Kind::Cover;
  throw InputError(where + ": unknown coverage kind '" + prefix +
                   "' (known: v_line, v_branch, v_toggle, v_user)");
}

Point parse_key(const std::string& key, const std::string& where) {
  Point p;
  p.key = key;
  std::string page, file, hier;
  bool have_line = false;
  size_t i = 0;
  while (i < key.size()) {
    if (key[i] != '\001')
      throw InputError(where + ": malformed key (a field must start with \\001)");
    const size_t sep = key.find('\002', i + 1);
    if (sep == std::string::npos)
      throw InputError(where + ": malformed key (a field without \\002)");
    const size_t end = std::min(key.find('\001', sep + 1), key.size());
    const std::string k = key.substr(i + 1, sep - i - 1), v = key.substr(sep + 1, end - sep - 1);
    if (k == "page")
      page = v;
    else if (k == "f")
      file = v;
    else if (k == "h")
      hier = v;
    else if (k == "o")
      p.comment = v;
    else if (k == "l") {
      const auto [ptr, ec] = std::from_chars(v.data(), v.data() + v.size(), p.line);
      if (ec != std::errc() || ptr != v.data() + v.size())
        throw InputError(where + ": line number '" + v + "' is not a number");
      have_line = true;
    }
    i = end;
  }
  if (page.empty()) throw InputError(where + ": a point without a page (its kind)");
  if (file.empty() || !have_line) throw InputError(where + ": a point without a file and line");
  p.kind = kind_of_page(page, where);
  p.file = short_file(file);
  p.hier = pretty_hier(hier);
  return p;
}

}  // namespace

const char* kind_name(Kind k) {
  switch (k) {
    case Kind::Line:
      return "line";
    case Kind::Branch:
      return "branch";
    case Kind::Toggle:
      return "toggle";
    case Kind::Cover:
      return "cover";
  }
  return "?";
}

std::string Point::name() const {
  switch (kind) {
    case Kind::Cover:
      return hier;
    case Kind::Toggle:
      return hier + "." + comment;
    default:
      return file + ":" + std::to_string(line) + " " + comment + " @" + hier;
  }
}

void Data::read_text(const std::string& text, const std::string& source) {
  std::istringstream in(text);
  std::string l;
  int n = 0;
  bool header = false;
  while (std::getline(in, l)) {
    ++n;
    const std::string where = source + ":" + std::to_string(n);
    if (!l.empty() && l.back() == '\r') l.pop_back();
    if (!header) {
      if (l != kHeader)
        throw InputError(where + ": not a Verilator coverage file (the first line must be '" +
                         kHeader + "')");
      header = true;
      continue;
    }
    if (l.empty() || l[0] == '#') continue;
    // C '<key>' <count>
    const size_t close = l.rfind('\'');
    if (l.rfind("C '", 0) != 0 || close == std::string::npos || close < 3 || close + 2 > l.size() ||
        l[close + 1] != ' ')
      throw InputError(where + ": expected C '<key>' <count>");
    const std::string key = l.substr(3, close - 3), count = l.substr(close + 2);
    uint64_t c = 0;
    const auto [ptr, ec] = std::from_chars(count.data(), count.data() + count.size(), c);
    if (count.empty() || ec != std::errc() || ptr != count.data() + count.size())
      throw InputError(where + ": count '" + count + "' is not an unsigned number");
    auto it = points_.find(key);
    if (it == points_.end()) it = points_.emplace(key, parse_key(key, where)).first;
    it->second.count += c;
  }
  if (!header) throw InputError(source + ":1: empty file (not a Verilator coverage file)");
  ++files_;
}

void Data::read_file(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  if (!f) throw InputError(path + ": cannot read");
  std::ostringstream s;
  s << f.rdbuf();
  read_text(s.str(), path);
}

size_t Data::read_path(const std::string& path) {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (fs::is_regular_file(path, ec)) {
    read_file(path);
    return 1;
  }
  if (!fs::is_directory(path, ec)) throw InputError(path + ": no such file or folder");
  std::vector<std::string> files;
  for (const auto& e : fs::directory_iterator(path, ec))
    if (e.is_regular_file() && e.path().extension() == ".dat") files.push_back(e.path().string());
  if (ec) throw InputError(path + ": cannot list: " + ec.message());
  if (files.empty()) throw InputError(path + ": holds no .dat coverage file");
  std::sort(files.begin(), files.end());
  for (const std::string& f : files) read_file(f);
  return files.size();
}

std::string Data::to_text() const {
  std::ostringstream o;
  o << kHeader << '\n';
  for (const auto& [key, p] : points_) o << "C '" << key << "' " << p.count << '\n';
  return o.str();
}

bool glob_match(const std::string& pattern, const std::string& name) {
  // Iterative match with backtracking to the last '*'.
  size_t p = 0, n = 0, star = std::string::npos, mark = 0;
  while (n < name.size()) {
    if (p < pattern.size() && pattern[p] == '*') {
      star = p++;
      mark = n;
    } else if (p < pattern.size() && pattern[p] == name[n]) {
      ++p;
      ++n;
    } else if (star != std::string::npos) {
      p = star + 1;
      n = ++mark;
    } else {
      return false;
    }
  }
  while (p < pattern.size() && pattern[p] == '*') ++p;
  return p == pattern.size();
}

std::vector<Waiver> load_waivers(const std::string& path) {
  YAML::Node root;
  try {
    root = YAML::LoadFile(path);
  } catch (const YAML::BadFile&) {
    throw InputError(path + ": cannot read");
  } catch (const YAML::Exception& e) {
    throw InputError(path + ":" + std::to_string(e.mark.line + 1) + ": " + e.msg);
  }
  const auto at = [&](const YAML::Node& n) {
    return path + ":" + std::to_string(n.Mark().line + 1);
  };
  if (root.IsNull()) return {};
  if (!root.IsSequence())
    throw InputError(at(root) + ": expected a list of {point: ..., reason: ...} ([] for none)");
  std::vector<Waiver> out;
  std::set<std::string> seen;
  for (const YAML::Node& e : root) {
    if (!e.IsMap()) throw InputError(at(e) + ": a waiver is a map {point: ..., reason: ...}");
    for (const auto& kv : e) {
      const std::string k = kv.first.as<std::string>();
      if (k != "point" && k != "reason")
        throw InputError(at(kv.first) + ": unknown key '" + k +
                         "' (a waiver has point and reason)");
    }
    for (const char* k : {"point", "reason"})
      if (!e[k] || !e[k].IsScalar() || e[k].as<std::string>().empty())
        throw InputError(at(e) + ": a waiver needs a non-empty '" + k + "'");
    Waiver w{e["point"].as<std::string>(), e["reason"].as<std::string>(), at(e)};
    if (!seen.insert(w.point).second)
      throw InputError(w.source + ": point '" + w.point + "' is waived twice");
    out.push_back(std::move(w));
  }
  return out;
}

double KindSummary::percent() const {
  const size_t counted = points - waived;
  return counted == 0 ? 100.0 : 100.0 * static_cast<double>(hit) / static_cast<double>(counted);
}

bool Report::pass() const {
  return stale.empty() && std::none_of(below.begin(), below.end(), [](bool b) { return b; });
}

Report evaluate(const Data& data, const std::vector<Waiver>& waivers, const Thresholds& t) {
  Report r;
  r.thresholds = t;
  r.files = data.files();
  std::vector<bool> used(waivers.size(), false);
  std::vector<const Point*> points;
  for (const auto& [key, p] : data.points()) points.push_back(&p);
  std::sort(points.begin(), points.end(), [](const Point* a, const Point* b) {
    if (a->kind != b->kind) return a->kind < b->kind;
    if (a->file != b->file) return a->file < b->file;
    if (a->line != b->line) return a->line < b->line;
    return a->name() < b->name();
  });
  for (const Point* p : points) {
    KindSummary& k = r.kinds[static_cast<size_t>(p->kind)];
    ++k.points;
    if (p->count > 0) {
      ++k.hit;
      continue;
    }
    const std::string name = p->name();
    const Waiver* w = nullptr;
    for (size_t i = 0; i < waivers.size() && w == nullptr; ++i)
      if (glob_match(waivers[i].point, name)) {
        w = &waivers[i];
        used[i] = true;
      }
    if (w != nullptr) {
      ++k.waived;
      r.waived.emplace_back(p, *w);
    } else {
      r.uncovered.push_back(p);
    }
  }
  for (size_t i = 0; i < waivers.size(); ++i)
    if (!used[i]) r.stale.push_back(waivers[i]);
  for (Kind k : kKinds) {
    const size_t i = static_cast<size_t>(k);
    r.below[i] = r.kinds[i].percent() + 1e-9 < t.min[i];
  }
  return r;
}

}  // namespace moesim::coverage
