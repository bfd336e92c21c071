// How generated artefacts name isa.yaml entries: the generator writes these names and the drift
// guards look them up with the same rules.
#pragma once

#include <cctype>
#include <string>

namespace moesim::isa {

/// "illegal_instruction" -> "ILLEGAL_INSTRUCTION" (SystemVerilog constants: TRAP_*, STAGE_*).
inline std::string upper_name(std::string s) {
  for (char& c : s) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return s;
}

/// "illegal_instruction" -> "IllegalInstruction" (UpperCamelCase, underscores dropped).
inline std::string camel_name(const std::string& s) {
  std::string out;
  bool up = true;
  for (char c : s) {
    if (c == '_') {
      up = true;
      continue;
    }
    out += up ? static_cast<char>(std::toupper(static_cast<unsigned char>(c))) : c;
    up = false;
  }
  return out;
}

}  // namespace moesim::isa
