// Instruction word encode/decode driven by isa.yaml's field table (encoding.hpp).
#include "moesim/isa/encoding.hpp"

#include <stdexcept>

namespace moesim::isa {

namespace {
uint32_t mask(const Field& f) { return static_cast<uint32_t>((uint64_t{1} << f.width()) - 1); }
}  // namespace

uint32_t extract(uint32_t word, const Field& f) { return (word >> f.lo) & mask(f); }

Decoded decode(const Spec& spec, uint32_t word) {
  Decoded d;
  d.word = word;
  d.opcode = static_cast<uint8_t>(extract(word, spec.field("opcode")));
  d.rd = static_cast<uint8_t>(extract(word, spec.field("rd")));
  d.rs1 = static_cast<uint8_t>(extract(word, spec.field("rs1")));
  d.rs2 = static_cast<uint8_t>(extract(word, spec.field("rs2")));
  d.r3 = static_cast<uint8_t>(extract(word, spec.field("r3")));
  d.funct = static_cast<uint8_t>(extract(word, spec.field("funct")));
  d.imm18 = extract(word, spec.field("imm18"));
  d.imm22 = extract(word, spec.field("imm22"));
  d.spec = spec.by_opcode(d.opcode);
  return d;
}

uint32_t encode(const Spec& spec, const InstrSpec& ins, const std::vector<uint64_t>& operands) {
  size_t required = 0;
  for (const auto& o : ins.operands) required += o.optional ? 0 : 1;
  if (operands.size() < required || operands.size() > ins.operands.size()) {
    throw std::invalid_argument(ins.mnemonic + ": " + std::to_string(operands.size()) +
                                " operands given, expected " + std::to_string(required) +
                                (required == ins.operands.size()
                                     ? std::string()
                                     : " to " + std::to_string(ins.operands.size())));
  }
  const Field& opf = spec.field("opcode");
  uint32_t word = (static_cast<uint32_t>(ins.opcode) & mask(opf)) << opf.lo;
  for (size_t i = 0; i < operands.size(); ++i) {
    const OperandSpec& o = ins.operands[i];
    const Field& f = spec.field(o.field);
    uint64_t v = operands[i];
    std::string who = ins.mnemonic + " operand " + o.name + ": ";
    if (o.kind == OperandKind::Zero && v != 0)
      throw std::invalid_argument(who + "must be 0, got " + std::to_string(v));
    if (o.kind == OperandKind::Gp || o.kind == OperandKind::Fp || o.kind == OperandKind::Addr) {
      const OperandKindSpec& k = spec.operand_kind(o.kind);
      if (v >= k.count)
        throw std::invalid_argument(who + "register " + k.prefix + std::to_string(v) +
                                    " does not exist (" + k.prefix + "0.." + k.prefix +
                                    std::to_string(k.count - 1) + ")");
    }
    if (v > mask(f))
      throw std::invalid_argument(who + "value " + std::to_string(v) + " does not fit field " +
                                  o.field + " (" + std::to_string(f.width()) + " bits)");
    word |= static_cast<uint32_t>(v) << f.lo;
  }
  return word;
}

}  // namespace moesim::isa
