// Reading a JSON input file (config.json, route traces) with the refusals every JSON input of
// moesim shares.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

namespace moesim::workload {

/// Parses the JSON file `path`. Every refusal is a UsageError starting with `who` (the flag and
/// path, or the path alone): a directory or a device (which might never end), a file that cannot
/// be read, a key given twice in one object (nlohmann would keep the last silently; the message
/// names the key and the line of its second appearance), and text that is not JSON.
nlohmann::json read_json_file(const std::string& path, const std::string& who);

}  // namespace moesim::workload
