// Shared checks of the libFuzzer harnesses (docs/fuzzing.md). A failed check prints what broke
// and aborts, which libFuzzer (and the replay driver) reports as a crash with the input saved.
#pragma once

#include <cstdio>
#include <cstdlib>
#include <string>

#include "moesim/isa/assembler.hpp"
#include "moesim/isa/program.hpp"
#include "moesim/isa/spec.hpp"

namespace moesim::fuzz {

[[noreturn]] inline void fail(const std::string& what) {
  std::fprintf(stderr, "fuzz check failed: %s\n", what.c_str());
  std::fflush(stderr);
  std::abort();
}

/// An assembler error names a line of the text (1..lines+1) and a column >= 1.
inline void check_asm_error(const isa::AsmError& e, const std::string& text) {
  size_t lines = 1;
  for (char c : text) lines += c == '\n';
  if (e.line < 1 || e.line > lines || e.col < 1)
    fail(std::string("AsmError outside the text: ") + e.what());
  if (std::string(e.what()).find('\n') != std::string::npos)
    fail(std::string("AsmError message spans lines: ") + e.what());
}

/// The oracle: disassemble(p) re-assembles to the same words, stages and work tags (an empty
/// work list equals all-untagged). disassemble() refuses (std::invalid_argument) only programs
/// whose stage table no marker sequence can express.
inline void check_round_trip(const isa::Spec& spec, const isa::Program& p) {
  std::string text;
  try {
    text = isa::disassemble(spec, p);
  } catch (const std::invalid_argument&) {
    return;
  }
  isa::Program q;
  try {
    q = isa::assemble(spec, text, "disassembly");
  } catch (const isa::AsmError& e) {
    fail(std::string("disassembly does not re-assemble: ") + e.what() + "\n" + text);
  }
  if (q.words != p.words) fail("words differ after disassemble -> assemble:\n" + text);
  if (q.stages != p.stages) fail("stages differ after disassemble -> assemble:\n" + text);
  auto tag = [](const isa::Program& x, size_t i) {
    return i < x.work.size() ? x.work[i] : isa::WorkTag{};
  };
  for (size_t i = 0; i < p.words.size(); ++i)
    if (!(tag(p, i) == tag(q, i)))
      fail("work tag of pc " + std::to_string(i) + " differs after disassemble -> assemble:\n" +
           text);
}

}  // namespace moesim::fuzz
