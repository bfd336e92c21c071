// Stage maps (stage_map.hpp, docs/images.md).
#include "moesim/isa/stage_map.hpp"

#include <algorithm>
#include <cctype>

#include "moesim/isa/usage_error.hpp"
#include "moesim/isa/yaml_reader.hpp"

namespace moesim::isa {

namespace {

std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

class MapReader {
 public:
  MapReader(const Spec& spec, const std::string& path) : spec_(spec), path_(path) {}

  [[noreturn]] void fail(const YAML::Node& at, const std::string& key,
                         const std::string& msg) const {
    std::string where = path_;
    if (at.IsDefined() && at.Mark().line >= 0) where += ":" + std::to_string(at.Mark().line + 1);
    throw UsageError(where + ": " + key + ": " + msg);
  }

  uint8_t stage(const YAML::Node& n, const std::string& key) const {
    if (!n.IsScalar()) fail(n, key, "expected a stage name");
    const StageSpec* st = spec_.stage(n.Scalar());
    if (!st) fail(n, key, "unknown stage '" + n.Scalar() + "' (not in stages.yaml)");
    if (st->name == "other") fail(n, key, "'other' is the stage no rule sets");
    return st->code;
  }

  std::vector<std::string> strings(const YAML::Node& n, const std::string& key) const {
    if (!n.IsSequence() || n.size() == 0) fail(n, key, "expected a list of strings");
    std::vector<std::string> out;
    for (size_t i = 0; i < n.size(); ++i) {
      const std::string k = key + "[" + std::to_string(i) + "]";
      if (!n[i].IsScalar() || n[i].Scalar().empty()) fail(n[i], k, "expected a non-empty string");
      out.push_back(lower(n[i].Scalar()));
    }
    return out;
  }

  StageMap read() const {
    const YAML::Node root = load_yaml_file(path_);
    if (!root.IsMap()) fail(root, "<top>", "expected a map with `rules:`");
    for (const auto& kv : root)
      if (kv.first.Scalar() != "rules") fail(kv.first, kv.first.Scalar(), "unknown key");
    const YAML::Node rules = root["rules"];
    if (!rules || !rules.IsSequence() || rules.size() == 0)
      fail(rules ? rules : root, "rules", "expected a non-empty list of rules");
    StageMap m;
    m.source = path_;
    for (size_t i = 0; i < rules.size(); ++i) {
      const YAML::Node r = rules[i];
      const std::string key = "rules[" + std::to_string(i) + "]";
      if (!r.IsMap()) fail(r, key, "expected a map");
      for (const auto& kv : r) {
        const std::string k = kv.first.Scalar();
        if (k != "stage" && k != "any" && k != "all" && k != "none" && k != "after")
          fail(kv.first, key + "." + k, "unknown key (stage, any, all, none, after)");
      }
      if (!r["stage"]) fail(r, key, "missing 'stage'");
      if (!r["any"] && !r["all"]) fail(r, key, "give 'any' or 'all' (the substrings it matches)");
      StageRule rule;
      rule.stage = stage(r["stage"], key + ".stage");
      if (r["any"]) rule.any = strings(r["any"], key + ".any");
      if (r["all"]) rule.all = strings(r["all"], key + ".all");
      if (r["none"]) rule.none = strings(r["none"], key + ".none");
      if (r["after"]) {
        rule.has_after = true;
        rule.after = stage(r["after"], key + ".after");
      }
      m.rules.push_back(std::move(rule));
    }
    return m;
  }

 private:
  const Spec& spec_;
  const std::string& path_;
};

}  // namespace

uint8_t StageMap::classify(std::string_view comment, uint8_t current) const {
  const std::string text = lower(comment);
  auto holds = [&](const std::string& s) { return text.find(s) != std::string::npos; };
  for (const StageRule& r : rules) {
    if (r.has_after && r.after != current) continue;
    if (!r.any.empty() && std::none_of(r.any.begin(), r.any.end(), holds)) continue;
    if (!std::all_of(r.all.begin(), r.all.end(), holds)) continue;
    if (std::any_of(r.none.begin(), r.none.end(), holds)) continue;
    return r.stage;
  }
  return current;
}

StageMap read_stage_map(const Spec& spec, const std::string& path) {
  return MapReader(spec, path).read();
}

}  // namespace moesim::isa
