// Instruction word encode/decode driven by isa.yaml's field table (docs/architecture.md, The
// machine).
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "moesim/isa/spec.hpp"

namespace moesim::isa {

/// Raw fields of a word, by the names in isa.yaml `fields`.
struct Decoded {
  uint32_t word = 0;
  uint8_t opcode = 0;
  uint8_t rd = 0, rs1 = 0, rs2 = 0, r3 = 0, funct = 0;
  uint32_t imm18 = 0, imm22 = 0;
  const InstrSpec* spec = nullptr;  ///< nullptr for an undefined opcode (illegal_instruction)
};

uint32_t extract(uint32_t word, const Field& f);
Decoded decode(const Spec& spec, uint32_t word);

/// Encodes operand values (in the order of ins.operands; optional ones may be missing and
/// encode as 0). Throws std::invalid_argument naming the operand when a value does not fit
/// its field or a register index exceeds its file.
uint32_t encode(const Spec& spec, const InstrSpec& ins, const std::vector<uint64_t>& operands);

}  // namespace moesim::isa
