// A scratch directory per fuzzing process for harnesses whose code under test reads files
// (removed at normal exit; libFuzzer's crash exit leaves it for inspection).
#pragma once

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

namespace moesim::fuzz {

inline const std::filesystem::path& scratch_dir(const char* harness) {
  static const std::filesystem::path dir = [harness] {
    std::filesystem::path d =
        std::filesystem::temp_directory_path() /
        ("moesim_fuzz_" + std::string(harness) + "_" + std::to_string(static_cast<long>(getpid())));
    std::filesystem::remove_all(d);
    std::filesystem::create_directories(d);
    return d;
  }();
  static const bool cleanup = [] {
    std::atexit([] {
      std::error_code ec;
      std::filesystem::remove_all(dir, ec);
    });
    return true;
  }();
  (void)cleanup;
  return dir;
}

inline void write_bytes(const std::filesystem::path& p, const uint8_t* data, size_t size) {
  std::ofstream f(p, std::ios::binary | std::ios::trunc);
  f.write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
}

}  // namespace moesim::fuzz
