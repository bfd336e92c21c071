// Reading input files: see input_file.hpp.
#include "moesim/isa/input_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "moesim/isa/usage_error.hpp"

namespace moesim::isa {

namespace {

std::string reason(int err) { return std::string(" (") + std::strerror(err) + ")"; }

std::string too_large(const std::string& path, uint64_t size, uint64_t max_bytes) {
  return path + ": " + std::to_string(size) + " bytes, more than the limit of " +
         std::to_string(max_bytes) + " bytes for this input";
}

/// An open descriptor of a regular file of at most `max_bytes` (checked with fstat on the
/// descriptor itself, so what is checked is what is read); closed by the destructor.
class InputFd {
 public:
  InputFd(const std::string& path, uint64_t max_bytes) : path_(path) {
    // O_NONBLOCK: opening a FIFO with no writer returns at once instead of waiting for one.
    fd_ = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
    if (fd_ < 0) {
      const int err = errno;
      if (err == ENOENT || err == ENOTDIR) throw UsageError(path + ": no such file");
      throw UsageError(path + ": cannot open" + reason(err));
    }
    struct stat st {};
    if (::fstat(fd_, &st) != 0) {
      const int err = errno;
      ::close(fd_);
      throw UsageError(path + ": cannot open" + reason(err));
    }
    std::string bad;
    if (S_ISDIR(st.st_mode))
      bad = path + ": is a directory";
    else if (!S_ISREG(st.st_mode))
      bad = path +
            ": not a regular file (a device, FIFO or socket may never end or may block; give a "
            "file)";
    else if (static_cast<uint64_t>(st.st_size) > max_bytes)
      bad = too_large(path, static_cast<uint64_t>(st.st_size), max_bytes);
    if (!bad.empty()) {
      ::close(fd_);
      throw UsageError(bad);
    }
    size_ = static_cast<uint64_t>(st.st_size);
  }
  ~InputFd() { ::close(fd_); }
  InputFd(const InputFd&) = delete;
  InputFd& operator=(const InputFd&) = delete;
  int fd() const { return fd_; }
  uint64_t size() const { return size_; }

 private:
  std::string path_;
  int fd_ = -1;
  uint64_t size_ = 0;
};

}  // namespace

uint64_t check_input_file(const std::string& path, uint64_t max_bytes) {
  return InputFd(path, max_bytes).size();
}

namespace {

template <class Buffer>
Buffer read_all(const std::string& path, uint64_t max_bytes) {
  const InputFd in(path, max_bytes);
  Buffer out;
  out.reserve(static_cast<size_t>(in.size()));
  char buf[1 << 16];
  for (;;) {
    const ssize_t n = ::read(in.fd(), buf, sizeof buf);
    if (n < 0) {
      if (errno == EINTR) continue;
      throw UsageError(path + ": read error" + reason(errno));
    }
    if (n == 0) break;
    if (out.size() + static_cast<uint64_t>(n) > max_bytes)
      throw UsageError(too_large(path, out.size() + static_cast<uint64_t>(n), max_bytes));
    out.insert(out.end(), buf, buf + n);
  }
  return out;
}

}  // namespace

std::string read_input_file(const std::string& path, uint64_t max_bytes) {
  return read_all<std::string>(path, max_bytes);
}

std::vector<uint8_t> read_input_bytes(const std::string& path, uint64_t max_bytes) {
  return read_all<std::vector<uint8_t>>(path, max_bytes);
}

}  // namespace moesim::isa
