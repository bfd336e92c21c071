// Checks shared by the moesim subcommands before any simulation (internal to the moesim
// executable): output paths, and the machine preset of an RTL run.
#pragma once

#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <string>
#include <string_view>

#include "moesim/cosim/engines.hpp"
#include "moesim/isa/engine.hpp"
#include "moesim/isa/spec.hpp"
#include "moesim/workload/presets.hpp"

namespace moesim::cli {

/// `text` with every control byte (and DEL) written as \xNN, so an error message that quotes a
/// user's input stays one visible line on the terminal; `keep_newlines` keeps line breaks (a
/// message that carries a child's log).
inline std::string printable(std::string_view text, bool keep_newlines = false) {
  std::string out;
  out.reserve(text.size());
  for (const char ch : text) {
    const auto c = static_cast<unsigned char>(ch);
    if ((c >= 0x20 && c != 0x7f) || (keep_newlines && c == '\n')) {
      out += ch;
    } else {
      char buf[5];
      std::snprintf(buf, sizeof buf, "\\x%02X", c);
      out += buf;
    }
  }
  return out;
}

/// "1 window", "3 windows": `n` and the noun in the number it needs (`many` defaults to one + "s").
inline std::string count_of(uint64_t n, std::string_view one, std::string_view many = {}) {
  if (n == 1) return "1 " + std::string(one);
  return std::to_string(n) + " " + (many.empty() ? std::string(one) + "s" : std::string(many));
}

/// Refuses, before any simulation, an output path that is a directory or lies in a directory
/// that does not exist: throws UsageError "FLAG PATH: ...". An empty path is no output.
inline void check_output_path(const std::string& flag, const std::string& path) {
  if (path.empty()) return;
  const std::filesystem::path p(path);
  if (std::filesystem::is_directory(p)) throw UsageError(flag + " " + path + ": is a directory");
  const std::filesystem::path dir = p.has_parent_path() ? p.parent_path() : ".";
  if (!std::filesystem::is_directory(dir))
    throw UsageError(flag + " " + path + ": directory " + dir.string() + " does not exist");
}

/// The machine preset named by --machine; throws UsageError "unknown --machine 'M'" naming
/// machine.yaml's presets.
inline const isa::MachinePreset& machine_preset(const isa::Spec& spec, const std::string& machine) {
  const auto it = spec.presets().find(machine);
  if (it != spec.presets().end()) return it->second;
  std::string known;
  for (const auto& [name, p] : spec.presets()) known += (known.empty() ? "" : ", ") + name;
  throw UsageError("unknown --machine '" + machine + "' (machine.yaml presets: " + known + ")");
}

/// The presets a Verilated model was built for, as the -DMOESIM_RTL_PRESETS list "a;b;c".
inline std::string rtl_built_list() {
  std::string built;
  for (const std::string& p : cosim::rtl_built_presets()) built += (built.empty() ? "" : ";") + p;
  return built;
}

/// True when a Verilated model of this build runs machine preset `machine`: one built for it, or
/// for a preset that differs only in run-time parameters (machine.yaml `runtime`).
inline bool rtl_built_for(const isa::Spec& spec, const std::string& machine) {
  for (const std::string& p : cosim::rtl_runnable_presets(spec))
    if (p == machine) return true;
  return false;
}

/// Refuses an RTL run on a machine preset no Verilated model runs: throws
/// UsageError "--machine M: ..." naming the built presets.
inline void check_rtl_preset(const isa::Spec& spec, const std::string& machine) {
  if (rtl_built_for(spec, machine)) return;
  throw UsageError("--machine " + machine + ": no RTL model was built for this preset (built: " +
                   rtl_built_list() + "; configure with -DMOESIM_RTL_PRESETS=\"" +
                   rtl_built_list() + ";" + machine + "\")");
}

}  // namespace moesim::cli
