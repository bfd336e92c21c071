// The first JSON pointer at which two documents differ, for tests that hold one report equal to
// another (a committed snapshot, a single run against its windows).
#pragma once

#include <nlohmann/json.hpp>
#include <string>

namespace moesim::test {

/// "" when `a` and `b` are equal, else the JSON pointer of the first difference, followed by
/// " (type)", " (length)" or " (only in <a_name>)" / " (only in <b_name>)" where that applies.
inline std::string first_difference(const nlohmann::json& a, const nlohmann::json& b,
                                    const std::string& a_name, const std::string& b_name,
                                    const std::string& at = "") {
  if (a.type() != b.type()) return at + " (type)";
  if (a.is_object()) {
    for (const auto& [k, v] : a.items()) {
      if (!b.contains(k)) return at + "/" + k + " (only in " + a_name + ")";
      if (std::string d = first_difference(v, b[k], a_name, b_name, at + "/" + k); !d.empty())
        return d;
    }
    for (const auto& [k, v] : b.items())
      if (!a.contains(k)) return at + "/" + k + " (only in " + b_name + ")";
    return "";
  }
  if (a.is_array()) {
    if (a.size() != b.size()) return at + " (length)";
    for (size_t i = 0; i < a.size(); ++i)
      if (std::string d =
              first_difference(a[i], b[i], a_name, b_name, at + "/" + std::to_string(i));
          !d.empty())
        return d;
    return "";
  }
  return a == b ? "" : at;
}

}  // namespace moesim::test
