// What the core and the execution units share: the issue packet, the effects a unit reports, the
// set of trap causes an issue check finds, the unit interface the core dispatches through, and a
// memory port (a TLM-2.0 initiator socket with typed little-endian accessors).
#pragma once

#include <tlm_utils/simple_initiator_socket.h>

#include <cstdint>
#include <map>
#include <string>
#include <systemc>
#include <tlm>
#include <vector>

#include "geometry.hpp"
#include "moesim/isa/encoding.hpp"
#include "moesim/isa/tables.hpp"
#include "moesim/isa/trace.hpp"

namespace moesim::golden {

/// One instruction at issue: its decoded fields and the architectural registers at issue
/// (gp[0] and f[0] read 0). Units read operand values from `regs`; they never write it.
struct Issue {
  const isa::Decoded& d;
  isa::Opcode op;
  const isa::ArchRegs& regs;
  uint32_t gp(uint8_t index) const { return regs.gp[index]; }
};

/// Effects of one executed instruction: register writes for the core to apply (in order) and the
/// memory intervals written, in each space's unit (trace.hpp).
struct Effects {
  std::vector<isa::RegWrite> regs;
  std::vector<isa::MemWrite> mems;
  void write_reg(isa::RegFile file, uint8_t index, uint64_t value) {
    regs.push_back(isa::RegWrite{file, index, value});
  }
  void wrote(isa::Space space, uint64_t begin, uint64_t end) {
    mems.push_back(isa::MemWrite{space, begin, end, 0});
  }
};

/// Trap causes found by an issue check. The core raises the one listed first in the
/// instruction's `traps` list of isa.yaml.
class TrapSet {
 public:
  void add(isa::TrapCause c) { bits_ |= uint64_t{1} << static_cast<unsigned>(c); }
  void add_if(bool cond, isa::TrapCause c) {
    if (cond) add(c);
  }
  bool has(uint8_t code) const { return code < 64 && ((bits_ >> code) & 1) != 0; }
  bool empty() const { return bits_ == 0; }
  uint64_t bits() const { return bits_; }

 private:
  uint64_t bits_ = 0;
};

/// VRAM access of `rows` consecutive rows starting at element address `elem`: address_misaligned
/// unless elem is a multiple of VLEN, address_out_of_range unless every row exists.
void check_vram_rows(TrapSet& t, const Geometry& g, Addr elem, uint64_t rows);
/// Access of `count` units starting at `first` in a space of `size` units: address_out_of_range
/// unless [first, first+count) lies inside.
void check_range(TrapSet& t, Addr first, uint64_t count, uint64_t size);

/// The interface the core dispatches through (one sc_port per unit). Methods run in the core's
/// thread (interface method calls); memory traffic goes through the unit's initiator sockets.
class UnitIf : public virtual sc_core::sc_interface {
 public:
  /// True if this unit executes `op` (the core checks every isa.yaml instruction of the unit at
  /// elaboration, so an opcode added to the spec and not to the model fails at construction).
  virtual bool implements(isa::Opcode op) const = 0;
  /// Trap causes of the instruction at issue (register and memory values at issue). Nothing is
  /// written.
  virtual TrapSet check(const Issue& is) = 0;
  /// Dynamic latency variables (isa.yaml latency_vars) of an instruction that passed check().
  virtual std::map<std::string, int64_t> latency_vars(const Issue& is) const = 0;
  /// Executes an instruction that passed check(): memory writes through the sockets, register
  /// writes and memory intervals into `fx`.
  virtual void execute(const Issue& is, Effects& fx) = 0;
};

/// A unit's connection to one memory: a TLM-2.0 initiator socket (blocking transport) plus typed
/// accessors on byte addresses of the space's image. An error response means an access that the
/// issue check should have trapped: it throws std::logic_error naming the socket and range.
class MemPort {
 public:
  using Socket = tlm_utils::simple_initiator_socket<MemPort>;
  explicit MemPort(const char* name) : socket(name) {}

  Socket socket;

  void read(uint64_t addr, uint8_t* dst, uint64_t n);
  void write(uint64_t addr, const uint8_t* src, uint64_t n);
  /// `count` little-endian 16-bit words from byte address `addr`.
  std::vector<uint16_t> read_u16(uint64_t addr, uint64_t count);
  void write_u16(uint64_t addr, const std::vector<uint16_t>& v);
  uint32_t read_u32(uint64_t addr);
  void write_u32(uint64_t addr, uint32_t v);

 private:
  void transport(tlm::tlm_command cmd, uint64_t addr, uint8_t* data, uint64_t n);
  tlm::tlm_generic_payload payload_;
};

}  // namespace moesim::golden
