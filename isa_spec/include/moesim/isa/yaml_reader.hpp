// Reading a user's YAML file with the house error style: every error is a UsageError
// "FILE:LINE:COL: message" naming the key (moesim exits 2 with it). Used by the campaign spec
// (campaign/src/spec.cpp) and the deployments file (workload/src/deployment.cpp).
#pragma once

#include <yaml-cpp/yaml.h>

#include <cstdint>
#include <filesystem>
#include <string>
#include <utility>

#include "moesim/isa/usage_error.hpp"

namespace moesim::isa {

class YamlReader {
 public:
  explicit YamlReader(std::string file) : file_(std::move(file)) {}

  const std::string& file() const { return file_; }

  /// Parses the file; a YAML syntax error is FILE:LINE:COL, a missing file names `what`.
  YAML::Node load(const std::string& what) const {
    if (!std::filesystem::is_regular_file(file_))
      throw UsageError(file_ + ": cannot read the " + what);
    try {
      return YAML::LoadFile(file_);
    } catch (const YAML::ParserException& e) {
      fail(e.mark, e.msg);
    } catch (const YAML::Exception& e) {
      throw UsageError(file_ + ": " + e.what());
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
