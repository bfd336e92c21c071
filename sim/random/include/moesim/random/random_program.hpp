// Constrained-random programs (docs/random.md): generation from a seed, rendering as assembly
// plus an initial memory image (the conformance case format without `expect`), functional
// coverage over executed runs, and shrinking of a failing program.
//
// This layer links isa_spec only. Every opcode, operand kind, allowed value, trap and
// V_TOPK policy comes from isa.yaml through isa::Spec; the generator holds one rule per
// mnemonic for what makes its addresses legal (the semantics of isa.yaml are prose), and
// generate() refuses a spec with an instruction it has no rule for, naming it.
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "moesim/isa/program.hpp"
#include "moesim/isa/spec.hpp"
#include "moesim/isa/trace.hpp"

namespace moesim::rnd {

/// Knobs of the generator (`--mix MIX.yaml`, docs/random.md, Mix file).
struct Mix {
  double trap_share = 0.25;   ///< share of programs that end in a chosen trap
  double loop_share = 0.3;    ///< chance that a body position opens a loop
  unsigned min_snippets = 4;  ///< tested instructions per program (before loop repetition)
  unsigned max_snippets = 20;
  uint64_t max_dynamic = 800;             ///< bound on instructions retired (loops unrolled)
  uint64_t max_cycles = 300000;           ///< bound on cycles (isa.yaml latencies)
  double special_share = 0.15;            ///< share of BF16 specials in random memories
  std::map<std::string, double> weights;  ///< mnemonic -> relative weight (default 1)
  std::vector<std::string> traps;         ///< trap causes to draw from (empty: all of isa.yaml)
};

/// Reads a mix file. Throws UsageError naming the file and key (unknown key, bad value,
/// unknown mnemonic or trap, weights that leave the generator nothing to draw).
Mix load_mix(const isa::Spec& spec, const std::filesystem::path& path);

/// How the generator draws instruction `mnemonic` apart from the mix's weights: never (the loop
/// instructions and C_HADAMARD_TRANSFORM: loops are built apart), sometimes (C_BREAK only inside
/// a loop, C_SET_TOPK_REG not where a program must keep the policy) or always.
enum class Drawn { never, sometimes, always };
Drawn drawn(const std::string& mnemonic);

/// What one instruction of a random program exercises, known when it is generated.
struct Tag {
  std::string mnemonic;  ///< of the instruction word (".word" lines: the decoded one or "")
  std::string cls;       ///< operand class: setup, legal, boundary, range, misaligned, reserved
  unsigned depth = 0;    ///< loops active around it
  std::string topk;      ///< V_TOPK cross bin ("rmask=15 E=multi_row k=mid"), else ""
  std::string mx;        ///< MX scale class of the tile an M_* op reads, else ""
  bool tested = false;   ///< the instruction under test of its snippet (not set-up)
};

struct Instr {
  std::string text;  ///< one assembly line (an instruction or `.word 0x...`)
  Tag tag;
};

/// A body element: a snippet (set-up lines, then the instruction under test) or a loop.
struct Node {
  bool loop = false;
  std::string stage;  ///< `; @stage=` marker before it ("" = none)
  std::vector<Instr> lines;
  unsigned reg = 0;    ///< loop: counter register gpN
  uint32_t count = 0;  ///< loop: iterations
  std::vector<Node> body;
};

/// One initial memory region, in the unit of its space (VRAM / MRAM rows, SRAM words, HBM
/// bytes), as the byte image of isa::MemoryImage.
struct Region {
  isa::Space space = isa::Space::Vram;
  uint64_t begin = 0;
  std::vector<uint8_t> bytes;
};

struct RandomProgram {
  uint64_t seed = 0;
  std::string machine;
  std::optional<uint64_t> budget;  ///< INSTRUCTION_BUDGET of the run, when not the preset's
  std::string intended_trap;       ///< trap cause the program is built to end in ("" none)
  std::vector<Node> nodes;
  std::vector<Region> regions;
};

RandomProgram generate(const isa::Spec& spec, const isa::MachinePreset& preset, uint64_t seed,
                       const Mix& mix = {});

/// A program as the engines run it: assembly text, the assembled program, one tag per pc and
/// the memory image.
struct Rendered {
  std::string asm_text;
  isa::Program program;
  std::vector<Tag> tags;  ///< per pc
  isa::MemoryImage image;
};

/// Throws isa::AsmError if a line does not assemble (a generator bug).
Rendered render(const isa::Spec& spec, const isa::MachinePreset& preset, const RandomProgram& p);

/// The case file (conformance format: machine, budget, init; no expect), with `comment` lines as
/// a `#` header.
std::string case_yaml(const isa::MachinePreset& preset, const RandomProgram& p,
                      const std::string& comment);

/// Instructions in the program text (static), and the bound on retired instructions.
uint64_t static_size(const RandomProgram& p);
uint64_t dynamic_bound(const RandomProgram& p);

/// One executed instruction of a run (retired, or the trapping one with its cause).
struct Executed {
  uint32_t pc = 0;
  std::optional<uint8_t> trap;
};

/// Functional coverage over a set of runs (docs/random.md, Coverage). Items are built from
/// isa.yaml and the preset; add() counts what a run executed.
class Coverage {
 public:
  struct Item {
    std::string group;  ///< opcode, class, trap, topk, mx, loop
    std::string name;
    uint64_t hits = 0;
  };
  Coverage(const isa::Spec& spec, const isa::MachinePreset& preset);
  void add(const Rendered& r, const std::vector<Executed>& run);
  const std::vector<Item>& items() const { return items_; }
  /// group -> (covered, total), in group order.
  std::vector<std::pair<std::string, std::pair<uint64_t, uint64_t>>> summary() const;

 private:
  void hit(const std::string& name);
  const isa::Spec& spec_;
  std::vector<Item> items_;
  std::map<std::string, size_t> index_;
};

struct ShrinkStats {
  uint64_t candidates = 0;  ///< programs tried
  uint64_t accepted = 0;    ///< reductions that kept the failure
};

/// Reduces `p` while `fails` stays true (drop nodes and lines, replace a loop by its body, one
/// iteration, drop or halve memory regions, drop the budget), to a fixpoint. `fails(p)` must be
/// true on entry.
RandomProgram shrink(const RandomProgram& p, const std::function<bool(const RandomProgram&)>& fails,
                     ShrinkStats* stats = nullptr);

}  // namespace moesim::rnd
