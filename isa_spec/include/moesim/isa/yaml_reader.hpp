// Reading a user's YAML file with the house error style: every error is a UsageError
// "FILE:LINE:COL: message" naming the key (moesim exits 2 with it). Used by the campaign spec
// (sim/campaign/src/spec.cpp) and the deployments file (sim/workload/src/deployment.cpp).
#pragma once

#include <yaml-cpp/yaml.h>

#include <cstdint>
#include <filesystem>
#include <map>
#include <string>
#include <utility>

#include "moesim/isa/usage_error.hpp"

namespace moesim::isa {

class YamlReader {
 public:
  explicit YamlReader(std::string file) : file_(std::move(file)) {}

  const std::string& file() const { return file_; }

  /// Parses the file; a YAML syntax error is FILE:LINE:COL, a missing file names `what`, so does
  /// an empty file (or one of comments only), and a key written twice in one mapping (yaml-cpp
  /// keeps both) is refused at its second place.
  YAML::Node load(const std::string& what) const {
    if (!std::filesystem::is_regular_file(file_))
      throw UsageError(file_ + ": cannot read the " + what);
    YAML::Node root;
    try {
      root = YAML::LoadFile(file_);
    } catch (const YAML::ParserException& e) {
      fail(e.mark, e.msg);
    } catch (const YAML::Exception& e) {
      throw UsageError(file_ + ": " + e.what());
    }
    if (root.IsNull()) throw UsageError(file_ + ":1:1: the " + what + " is empty");
    refuse_duplicate_keys(root);
    return root;
  }

  void refuse_duplicate_keys(const YAML::Node& n) const {
    if (n.IsMap()) {
      std::map<std::string, int> line;  // key -> line of its first place
      for (const auto& kv : n) {
        if (kv.first.IsScalar()) {
          const auto [it, fresh] = line.emplace(kv.first.Scalar(), kv.first.Mark().line + 1);
          if (!fresh)
            fail(kv.first.Mark(), "'" + kv.first.Scalar() + "' written twice (first at line " +
                                      std::to_string(it->second) + ")");
        }
        refuse_duplicate_keys(kv.second);
      }
    } else if (n.IsSequence()) {
      for (const auto& e : n) refuse_duplicate_keys(e);
    }
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
