#include "moesim/isa/file_output.hpp"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <stdexcept>
#include <string>

namespace moesim::isa {

void write_file(const std::filesystem::path& path, std::string_view bytes) {
  const auto reason = [] { return std::string(" (") + std::strerror(errno) + ")"; };
  errno = 0;
  std::ofstream f(path, std::ios::binary | std::ios::trunc);
  if (!f) throw std::runtime_error(path.string() + ": cannot open for writing" + reason());
  f.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  f.close();  // the buffered bytes reach the file here: a full device fails now, not before
  if (!f) throw std::runtime_error(path.string() + ": write failed" + reason());
}

}  // namespace moesim::isa
