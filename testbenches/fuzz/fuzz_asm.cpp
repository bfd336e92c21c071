// libFuzzer harness: the assembler (isa::assemble) on arbitrary text. Bad text must give an
// isa::AsmError (file:line:col: message, the line and column inside the text); any other exception,
// a crash or a sanitizer report is a finding. What the assembler accepts must disassemble and
// re-assemble to the same words, stages and work tags (docs/fuzzing.md).
#include <cstddef>
#include <cstdint>
#include <string>

#include "fuzz_common.hpp"
#include "moesim/isa/assembler.hpp"

using namespace moesim;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const isa::Spec& spec = isa::Spec::builtin();
  const std::string text(reinterpret_cast<const char*>(data), size);
  isa::Program p;
  try {
    p = isa::assemble(spec, text, "fuzz.asm");
  } catch (const isa::AsmError& e) {
    fuzz::check_asm_error(e, text);
    return 0;
  }
  fuzz::check_round_trip(spec, p);
  return 0;
}
