// moesim ISA specification loaded from isa_spec/{isa,machine,stages}.yaml (docs/architecture.md,
// One source of truth).
//
// This is the run-time view of the single source of truth. Code that switches on opcodes uses
// the generated enums in <moesim/isa/tables.hpp>; code that needs text (mnemonics, semantics,
// latency formulas, presets) uses Spec. Both are produced from the same YAML.
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "moesim/isa/expr.hpp"

namespace moesim::isa {

/// Error in a spec file. what() names the file and the YAML key path, e.g.
/// "isa_spec/isa.yaml: instructions[3].opcode: expected an integer".
class SpecError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// A bit field of the 32-bit instruction word, bits [hi:lo] inclusive.
struct Field {
  std::string name;
  unsigned hi = 0;
  unsigned lo = 0;
  unsigned width() const { return hi - lo + 1; }
};

enum class OperandKind { Gp, Fp, Addr, Imm, Zero };

/// One entry of isa.yaml `operand_kinds`. Register kinds (gp, fp, addr) have a text prefix and a
/// register count; imm and zero have neither (prefix empty, count 0).
struct OperandKindSpec {
  std::string name;  ///< yaml key: gp | fp | addr | imm | zero
  OperandKind kind = OperandKind::Imm;
  std::string prefix;
  unsigned count = 0;
  std::string doc;
};

struct OperandSpec {
  std::string name;   ///< e.g. "rd", "fs", "rmask"
  std::string field;  ///< key into Spec::fields()
  OperandKind kind = OperandKind::Imm;
  bool optional = false;  ///< may be omitted in assembly; encodes as 0
  /// isa.yaml `allowed:` (ascending, no duplicates): the only values the operand may hold; any
  /// other value is a reserved field value (illegal_instruction). Empty: every value that fits.
  /// V_TOPK's rmask gets the rmasks of `topk_policies` (it may not carry its own list).
  std::vector<uint32_t> allowed;
  /// True when `v` is legal for this operand (allowed is empty or lists v).
  bool permits(uint64_t v) const;
};

/// One entry of an instruction's isa.yaml `accesses`: the first address of a memory range it
/// reads or writes, as a formula over its operands at issue, the control registers, the machine
/// parameters and the `address_vars`.
struct AccessSpec {
  std::string space;   ///< isa::space_name: vram, mram, fp_sram, int_sram, hbm
  std::string access;  ///< read, write or read_write
  std::string what;    ///< which part of the range the address is ("first row")
  Expr address;        ///< in the space's address unit (isa.yaml, Units)
};

/// isa.yaml `plena:` of an instruction: the text PLENA's compiler writes for it that moesim's own
/// syntax does not take, accepted by the assembler's PLENA syntax (assembler.hpp, Syntax::plena;
/// the PLENA source of each form: docs/sources.md, PLENA-compatible syntax).
struct PlenaSyntaxSpec {
  /// An operand PLENA's assembler does not encode where PLENA's emulator reads it: in PLENA
  /// syntax it encodes as 0, with a warning when the text gives another value.
  struct Unencoded {
    std::string operand;  ///< an optional imm operand of the instruction
    std::string why;      ///< what PLENA's assembler does with it
    std::string effect;   ///< what PLENA's binary then does ("sums the whole row")
  };
  /// A value PLENA writes for an operand that moesim's encoding spells differently.
  struct ReadAs {
    std::string operand;
    uint32_t value = 0;  ///< PLENA's value
    uint32_t as = 0;     ///< the value it encodes as (one the operand permits)
    std::string doc;     ///< why the two mean the same
  };
  std::vector<std::string> aliases;  ///< other mnemonics PLENA's compiler writes for it
  /// A literal 0 after the operand list, which PLENA's assembler parses and does not encode.
  bool trailing_zero = false;
  std::vector<Unencoded> unencoded;
  std::vector<ReadAs> read_as;
};

struct InstrSpec {
  std::string mnemonic;
  uint8_t opcode = 0;
  std::string unit;  ///< one of Spec::units()
  std::vector<OperandSpec> operands;
  std::string semantics;
  std::vector<std::string> traps;  ///< trap names this instruction can raise
  std::string latency_text;
  Expr latency;                      ///< parsed latency_text
  std::vector<AccessSpec> accesses;  ///< isa.yaml `accesses`, in file order
  PlenaSyntaxSpec plena;             ///< isa.yaml `plena:` (empty when absent)
};

/// One entry of isa.yaml `topk_policies`: the (E, k) V_TOPK uses for an rmask, either hardwired
/// (experts, k) or read from a policy register (`reg`, e.g. TOPK_POLICY). An rmask without an
/// entry is illegal_instruction.
struct TopkPolicySpec {
  uint8_t rmask = 0;
  std::string reg;       ///< policy register name; empty for a hardwired policy
  uint32_t experts = 0;  ///< E (hardwired only)
  uint32_t k = 0;        ///< k (hardwired only)
  bool hardwired() const { return reg.empty(); }
};

/// A bit field [hi:lo] of a control register (isa.yaml `control_registers[].fields`).
struct CtrlFieldSpec {
  std::string name;  ///< identifier, e.g. E, k
  unsigned hi = 0;
  unsigned lo = 0;
  std::string doc;
  unsigned width() const { return hi - lo + 1; }
};

/// One entry of isa.yaml `control_registers`: a 32-bit control register.
struct CtrlRegSpec {
  std::string name;   ///< upper-case identifier, e.g. TOPK_POLICY
  uint8_t index = 0;  ///< RegFile::Ctrl index (dense from 0, file order)
  uint32_t reset = 0;
  std::string written_by;  ///< mnemonic of the control instruction that writes it
  std::string doc;
  std::vector<CtrlFieldSpec> fields;  ///< file order; empty for a single-quantity register
  const CtrlFieldSpec* field(std::string_view n) const;  ///< nullptr if none
};

/// One entry of isa.yaml `fp32_constants` (a numeric constant both models use, as FP32 bits) or
/// of `hbm_jitter` (a 32-bit constant of the HBM jitter function).
struct Fp32Constant {
  std::string name;  ///< upper-case identifier, e.g. BMM_SCALE
  uint32_t bits = 0;
  std::string doc;
};

struct TrapSpec {
  std::string name;
  uint8_t code = 0;
  std::string doc;
};

/// One entry of isa.yaml `stall_causes` (code 0 is none).
struct StallCauseSpec {
  std::string name;
  uint8_t code = 0;
  std::string doc;
};

struct StageSpec {
  std::string name;
  uint8_t code = 0;
  std::string group;  ///< routed | shared | plumbing
  std::string doc;
};

/// One machine preset: name -> integer parameter (machine.yaml).
struct MachinePreset {
  std::string name;
  std::map<std::string, int64_t> params;
  /// Throws SpecError naming the preset and key if absent.
  int64_t get(const std::string& key) const;
  int64_t mlen() const { return get("MLEN"); }
  int64_t vlen() const { return get("VLEN"); }
  int64_t blen() const { return get("BLEN"); }
  int64_t hlen() const { return get("HLEN"); }
  int64_t mx_block() const { return get("MX_BLOCK"); }
};

class Spec {
 public:
  /// Loads isa.yaml, machine.yaml and stages.yaml from `dir` and validates them (unique
  /// opcodes/mnemonics/codes, fields inside the word, operand kinds known, formulas parse and
  /// name only known variables). Throws SpecError.
  static Spec load(const std::filesystem::path& dir);
  /// Loads from the directory compiled in as MOESIM_ISA_SPEC_DIR, or $MOESIM_ISA_SPEC_DIR if set.
  static const Spec& builtin();

  const std::vector<InstrSpec>& instructions() const { return instrs_; }
  const InstrSpec* by_mnemonic(std::string_view m) const;  ///< case-sensitive; nullptr if none
  /// The instruction with PLENA alias `m` (isa.yaml `plena.aliases`); nullptr if none.
  const InstrSpec* by_plena_alias(std::string_view m) const;
  const InstrSpec* by_opcode(uint8_t op) const;       ///< nullptr if undefined
  const Field& field(const std::string& name) const;  ///< throws SpecError
  const std::map<std::string, Field>& fields() const { return fields_; }
  const std::vector<std::string>& units() const { return units_; }
  const std::vector<TrapSpec>& traps() const { return traps_; }
  const std::vector<StallCauseSpec>& stall_causes() const { return stall_causes_; }
  const TrapSpec& trap(const std::string& name) const;  ///< throws SpecError
  const TrapSpec* trap_by_code(uint8_t code) const;
  const std::vector<StageSpec>& stages() const { return stages_; }
  const StageSpec* stage(std::string_view name) const;
  const StageSpec* stage_by_code(uint8_t code) const;
  /// The name of stage `code`, or "stage<code>" for a code stages.yaml does not define.
  std::string stage_name(uint8_t code) const;
  const std::map<std::string, MachinePreset>& presets() const { return presets_; }
  const MachinePreset& preset(const std::string& name) const;  ///< throws SpecError listing names
  const std::map<std::string, std::string>& latency_vars() const { return latency_vars_; }
  /// isa.yaml `address_vars`: names an `accesses` formula may use that no register holds.
  const std::map<std::string, std::string>& address_vars() const { return address_vars_; }
  /// isa.yaml `topk_policies` in file order.
  const std::vector<TopkPolicySpec>& topk_policies() const { return topk_policies_; }
  /// The policy of V_TOPK rmask `rmask`; nullptr when the rmask is illegal.
  const TopkPolicySpec* topk_policy(unsigned rmask) const;
  /// The hardwired policy with exactly (experts, k); nullptr if none.
  const TopkPolicySpec* topk_hardwired(uint64_t experts, uint64_t k) const;
  /// The rmask that reads the policy register (the `register:` entry); nullptr if none.
  const TopkPolicySpec* topk_register_policy() const;
  /// isa.yaml `control_registers` in index order (index i is entry i).
  const std::vector<CtrlRegSpec>& control_registers() const { return ctrl_regs_; }
  /// The control register `name`. Throws SpecError if isa.yaml does not define it.
  const CtrlRegSpec& control_register(const std::string& name) const;
  /// isa.yaml `fp32_constants` in file order.
  const std::vector<Fp32Constant>& fp32_constants() const { return fp32_constants_; }
  /// FP32 bits of constant `name`. Throws SpecError if isa.yaml does not define it.
  uint32_t fp32_constant(const std::string& name) const;
  /// isa.yaml `hbm_jitter`: the constants of the HBM jitter function J(seed, n), file order
  /// (`bits` holds the 32-bit value).
  const std::vector<Fp32Constant>& hbm_jitter_constants() const { return hbm_jitter_; }
  /// isa.yaml `operand_kinds`, by kind (every OperandKind is present after load()).
  const OperandKindSpec& operand_kind(OperandKind k) const;
  const std::vector<OperandKindSpec>& operand_kinds() const { return kinds_; }
  /// machine.yaml `parameters` in file order: (name, doc). Every preset has exactly these keys.
  const std::vector<std::pair<std::string, std::string>>& parameters() const { return params_; }
  /// machine.yaml `runtime`: parameter -> port width in bits. A run-time parameter is an input
  /// of the RTL driven per run (not a Verilator parameter); presets give its default.
  const std::map<std::string, unsigned>& runtime_parameters() const { return runtime_; }
  bool is_runtime_parameter(const std::string& name) const { return runtime_.count(name) != 0; }
  /// Largest value the port of run-time parameter `name` holds (2^bits - 1). Throws SpecError if
  /// `name` is not a run-time parameter.
  int64_t runtime_max(const std::string& name) const;
  /// `budget` if it is a valid run-time INSTRUCTION_BUDGET: 1 to runtime_max(
  /// "INSTRUCTION_BUDGET") retired instructions (what the RTL's instruction_budget_i port holds).
  /// Throws std::invalid_argument naming the range otherwise. Both engines'
  /// set_instruction_budget go through it.
  uint64_t checked_instruction_budget(uint64_t budget) const;
  /// `depth` if it is a valid run-time DMA_QUEUE: 0 (serial) to runtime_max("DMA_QUEUE")
  /// (what the RTL's dma_queue_i port holds). Throws std::invalid_argument naming the range
  /// otherwise. Both engines' set_dma_queue and moesim's --dma-queue go through it.
  uint64_t checked_dma_queue(uint64_t depth) const;
  /// `seed` if it is a valid run-time HBM_JITTER_SEED: 0 (no jitter) to
  /// runtime_max("HBM_JITTER_SEED"); else throws std::invalid_argument naming the range.
  uint64_t checked_hbm_jitter_seed(uint64_t seed) const;
  int64_t version() const { return version_; }
  unsigned word_bits() const { return word_bits_; }

  /// Latency in cycles of `ins` on `preset` with dynamic variables `dyn` (e.g. {"E",32},{"k",4}).
  int64_t latency(const InstrSpec& ins, const MachinePreset& preset,
                  const std::map<std::string, int64_t>& dyn = {}) const;

  std::filesystem::path dir;

 private:
  std::vector<InstrSpec> instrs_;
  std::map<std::string, Field> fields_;
  std::vector<std::string> units_;
  std::vector<TrapSpec> traps_;
  std::vector<StallCauseSpec> stall_causes_;
  std::vector<StageSpec> stages_;
  std::map<std::string, MachinePreset> presets_;
  std::map<std::string, std::string> latency_vars_;
  std::map<std::string, std::string> address_vars_;
  std::vector<OperandKindSpec> kinds_;
  std::vector<TopkPolicySpec> topk_policies_;
  std::vector<Fp32Constant> fp32_constants_;
  std::vector<Fp32Constant> hbm_jitter_;
  std::vector<CtrlRegSpec> ctrl_regs_;
  std::vector<std::pair<std::string, std::string>> params_;
  std::map<std::string, unsigned> runtime_;
  int64_t version_ = 0;
  unsigned word_bits_ = 32;
  friend class SpecLoader;
};

}  // namespace moesim::isa
