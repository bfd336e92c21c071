// Assembler and disassembler for PLENA's text syntax (docs/sources.md, Assembler syntax) plus
// `; @stage=` markers.
//
// Syntax: one instruction per line, `MNEMONIC op, op, ...`; comments start with `;` or `//`
// and run to the end of the line; registers gpN, fN, aN; immediates decimal or 0x hex.
// A comment whose text after `;` and spaces starts with `@stage=NAME` is a stage marker: NAME
// (up to the first whitespace) must be in stages.yaml and not `other`; it applies to every
// following instruction until the next marker. Instructions before the first marker get `other`.
// `; @pair=TOKEN,SLOT,EXPERT` (format_work_tag in program.hpp; `-` for none) likewise tags the
// following instructions with the token / expert pair they work on (Program::work, shown in
// timelines); a program without such a marker has an empty Program::work.
#pragma once

#include <stdexcept>
#include <string>
#include <vector>

#include "moesim/isa/program.hpp"
#include "moesim/isa/spec.hpp"
#include "moesim/isa/stage_map.hpp"

namespace moesim::isa {

/// Assembly error. what() is "file:line:col: message"; line/col are 1-based.
class AsmError : public std::runtime_error {
 public:
  AsmError(const std::string& file, unsigned line, unsigned col, const std::string& msg);
  std::string file;
  unsigned line, col;
};

/// Which text the assembler takes. `moesim`: the syntax above, each instruction with exactly its
/// isa.yaml operand list. `plena`: also the forms of an instruction's isa.yaml `plena:` (PLENA's
/// aliases, a trailing 0, PLENA's values), each with the meaning PLENA's assembler gives it; where
/// that meaning differs from moesim's (an operand PLENA's binary does not carry), the program
/// follows PLENA and a warning names the line. moesim's syntax refuses those forms, saying why.
enum class Syntax { moesim, plena };

struct AsmOptions {
  Syntax syntax = Syntax::moesim;
  /// Receives each warning of the PLENA syntax as "file:line:col: message"; nullptr drops them.
  std::vector<std::string>* warnings = nullptr;
  /// Rules that set the stage from the program's comment lines (stage_map.hpp), tried on every
  /// comment line that is not a marker; the stage a rule or a marker sets holds until the next.
  const StageMap* stage_map = nullptr;
};

/// Assembles `text` (named `file` in messages). Errors: unknown mnemonic, wrong operand count,
/// wrong operand kind (gp where f is expected...), register index out of range, immediate that
/// does not fit its field (never truncated), a value isa.yaml reserves (`allowed`; write `.word`
/// to plant one), unknown stage name, malformed `@stage=` / `@pair=` marker, bad number syntax.
Program assemble(const Spec& spec, const std::string& text, const std::string& file = "<input>",
                 const AsmOptions& options = {});
Program assemble_file(const Spec& spec, const std::string& path, const AsmOptions& options = {});

/// One instruction as text, e.g. "V_ADD_VV gp3, gp1, gp2, 0". An undefined opcode gives
/// ".word 0x........" (which does not re-assemble; such words never come from the assembler).
std::string disassemble(const Spec& spec, uint32_t word);
/// Whole program with stage and pair markers re-inserted where they change; re-assembles to the
/// same words, stages and work tags.
std::string disassemble(const Spec& spec, const Program& p);

}  // namespace moesim::isa
