// JSON input files: see json_file.hpp.
#include "moesim/workload/json_file.hpp"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <set>
#include <vector>

#include "moesim/isa/usage_error.hpp"

namespace moesim::workload {

namespace {

/// The 1-based line of the second `"key":` in `text`, 0 when not found.
size_t line_of_second_key(const std::string& text, const std::string& key) {
  const std::string quoted = "\"" + key + "\"";
  size_t seen = 0;
  for (size_t at = text.find(quoted); at != std::string::npos; at = text.find(quoted, at + 1)) {
    size_t after = at + quoted.size();
    while (after < text.size() && std::isspace(static_cast<unsigned char>(text[after]))) ++after;
    if (after < text.size() && text[after] == ':' && ++seen == 2)
      return 1 + static_cast<size_t>(std::count(text.begin(), text.begin() + at, '\n'));
  }
  return 0;
}

}  // namespace

nlohmann::json read_json_file(const std::string& path, const std::string& who) {
  namespace fs = std::filesystem;
  std::error_code ec;
  const auto st = fs::status(path, ec);
  if (fs::is_directory(st)) throw UsageError(who + ": is a directory");
  // A device (/dev/zero, a terminal) may never end: refuse it rather than read forever.
  if (fs::is_character_file(st) || fs::is_block_file(st) || fs::is_socket(st))
    throw UsageError(who + ": is a device, not a file");
  std::ifstream in(path);
  if (!in) throw UsageError(who + ": cannot open");
  std::string text;
  try {  // libstdc++'s filebuf throws on a read error
    text.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  } catch (const std::exception& e) {
    throw UsageError(who + ": read error (" + e.what() + ")");
  }
  if (in.bad()) throw UsageError(who + ": read error");
  std::vector<std::set<std::string>> keys;  // per open object
  const nlohmann::json::parser_callback_t no_duplicates =
      [&](int, nlohmann::json::parse_event_t event, nlohmann::json& parsed) {
        using E = nlohmann::json::parse_event_t;
        if (event == E::object_start) keys.emplace_back();
        if (event == E::object_end) keys.pop_back();
        if (event == E::key && !keys.back().insert(parsed.get<std::string>()).second)
          throw UsageError(who + ":" +
                           std::to_string(line_of_second_key(text, parsed.get<std::string>())) +
                           ": key '" + parsed.get<std::string>() + "' appears twice in one object");
        return true;
      };
  try {
    return nlohmann::json::parse(text, no_duplicates);
  } catch (const nlohmann::json::exception& e) {  // syntax, or a number beyond double (1e999)
    throw UsageError(who + ": not valid JSON: " + e.what());
  }
}

}  // namespace moesim::workload
