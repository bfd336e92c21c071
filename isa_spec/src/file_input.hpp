// Opening input files with errors that name the problem (internal to isa_spec).
#pragma once

#include <fstream>
#include <string>

namespace moesim::isa {

/// Opens `path` for binary reading. Throws std::runtime_error "<path>: no such file",
/// "<path>: is a directory" or "<path>: cannot open" (one line, no position).
std::ifstream open_input_file(const std::string& path);

}  // namespace moesim::isa
