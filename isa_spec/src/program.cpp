// Program files: <name>.hex (one 0x%08X word per line) and the <name>.stages side table
// (program.hpp). Stage names come from the built-in spec (stages.yaml).
#include "moesim/isa/program.hpp"

#include <cctype>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <vector>

#include "moesim/isa/file_output.hpp"
#include "moesim/isa/input_file.hpp"
#include "moesim/isa/spec.hpp"

namespace moesim::isa {

std::filesystem::path stages_path(const std::filesystem::path& hex_path) {
  std::filesystem::path p = hex_path;
  return p.replace_extension(".stages");
}

namespace {

std::string trim(const std::string& s) {
  size_t b = 0, e = s.size();
  while (b < e && std::isspace(static_cast<unsigned char>(s[b]))) ++b;
  while (e > b && std::isspace(static_cast<unsigned char>(s[e - 1]))) --e;
  return s.substr(b, e - b);
}

/// Non-negative decimal that fits `max`; throws naming `what`.
int64_t parse_count(const std::string& t, int64_t max, const std::string& what) {
  if (t.empty() || t.size() > 19)
    throw std::invalid_argument(what + " '" + t + "' is not a non-negative decimal number");
  int64_t v = 0;
  for (char c : t) {
    if (!std::isdigit(static_cast<unsigned char>(c)))
      throw std::invalid_argument(what + " '" + t + "' is not a non-negative decimal number");
    if (v > (max - (c - '0')) / 10) throw std::invalid_argument(what + " " + t + " is too large");
    v = v * 10 + (c - '0');
  }
  return v;
}

}  // namespace

std::string format_work_tag(const WorkTag& t) {
  if (t == WorkTag{}) return "-";
  auto num = [](int64_t v) { return v < 0 ? std::string("-") : std::to_string(v); };
  std::string e = t.expert_at >= 0 ? "int[" + std::to_string(t.expert_at) + "]" : num(t.expert);
  return num(t.token) + "," + num(t.slot) + "," + e;
}

WorkTag parse_work_tag(const std::string& text) {
  WorkTag t;
  if (text == "-") return t;
  std::vector<std::string> parts;
  std::string cur;
  for (char c : text) {
    if (c == ',') {
      parts.push_back(cur);
      cur.clear();
    } else {
      cur += c;
    }
  }
  parts.push_back(cur);
  if (parts.size() != 3)
    throw std::invalid_argument("work tag '" + text + "' must be TOKEN,SLOT,EXPERT or -");
  auto field = [](const std::string& p, const std::string& what) -> int32_t {
    return p == "-" ? -1 : static_cast<int32_t>(parse_count(p, INT32_MAX, what));
  };
  t.token = field(parts[0], "token");
  t.slot = field(parts[1], "slot");
  const std::string& e = parts[2];
  if (e.size() > 5 && e.compare(0, 4, "int[") == 0 && e.back() == ']')
    t.expert_at = parse_count(e.substr(4, e.size() - 5), INT64_MAX, "INT SRAM address");
  else
    t.expert = field(e, "expert");
  return t;
}

void write_program(const Program& p, const std::filesystem::path& hex_path) {
  if (p.stages.size() != p.words.size())
    throw std::invalid_argument("write_program: " + std::to_string(p.words.size()) + " words but " +
                                std::to_string(p.stages.size()) + " stages");
  if (!p.work.empty() && p.work.size() != p.words.size())
    throw std::invalid_argument("write_program: " + std::to_string(p.words.size()) + " words but " +
                                std::to_string(p.work.size()) + " work tags");
  const Spec& spec = Spec::builtin();
  std::ostringstream hex, stages;
  for (size_t i = 0; i < p.words.size(); ++i) {
    char buf[16];
    std::snprintf(buf, sizeof buf, "0x%08X\n", p.words[i]);
    hex << buf;
    const StageSpec* st = spec.stage_by_code(p.stages[i]);
    if (!st)
      throw std::invalid_argument("write_program: pc " + std::to_string(i) + ": stage code " +
                                  std::to_string(p.stages[i]) + " is not in stages.yaml");
    stages << st->name;
    if (!p.work.empty() && !(p.work[i] == WorkTag{}))
      stages << " @pair=" << format_work_tag(p.work[i]);
    stages << '\n';
  }
  write_file(hex_path, hex.str());
  write_file(stages_path(hex_path), stages.str());
}

Program read_program(const std::filesystem::path& hex_path) {
  std::istringstream f(read_input_file(hex_path.string(), kMaxTextInputBytes));
  Program p;
  p.source = hex_path.string();
  std::string line;
  uint32_t lineno = 0;
  while (std::getline(f, line)) {
    ++lineno;
    std::string t = trim(line);
    if (t.empty()) continue;
    size_t start = (t.size() > 2 && t[0] == '0' && (t[1] == 'x' || t[1] == 'X')) ? 2 : 0;
    bool ok = t.size() > start && t.size() - start <= 8;
    for (size_t i = start; i < t.size() && ok; ++i)
      ok = std::isxdigit(static_cast<unsigned char>(t[i])) != 0;
    if (!ok)
      throw std::runtime_error(p.source + ":" + std::to_string(lineno) +
                               ": expected one 32-bit hex word, got '" + t + "'");
    p.words.push_back(static_cast<uint32_t>(std::stoul(t.substr(start), nullptr, 16)));
    p.lines.push_back(lineno);
  }
  p.stages.assign(p.words.size(), 0);
  std::filesystem::path sp = stages_path(hex_path);
  if (std::filesystem::exists(sp)) {
    const Spec& spec = Spec::builtin();
    std::istringstream sf(read_input_file(sp.string(), kMaxTextInputBytes));
    size_t n = 0;
    lineno = 0;
    while (std::getline(sf, line)) {
      ++lineno;
      std::string t = trim(line);
      if (t.empty()) continue;
      const std::string where = sp.string() + ":" + std::to_string(lineno);
      WorkTag tag;
      static const std::string kPair = " @pair=";
      if (const size_t at = t.find(kPair); at != std::string::npos) {
        try {
          tag = parse_work_tag(t.substr(at + kPair.size()));
        } catch (const std::invalid_argument& e) {
          throw std::runtime_error(where + ": " + e.what());
        }
        t = trim(t.substr(0, at));
      }
      const StageSpec* st = spec.stage(t);
      if (!st) throw std::runtime_error(where + ": unknown stage '" + t + "'");
      if (n >= p.words.size())
        throw std::runtime_error(sp.string() + ":" + std::to_string(lineno) +
                                 ": more stages than the " + std::to_string(p.words.size()) +
                                 " words of " + p.source);
      if (!(tag == WorkTag{})) {
        p.work.resize(p.words.size());
        p.work[n] = tag;
      }
      p.stages[n++] = st->code;
    }
    if (n != p.words.size())
      throw std::runtime_error(sp.string() + ": " + std::to_string(n) + " stages for " +
                               std::to_string(p.words.size()) + " words of " + p.source);
  }
  return p;
}

}  // namespace moesim::isa
