// `moesim asm` and `moesim disasm`: the assembler and disassembler.

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <sstream>

#include "cli_output.hpp"
#include "command.hpp"
#include "moesim/isa/assembler.hpp"
#include "moesim/isa/program.hpp"
#include "path_guard.hpp"
#include "program_flags.hpp"

namespace moesim::cli {

namespace fs = std::filesystem;

namespace {

int cmd_asm(const isa::Spec& spec, const std::string& in, std::string out, const AsmFlags& f) {
  if (fs::path(in).extension() == ".hex")
    throw UsageError(in +
                     ": a .hex is an assembled program (moesim disasm prints it; --program "
                     "runs it)");
  if (out.empty()) out = fs::path(in).replace_extension(".hex").string();
  const fs::path stages = isa::stages_path(out);
  if (fs::weakly_canonical(out) == fs::weakly_canonical(stages))
    throw UsageError("-o " + out + ": the program and its stage table would both be " + out +
                     " (name the .hex; the .stages is written beside it)");
  check_output_path("-o", out);
  check_output_path("the stage table of -o " + out + ":", stages.string());
  PathGuard guard;
  guard.input("", in);
  guard.input("--stage-map", f.stage_map);
  guard.output("-o " + out, out);
  guard.output("the stage table " + stages.string() + " of -o " + out, stages);
  guard.check();
  const isa::Program p = read_program_file(spec, in, "", f);
  bad_input_of<std::exception>("-o: ", [&] { isa::write_program(p, out); });
  std::cout << in << ": " << p.size() << " instructions -> " << out << " (+ "
            << fs::path(out).replace_extension(".stages").string() << ")\n";
  return kExitEqual;
}

int cmd_disasm(const isa::Spec& spec, const std::string& in) {
  const isa::Program p = bad_input_of("", [&] { return isa::read_program(in); });
  std::cout << "; " << in << ": " << p.size() << " instructions (columns after each: ; pc word)\n";
  // Each instruction line gets its pc and word as a trailing comment, so the text still
  // re-assembles to the same program.
  std::string listing;
  try {
    listing = isa::disassemble(spec, p);
  } catch (const std::invalid_argument& e) {  // a stage table assembly cannot express
    throw UsageError(isa::stages_path(in).string() + ": " + e.what() +
                     " (disasm prints text that re-assembles to the same program)");
  }
  std::istringstream text(listing);
  std::string line;
  size_t pc = 0;
  while (std::getline(text, line)) {
    if (line.empty() || line[0] == ';' || pc >= p.size()) {
      std::cout << line << '\n';
      continue;
    }
    char cols[48];
    std::snprintf(cols, sizeof cols, " ; %6zu  0x%08X", pc, p.words[pc]);
    if (line.size() < 40) line.resize(40, ' ');
    std::cout << line << cols << '\n';
    ++pc;
  }
  return kExitEqual;
}

}  // namespace

Subcommand add_asm(CLI::App& app) {
  auto in = std::make_shared<std::string>(), out = std::make_shared<std::string>();
  auto flags = std::make_shared<AsmFlags>();
  CLI::App* sub = app.add_subcommand("asm", "assemble IN.asm to OUT.hex and OUT.stages");
  reads(sub->add_option("input", *in, "assembly file")->required());
  writes(sub->add_option("-o,--output", *out, "output .hex (default: input with .hex)"));
  add_asm_flags(sub, *flags);
  return {sub,
          [in, out, flags](const isa::Spec& spec) { return cmd_asm(spec, *in, *out, *flags); }};
}

Subcommand add_disasm(CLI::App& app) {
  auto in = std::make_shared<std::string>();
  CLI::App* sub = app.add_subcommand("disasm", "print re-assemblable text with stage markers");
  reads(sub->add_option("input", *in, ".hex program (its .stages beside is used if present)")
            ->required());
  return {sub, [in](const isa::Spec& spec) { return cmd_disasm(spec, *in); }};
}

}  // namespace moesim::cli
