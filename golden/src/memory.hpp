// Memories of the golden model: a plain byte-array Memory object (the storage and its payload
// checks) behind a MemoryTarget module that exposes it as TLM-2.0 target sockets, one per client
// unit (a multi-ported SRAM: each port is a tlm_utils::simple_target_socket, and simple target
// sockets bind to exactly one initiator). This follows the split of the Accellera TLM examples
// (lt_target delegating to memory::operation).
#pragma once

#include <tlm_utils/simple_target_socket.h>

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
  explicit Memory(uint64_t bytes) : data_(bytes, 0) {}

  /// True when [addr, addr+len) lies inside the memory (no wrap-around).
  bool contains(uint64_t addr, uint64_t len) const {
    return addr <= data_.size() && len <= data_.size() - addr;
  }

  /// Executes a TLM generic payload (read or write, no byte enables, streaming width = length)
  /// and sets its response: TLM_ADDRESS_ERROR_RESPONSE when the range is outside the memory,
  /// TLM_BYTE_ENABLE_ERROR_RESPONSE / TLM_BURST_ERROR_RESPONSE for unsupported attributes,
  /// TLM_COMMAND_ERROR_RESPONSE for TLM_IGNORE_COMMAND.
  void operation(tlm::tlm_generic_payload& p);

  /// Backdoor access for loading images and reading results (not a bus access).
  uint8_t* data() { return data_.data(); }
  const uint8_t* data() const { return data_.data(); }
  /// Zeroes the storage and the traffic counters.
  void clear();
  /// Replaces the storage with `bytes` (same size; checkpoint restore) and zeroes the counters.
  void assign(const std::vector<uint8_t>& bytes);
  /// The storage (checkpoint save).
  const std::vector<uint8_t>& bytes() const { return data_; }

  /// Bytes moved by successful bus reads / writes since the last clear() (backdoor accesses
  /// are not counted): the memory's own traffic count, used for the HBM stage profile.
  uint64_t bytes_read() const { return bytes_read_; }
  uint64_t bytes_written() const { return bytes_written_; }

 private:
  std::vector<uint8_t> data_;
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
