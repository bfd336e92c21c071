// Text for HTML pages (the co-simulation report, the coverage report): one escape for both.
#pragma once

#include <string>
#include <string_view>

namespace moesim::isa {

/// `text` with &, <, >, " and ' replaced by character references.
inline std::string html_escape(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&#39;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

}  // namespace moesim::isa
