// JSON input files: see json_file.hpp.
#include "moesim/workload/json_file.hpp"

#include <algorithm>
#include <iterator>
#include <unordered_set>
#include <vector>

#include "moesim/isa/input_file.hpp"
#include "moesim/isa/usage_error.hpp"

namespace moesim::workload {

namespace {

using Json = nlohmann::json;

/// A character iterator over the text that records the furthest position the parser has read,
/// so that a SAX event can be given its line (the lexer reads a key up to its closing quote and
/// then calls key()).
struct Cursor {
  using iterator_category = std::forward_iterator_tag;
  using value_type = char;
  using difference_type = std::ptrdiff_t;
  using pointer = const char*;
  using reference = const char&;
  const char* p = nullptr;
  const char** read_to = nullptr;
  reference operator*() const { return *p; }
  Cursor& operator++() {
    *read_to = ++p;
    return *this;
  }
  Cursor operator++(int) {
    Cursor c = *this;
    ++*this;
    return c;
  }
  bool operator==(const Cursor& o) const { return p == o.p; }
  bool operator!=(const Cursor& o) const { return p != o.p; }
};

/// Objects and arrays nested deeper than this are refused while parsing: nlohmann's dump() and
/// comparisons recurse once per level, and an error message that prints a value nested 100,000
/// levels deep overflows the stack. No file moesim reads nests more than a few levels.
constexpr size_t kMaxJsonDepth = 256;

/// The SAX handler: nlohmann's DOM builder, plus one key set per open object, so that a key
/// written twice in one object is refused as it is read (linear in the text; nlohmann's callback
/// parser, used before, scanned the parent array at every object end: quadratic in the tokens of
/// a route trace), and a depth count that refuses nesting past kMaxJsonDepth.
class NoDuplicateKeys {
 public:
  NoDuplicateKeys(Json& result, const std::string& who, const std::string& text,
                  const char* const& read_to)
      : dom_(result, true), who_(who), text_(text), read_to_(read_to) {}

  bool null() { return dom_.null(); }
  bool boolean(bool v) { return dom_.boolean(v); }
  bool number_integer(Json::number_integer_t v) { return dom_.number_integer(v); }
  bool number_unsigned(Json::number_unsigned_t v) { return dom_.number_unsigned(v); }
  bool number_float(Json::number_float_t v, const Json::string_t& s) {
    return dom_.number_float(v, s);
  }
  bool string(Json::string_t& v) { return dom_.string(v); }
  bool binary(Json::binary_t& v) { return dom_.binary(v); }
  bool start_object(std::size_t n) {
    enter();
    keys_.emplace_back();
    return dom_.start_object(n);
  }
  bool key(Json::string_t& k) {
    if (!keys_.back().insert(k).second)
      throw UsageError(who_ + ":" + std::to_string(line()) + ": key '" + k +
                       "' appears twice in one object");
    return dom_.key(k);
  }
  bool end_object() {
    keys_.pop_back();
    --depth_;
    return dom_.end_object();
  }
  bool start_array(std::size_t n) {
    enter();
    return dom_.start_array(n);
  }
  bool end_array() {
    --depth_;
    return dom_.end_array();
  }
  template <class Exception>
  bool parse_error(std::size_t pos, const std::string& token, const Exception& e) {
    return dom_.parse_error(pos, token, e);
  }

 private:
  /// The line of the text the parser has read up to.
  long line() const {
    const auto at = static_cast<long>(read_to_ - text_.data());
    return 1 + std::count(text_.begin(), text_.begin() + at, '\n');
  }
  void enter() {
    if (++depth_ > kMaxJsonDepth)
      throw UsageError(who_ + ":" + std::to_string(line()) + ": objects and arrays nested deeper " +
                       "than " + std::to_string(kMaxJsonDepth) + " levels");
  }
  size_t depth_ = 0;
  nlohmann::detail::json_sax_dom_parser<Json> dom_;
  std::vector<std::unordered_set<std::string>> keys_;
  const std::string& who_;
  const std::string& text_;
  const char* const& read_to_;
};

}  // namespace

nlohmann::json read_json_file(const std::string& path, const std::string& who, uint64_t max_bytes) {
  std::string text;
  try {  // a regular file of at most max_bytes (a device might never end)
    text = isa::read_input_file(path, max_bytes);
  } catch (const UsageError& e) {
    std::string m = e.what();
    if (m.rfind(path + ": ", 0) == 0) m = m.substr(path.size() + 2);
    throw UsageError(who + ": " + m);
  }
  return parse_json_text(text, who);
}

nlohmann::json parse_json_text(const std::string& text, const std::string& who) {
  // nlohmann's lexer ends the input at a NUL byte, so text after one would go unread; JSON has
  // no raw NUL (inside a string it is written \u0000).
  if (const auto nul = text.find('\0'); nul != std::string::npos)
    throw UsageError(who + ": not valid JSON: a NUL byte at offset " + std::to_string(nul));
  const char* read_to = text.data();
  const Cursor first{text.data(), &read_to}, last{text.data() + text.size(), &read_to};
  Json j;
  NoDuplicateKeys sax(j, who, text, read_to);
  try {
    Json::sax_parse(first, last, &sax);
  } catch (const nlohmann::json::exception& e) {  // syntax, or a number beyond double (1e999)
    throw UsageError(who + ": not valid JSON: " + e.what());
  }
  return j;
}

}  // namespace moesim::workload
