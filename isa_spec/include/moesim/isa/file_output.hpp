// Writing an output file in one piece: every moesim output goes through write_file, so a file
// that cannot be opened, or a write that fails (a full disk, /dev/full), is an error, never a
// silently short file. A regular file is written under a temporary name beside it and renamed
// over its name when complete: a failed write leaves the old file (or none).
#pragma once

#include <filesystem>
#include <string_view>

namespace moesim::isa {

/// Writes `bytes` to `path` (created or replaced; a device or FIFO written in place) and closes
/// it. Throws std::runtime_error "PATH: cannot open for writing (REASON)", "PATH: write failed
/// (REASON)" or "PATH: cannot write (REASON)" (the rename).
void write_file(const std::filesystem::path& path, std::string_view bytes);

}  // namespace moesim::isa
