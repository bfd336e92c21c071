// Memories of the golden model: a plain byte-array Memory object (the storage and its payload
// checks) behind a MemoryTarget module that exposes it as TLM-2.0 target sockets, one per client
// unit (a multi-ported SRAM: each port is a tlm_utils::simple_target_socket, and simple target
// sockets bind to exactly one initiator). This follows the split of the Accellera TLM examples
// (lt_target delegating to memory::operation).
#pragma once

#include <tlm_utils/simple_target_socket.h>

#include <algorithm>
#include <cstdint>
#include <memory>
#include <string>
#include <systemc>
#include <tlm>
#include <vector>

namespace moesim::golden {

/// Byte-addressed storage of one memory space. Addresses are byte offsets into the space's byte
/// image (program.hpp MemoryImage, trace.hpp Space).
class Memory {
 public:
  /// Zeroed storage of `bytes` bytes, mapped anonymously and not touched here: a page costs
  /// only when a run writes it (HBM is 1 GiB on the bench machine, and first touches of memory
  /// are slow on a virtual machine); large memories are advised as transparent huge pages.
  explicit Memory(uint64_t bytes);
  ~Memory();
  Memory(const Memory&) = delete;
  Memory& operator=(const Memory&) = delete;

  uint64_t size() const { return size_; }

  /// True when [addr, addr+len) lies inside the memory (no wrap-around).
  bool contains(uint64_t addr, uint64_t len) const { return addr <= size_ && len <= size_ - addr; }

  /// Executes a TLM generic payload (read or write, no byte enables, streaming width = length)
  /// and sets its response: TLM_ADDRESS_ERROR_RESPONSE when the range is outside the memory,
  /// TLM_BYTE_ENABLE_ERROR_RESPONSE / TLM_BURST_ERROR_RESPONSE for unsupported attributes,
  /// TLM_COMMAND_ERROR_RESPONSE for TLM_IGNORE_COMMAND.
  void operation(tlm::tlm_generic_payload& p);

  /// Backdoor access for reading results (not a bus access).
  const uint8_t* data() const { return data_; }
  /// Backdoor write of `n` bytes at byte offset `base` for loading images (not a bus access);
  /// the caller checks the range.
  void load(uint64_t base, const uint8_t* src, uint64_t n);
  /// Zeroes the storage (the bytes written since the last clear) and the traffic counters.
  void clear();
  /// Replaces the storage with `bytes` (same size; checkpoint restore) and zeroes the counters.
  void assign(const std::vector<uint8_t>& bytes);
  /// A copy of the storage (checkpoint save).
  std::vector<uint8_t> bytes() const { return std::vector<uint8_t>(data_, data_ + size_); }

  /// Bytes moved by successful bus reads / writes since the last clear() (backdoor accesses
  /// are not counted): the memory's own traffic count, used for the HBM stage profile.
  uint64_t bytes_read() const { return bytes_read_; }
  uint64_t bytes_written() const { return bytes_written_; }

 private:
  /// Widens the extent of bytes written since the last clear() to [lo, hi).
  void dirty(uint64_t lo, uint64_t hi) {
    dirty_lo_ = std::min(dirty_lo_, lo);
    dirty_hi_ = std::max(dirty_hi_, hi);
  }

  uint8_t* data_ = nullptr;
  uint64_t size_ = 0;
  uint64_t dirty_lo_ = UINT64_MAX, dirty_hi_ = 0;  ///< written since the last clear()
  uint64_t bytes_read_ = 0, bytes_written_ = 0;
};

/// TLM-2.0 target wrapping a Memory. Each port is a simple_target_socket named after the unit
/// that drives it ("vec2vram", ...); all ports reach the same storage with zero annotated delay
/// (timing is the instruction latency, billed by the core).
class MemoryTarget : public sc_core::sc_module {
 public:
  using Socket = tlm_utils::simple_target_socket<MemoryTarget>;

  MemoryTarget(sc_core::sc_module_name name, Memory& memory,
               const std::vector<std::string>& port_names);

  /// The port with this name. Throws std::logic_error if there is none.
  Socket& port(const std::string& port_name);

 private:
  void b_transport(tlm::tlm_generic_payload& p, sc_core::sc_time& delay);

  Memory& memory_;
  std::vector<std::unique_ptr<Socket>> ports_;
};

}  // namespace moesim::golden
