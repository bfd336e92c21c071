// Output-path checks shared by the moesim subcommands (internal to the moesim executable).
#pragma once

#include <filesystem>
#include <string>

#include "moesim/sim/presets.hpp"

namespace moesim::cli {

/// Refuses, before any simulation, an output path that is a directory or lies in a directory
/// that does not exist: throws sim::UsageError "FLAG PATH: ...". An empty path is no output.
inline void check_output_path(const std::string& flag, const std::string& path) {
  if (path.empty()) return;
  const std::filesystem::path p(path);
  if (std::filesystem::is_directory(p))
    throw sim::UsageError(flag + " " + path + ": is a directory");
  const std::filesystem::path dir = p.has_parent_path() ? p.parent_path() : ".";
  if (!std::filesystem::is_directory(dir))
    throw sim::UsageError(flag + " " + path + ": directory " + dir.string() + " does not exist");
}

}  // namespace moesim::cli
