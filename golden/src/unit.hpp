// What the core and the execution units share: the cycle clock, the queue of published records,
// the issue packet, the effects a unit reports, the set of trap causes an issue check finds (with
// the VRAM / MRAM rows the checks covered: the instruction's footprint), the unit interface the
// core dispatches through, and a memory port (a TLM-2.0 initiator socket with typed little-endian
// accessors).
#pragma once

#include <tlm_utils/simple_initiator_socket.h>

#include <array>
#include <cstdint>
#include <deque>
#include <map>
#include <optional>
#include <string>
#include <systemc>
#include <tlm>
#include <vector>

#include "geometry.hpp"
#include "moesim/isa/encoding.hpp"
#include "moesim/isa/tables.hpp"
#include "moesim/isa/trace.hpp"

namespace moesim::golden {

/// One clock cycle (1 ns). A function, not a static object: an sc_time must not be built before
/// the SystemC kernel exists.
inline sc_core::sc_time clock_period() { return sc_core::sc_time(1, sc_core::SC_NS); }

/// Machine cycles: the cycle count `base` at simulation time `origin` (load: 0 at the time of
/// the load; restore: the checkpoint's cycle).
struct CycleClock {
  sc_core::sc_time origin;
  uint64_t base = 0;
  void restart(uint64_t cycle) {
    origin = sc_core::sc_time_stamp();
    base = cycle;
  }
  uint64_t now() const {
    return base + (sc_core::sc_time_stamp() - origin).value() / clock_period().value();
  }
};

/// The records GoldenModel::step() returns, in the order the core and the DMA engine publish
/// them (docs/overlap.md section 6: by end cycle, a transfer before a retire at equal cycles).
/// publish() pauses the simulation at the end of the current delta cycle, so the memories hold
/// no later write when step() returns the record.
class RecordQueue {
 public:
  void publish(isa::RetireRecord&& r) {
    records_.push_back(std::move(r));
    sc_core::sc_pause();
  }
  std::optional<isa::RetireRecord> take() {
    if (records_.empty()) return std::nullopt;
    std::optional<isa::RetireRecord> r(std::move(records_.front()));
    records_.pop_front();
    return r;
  }
  bool empty() const { return records_.empty(); }
  void clear() { records_.clear(); }

 private:
  std::deque<isa::RetireRecord> records_;
};

/// How an instruction accesses a range of rows.
enum class Access : uint8_t { Read = 1, Write = 2, ReadWrite = 3 };
inline bool reads(Access a) { return (static_cast<uint8_t>(a) & 1) != 0; }
inline bool writes(Access a) { return (static_cast<uint8_t>(a) & 2) != 0; }

/// Rows [first, first + count) of VRAM (rows of VLEN) or MRAM (global tile rows) that an
/// instruction accesses (docs/overlap.md section 3, footprints).
struct RowRange {
  isa::Space space = isa::Space::Vram;
  uint64_t first = 0;
  uint64_t count = 0;
  Access access = Access::Read;
  bool meets(const RowRange& o) const {
    return space == o.space && first < o.first + o.count && o.first < first + count;
  }
};

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
  uint64_t hbm_read = 0, hbm_written = 0;  ///< bytes of the HBM transactions (the DMA unit's)
  void write_reg(isa::RegFile file, uint8_t index, uint64_t value) {
    regs.push_back(isa::RegWrite{file, index, value});
  }
  void wrote(isa::Space space, uint64_t begin, uint64_t end) {
    mems.push_back(isa::MemWrite{space, begin, end, 0});
  }
};

/// Trap causes found by an issue check. The core raises the one listed first in the
/// instruction's `traps` list of isa.yaml. It also holds the VRAM / MRAM row ranges the address
/// checks covered (check_vram_rows and friends): the instruction's footprint, the one source of
/// the scoreboard's regions (docs/overlap.md section 3).
class TrapSet {
 public:
  static constexpr size_t kMaxRanges = 4;
  void add(isa::TrapCause c) { bits_ |= uint64_t{1} << static_cast<unsigned>(c); }
  void add_if(bool cond, isa::TrapCause c) {
    if (cond) add(c);
  }
  bool has(uint8_t code) const { return code < 64 && ((bits_ >> code) & 1) != 0; }
  bool empty() const { return bits_ == 0; }
  uint64_t bits() const { return bits_; }

  /// Records a row range the checks covered.
  void cover(const RowRange& r) { ranges_.at(nranges_++) = r; }
  const RowRange* begin() const { return ranges_.data(); }
  const RowRange* end() const { return ranges_.data() + nranges_; }

 private:
  uint64_t bits_ = 0;
  std::array<RowRange, kMaxRanges> ranges_{};
  size_t nranges_ = 0;
};

/// VRAM access of `rows` consecutive rows starting at element address `elem`: address_misaligned
/// unless elem is a multiple of VLEN, address_out_of_range unless every row exists. Covers the
/// rows with `access`.
void check_vram_rows(TrapSet& t, const Geometry& g, Addr elem, uint64_t rows, Access access);
/// VRAM access of rows [first, first + count): address_out_of_range unless every row exists.
void check_vram_row_range(TrapSet& t, const Geometry& g, Addr first, uint64_t count, Access access);
/// MRAM access of global tile rows [first, first + count): address_out_of_range unless every row
/// exists.
void check_mram_rows(TrapSet& t, const Geometry& g, Addr first, uint64_t count, Access access);
/// MRAM access of the whole tile `tile` (its MLEN rows): address_out_of_range unless it exists.
void check_mram_tile(TrapSet& t, const Geometry& g, Addr tile, Access access);
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
  /// Bytes of the read / write transactions completed through this port so far.
  uint64_t bytes_read() const { return bytes_read_; }
  uint64_t bytes_written() const { return bytes_written_; }

 private:
  void transport(tlm::tlm_command cmd, uint64_t addr, uint8_t* data, uint64_t n);
  tlm::tlm_generic_payload payload_;
  uint64_t bytes_read_ = 0, bytes_written_ = 0;
};

}  // namespace moesim::golden
