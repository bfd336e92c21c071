// Loading a user's YAML file, and reading it with the house error style.
//
// load_yaml_file is the one path every YAML input of moesim takes (isa.yaml, machine.yaml,
// stages.yaml, conformance cases and waivers, images, campaign specs, deployments files, mix
// files): the file is read through read_input_file (a regular file of at most
// kMaxYamlInputBytes), then a first pass over the parser's events, before any node is built or
// walked, counts the nodes a walk of the document visits, an alias (`*name`) counting every node
// of what it names (yaml-cpp shares the anchored node, so a few hundred bytes of nested aliases
// are billions of nodes to any walk), and refuses more than kMaxYamlNodes; on request it also
// refuses a key written twice in one mapping (yaml-cpp keeps both). Every error is a UsageError
// "FILE:LINE:COL: message".
//
// YamlReader: every error a UsageError "FILE:LINE:COL: message" naming the key (moesim exits 2
// with it). Used by the campaign spec (sim/campaign/src/spec.cpp) and the deployments file
// (sim/workload/src/deployment.cpp).
#pragma once

#include <yaml-cpp/yaml.h>

#include <cstdint>
#include <filesystem>
#include <map>
#include <string>
#include <utility>

#include "moesim/isa/usage_error.hpp"

namespace moesim::isa {

/// The most nodes (scalars, sequences, mappings, nulls) a walk of one YAML input may visit,
/// the nodes an alias names counted at every alias.
constexpr uint64_t kMaxYamlNodes = 1000000;

struct YamlLoadOptions {
  /// Refuse a key written twice in one mapping: "FILE:LINE:COL: 'KEY' written twice (first at
  /// line N)", at its second place.
  bool refuse_duplicate_keys = true;
};

/// Parses the first document of the YAML file `path` (see the top of this file). An empty file
/// (or one of comments only) gives a null node.
YAML::Node load_yaml_file(const std::string& path, const YamlLoadOptions& options = {});

/// The same for YAML text already in memory; `name` names it in messages.
YAML::Node load_yaml_text(const std::string& text, const std::string& name,
                          const YamlLoadOptions& options = {});

class YamlReader {
 public:
  explicit YamlReader(std::string file) : file_(std::move(file)) {}

  const std::string& file() const { return file_; }

  /// Parses the file (load_yaml_file: a YAML syntax error, an alias or a key written twice in
  /// one mapping is FILE:LINE:COL); an empty file (or one of comments only) names `what`.
  YAML::Node load(const std::string& what) const {
    const YAML::Node root = load_yaml_file(file_);
    if (root.IsNull()) throw UsageError(file_ + ":1:1: the " + what + " is empty");
    return root;
  }

  [[noreturn]] void fail(const YAML::Mark& m, const std::string& what) const {
    throw UsageError(file_ + ":" + std::to_string(m.line + 1) + ":" + std::to_string(m.column + 1) +
                     ": " + what);
  }
  std::string where(const YAML::Node& n) const {
    return file_ + ":" + std::to_string(n.Mark().line + 1);
  }

  template <class T>
  T scalar(const YAML::Node& n, const std::string& key, const char* kind) const {
    if (!n.IsScalar()) fail(n.Mark(), "'" + key + "': expected " + kind);
    try {
      return n.as<T>();
    } catch (const YAML::Exception&) {
      fail(n.Mark(), "'" + key + "': expected " + kind + ", got '" + n.Scalar() + "'");
    }
  }
  uint64_t count(const YAML::Node& n, const std::string& key, uint64_t min, uint64_t max) const {
    const std::string s = n.IsScalar() ? n.Scalar() : std::string();
    if (!n.IsScalar() || s.empty() || s.find_first_not_of("0123456789") != std::string::npos)
      fail(n.Mark(), "'" + key + "': expected an integer >= " + std::to_string(min) +
                         (n.IsScalar() ? ", got '" + s + "'" : std::string()));
    uint64_t v = 0;
    try {
      v = n.as<uint64_t>();
    } catch (const YAML::Exception&) {
      fail(n.Mark(), "'" + key + "': " + s + " is out of range");
    }
    if (v < min || v > max)
      fail(n.Mark(), "'" + key + "': " + s + " is out of range [" + std::to_string(min) + ", " +
                         std::to_string(max) + "]");
    return v;
  }

 private:
  std::string file_;
};

}  // namespace moesim::isa
