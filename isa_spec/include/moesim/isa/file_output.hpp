// Writing an output file in one piece: every moesim output goes through write_file, so a file
// that cannot be opened, or a write that fails (a full disk, /dev/full), is an error, never a
// silently short file.
#pragma once

#include <filesystem>
#include <string_view>

namespace moesim::isa {

/// Writes `bytes` to `path` (created or truncated) and closes it. Throws std::runtime_error
/// "PATH: cannot open for writing (REASON)" or "PATH: write failed (REASON)".
void write_file(const std::filesystem::path& path, std::string_view bytes);

}  // namespace moesim::isa
