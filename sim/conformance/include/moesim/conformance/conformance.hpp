// ISA conformance suite runner: hand-written programs with expected final states, run on either
// engine (the way riscv-arch-test and OTBN's `.s` + `.exp` tests serve their ISAs).
//
// A suite is <suite>/<MNEMONIC>/<case>.asm with <case>.yaml beside it (<suite>/_global/ for cases
// about no one instruction) and <suite>/waivers.yaml. The case file format (initial memories,
// expected state, the strictness rule) and the waiver format: docs/conformance.md, Case files.
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "moesim/isa/engine.hpp"
#include "moesim/isa/image_file.hpp"
#include "moesim/isa/program.hpp"
#include "moesim/isa/spec.hpp"
#include "moesim/isa/trace.hpp"

namespace moesim::conformance {

/// A memory region of a case file (the shared image loader's, isa/image_file.hpp).
using Region = isa::ImageRegion;

struct Expect {
  uint64_t retired = 0;
  uint64_t cycles = 0;
  std::optional<std::string> trap;  ///< trap name (isa.yaml traps)
  uint32_t trap_pc = 0;
  std::map<std::string, uint64_t> regs;  ///< by cosim::reg_name() (gp1, f2, a0, STRIDE, ...)
  std::vector<Region> mem;
  /// Stall cycles by cause (isa::stall_cause_name: queue_full, raw, waw, war), summed over the
  /// retire records (docs/overlap.md section 3); only the listed causes are checked.
  std::map<std::string, uint64_t> stalls;
};

/// Directory of the cases that test no single instruction.
inline constexpr const char* kGlobalDir = "_global";

struct Case {
  std::string name;      ///< "<MNEMONIC>/<case>"
  std::string mnemonic;  ///< the directory: the instruction under test, or kGlobalDir
  std::string machine = "default";
  uint64_t budget = 0;  ///< INSTRUCTION_BUDGET of the run (the preset's unless the case sets one)
  /// DMA_QUEUE of the run (docs/overlap.md; the preset's unless the case sets `dma_queue:`)
  uint64_t dma_queue = 0;
  /// HBM_JITTER_SEED of the run (isa.yaml `hbm_jitter`; the preset's, 0, unless the case sets
  /// `hbm_jitter:`)
  uint64_t hbm_jitter = 0;
  std::filesystem::path asm_path, yaml_path;
  isa::Program program;
  isa::MemoryImage image;
  Expect expect;
  /// Set when the case's files are malformed (the message names file:line:col or file and key
  /// path): the case is not run and counts as an error. Nothing else is set then.
  std::string error;
};

/// Loads every case under `suite` whose name matches `filter` (std::regex, searched; empty =
/// all), sorted by name. A malformed case (assembly or YAML error, an .asm without its .yaml or
/// the reverse, a stray file, a directory that is neither a mnemonic of isa.yaml nor kGlobalDir)
/// is returned with Case::error set. Throws UsageError for a suite that is not a directory, an
/// invalid or over-long filter, or a filter that matches no case.
std::vector<Case> load_suite(const isa::Spec& spec, const std::filesystem::path& suite,
                             const std::string& filter = "");

struct Outcome {
  bool pass = false;
  std::vector<std::string> failures;  ///< one readable line per difference
  uint64_t retired = 0, cycles = 0;
  std::optional<isa::Trap> trap;
  std::vector<uint32_t> words;  ///< every word executed, trapping one included (retire records)
  std::map<std::string, uint64_t> stalls;  ///< stall cycles of the retire records by cause
};

/// Loads `c` into `engine` (whose preset must be c.machine) with the case's INSTRUCTION_BUDGET
/// and DMA_QUEUE and runs it to its end, at most `max_instructions` (a runaway case fails).
/// Engine exceptions propagate.
Outcome run_case(const isa::Spec& spec, isa::Engine& engine, const Case& c,
                 uint64_t max_instructions = 100000);

/// What the suite exercised, from the executed words of passing cases.
struct Coverage {
  struct Item {
    std::string name;  ///< "V_TOPK", "V_TOPK rmask=15", "V_TOPK trap topk_policy_unset"
    bool covered = false;
  };
  std::vector<Item> opcodes, forms, traps;
  /// Names of every item not covered, in order.
  std::vector<std::string> missing() const;
  /// Names of every item.
  std::set<std::string> names() const;
};

/// Items come from isa.yaml: every instruction; every `allowed` value of an imm operand and,
/// for an `rmask` operand without such a list, rmask=0 and rmask!=0; every (instruction, trap)
/// of each instruction's `traps` list, and every trap of isa.yaml once ("trap NAME", raised by
/// any instruction). An item is covered by a passing case that executed it (a trap item: whose
/// trapping instruction it is).
Coverage coverage(const isa::Spec& spec, const std::vector<Case>& cases,
                  const std::vector<Outcome>& outcomes);

/// A documented coverage gap (waivers.yaml).
struct Waiver {
  std::string item;  ///< a Coverage::Item name
  std::string reason;
};

/// Reads <suite>/waivers.yaml (none if absent). Throws UsageError naming the file and key for a
/// malformed file or an item that is not a coverage item of isa.yaml.
std::vector<Waiver> load_waivers(const isa::Spec& spec, const std::filesystem::path& suite);

/// The directory compiled in as the suite's source (testbenches/conformance); the binary finds
/// the suite only while that tree exists (else pass --suite).
std::filesystem::path default_suite();

}  // namespace moesim::conformance
