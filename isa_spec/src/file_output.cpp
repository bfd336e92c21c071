#include "moesim/isa/file_output.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <stdexcept>
#include <string>

namespace moesim::isa {

namespace {

std::string reason(int err) { return std::string(" (") + std::strerror(err) + ")"; }

/// Writes `bytes` to `target` in place (created or truncated).
void write_in_place(const std::filesystem::path& target, const std::filesystem::path& named,
                    std::string_view bytes) {
  errno = 0;
  std::ofstream f(target, std::ios::binary | std::ios::trunc);
  if (!f) throw std::runtime_error(named.string() + ": cannot open for writing" + reason(errno));
  f.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  f.close();  // the buffered bytes reach the file here: a full device fails now, not before
  if (!f) throw std::runtime_error(named.string() + ": write failed" + reason(errno));
}

}  // namespace

void write_file(const std::filesystem::path& path, std::string_view bytes) {
  namespace fs = std::filesystem;
  // A device or a FIFO (/dev/null, /dev/full) is written in place: it cannot be replaced.
  struct stat st {};
  if (::stat(path.c_str(), &st) == 0 && !S_ISREG(st.st_mode)) {
    write_in_place(path, path, bytes);
    return;
  }
  // A regular file (or a new one) is written beside itself under a temporary name and renamed
  // over the name when complete, so a failed write leaves the old file (or none), never a short
  // one. A symbolic link is written through: the file it names is replaced.
  std::error_code ec;
  fs::path target = fs::is_symlink(fs::symlink_status(path, ec)) ? fs::canonical(path, ec) : path;
  if (ec) target = path;
  const fs::path tmp = target.parent_path() /
                       ("." + target.filename().string() + ".tmp-" + std::to_string(::getpid()));
  try {
    write_in_place(tmp, path, bytes);
  } catch (...) {
    fs::remove(tmp, ec);
    throw;
  }
  if (std::rename(tmp.c_str(), target.c_str()) != 0) {
    const int err = errno;
    fs::remove(tmp, ec);
    throw std::runtime_error(path.string() + ": cannot write" + reason(err));
  }
}

}  // namespace moesim::isa
