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

/// Length of the well-formed UTF-8 sequence of two to four bytes at text[i] (RFC 3629: no
/// overlong form, no surrogate, nothing past U+10FFFF), 0 when there is none.
inline size_t utf8_sequence(std::string_view text, size_t i) {
  const auto at = [&](size_t k) { return static_cast<unsigned char>(text[i + k]); };
  const unsigned char c = at(0);
  const size_t n = c >= 0xC2 && c <= 0xDF   ? 2
                   : c >= 0xE0 && c <= 0xEF ? 3
                   : c >= 0xF0 && c <= 0xF4 ? 4
                                            : 0;
  if (n == 0 || i + n > text.size()) return 0;
  const unsigned char lo = c == 0xE0 ? 0xA0 : c == 0xF0 ? 0x90 : 0x80;
  const unsigned char hi = c == 0xED ? 0x9F : c == 0xF4 ? 0x8F : 0xBF;
  if (at(1) < lo || at(1) > hi) return 0;
  for (size_t k = 2; k < n; ++k)
    if (at(k) < 0x80 || at(k) > 0xBF) return 0;
  return n;
}

/// The code point of a well-formed sequence of two to four bytes (utf8_sequence).
inline uint32_t utf8_code_point(std::string_view seq) {
  const auto b = [&](size_t k) {
    return static_cast<uint32_t>(static_cast<unsigned char>(seq[k]));
  };
  uint32_t cp = b(0) & (0x7Fu >> seq.size());
  for (size_t k = 1; k < seq.size(); ++k) cp = cp << 6 | (b(k) & 0x3F);
  return cp;
}

/// A code point that moves the cursor or the text's direction rather than showing a character:
/// the C1 controls (U+0080..U+009F, CSI and NEL among them), the line and paragraph separators
/// and the bidirectional embeddings, overrides and isolates.
inline bool invisible_control(uint32_t cp) {
  return (cp >= 0x80 && cp <= 0x9F) || (cp >= 0x2028 && cp <= 0x202E) ||
         (cp >= 0x2066 && cp <= 0x2069);
}

/// `text` with every control byte (and DEL), every byte that is not part of well-formed UTF-8
/// and every byte of an invisible_control code point written as \xNN, so an error message that
/// quotes a user's input stays one visible line of valid UTF-8 on the terminal and in a log;
/// `keep_newlines` keeps line breaks (a message that carries a child's log).
inline std::string printable(std::string_view text, bool keep_newlines = false) {
  std::string out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size();) {
    const auto c = static_cast<unsigned char>(text[i]);
    if ((c >= 0x20 && c < 0x7f) || (keep_newlines && c == '\n')) {
      out += text[i++];
    } else if (const size_t n = c >= 0x80 ? utf8_sequence(text, i) : 0;
               n != 0 && !invisible_control(utf8_code_point(text.substr(i, n)))) {
      out.append(text.substr(i, n));
      i += n;
    } else {
      char buf[5];
      std::snprintf(buf, sizeof buf, "\\x%02X", c);
      out += buf;
      ++i;
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
