// Reading a JSON input file (config.json, route traces) with the refusals every JSON input of
// moesim shares.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>

#include "moesim/isa/input_file.hpp"

namespace moesim::workload {

/// Parses the JSON file `path` in one linear pass. Every refusal is a UsageError starting with
/// `who` (the flag and path, or the path alone): anything but a regular file (a device or a FIFO
/// might never end), a file over `max_bytes`, a file that cannot be read, a key given twice in
/// one object (nlohmann would keep the last silently; the message names the key and the line of
/// its second appearance), and text that is not JSON.
nlohmann::json read_json_file(const std::string& path, const std::string& who,
                              uint64_t max_bytes = isa::kMaxJsonInputBytes);

/// The parse of read_json_file on text already in memory (a safetensors header): the same
/// refusals of a key given twice and of text that is not JSON, each starting with `who`.
nlohmann::json parse_json_text(const std::string& text, const std::string& who);

}  // namespace moesim::workload
