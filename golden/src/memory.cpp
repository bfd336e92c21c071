#include "memory.hpp"

#include <sys/mman.h>

#include <algorithm>
#include <cstring>
#include <new>
#include <stdexcept>
#include <string>

namespace moesim::golden {

Memory::Memory(uint64_t bytes) : size_(bytes) {
  if (size_ == 0) return;
  // An anonymous private mapping reads as zeros and is backed page by page when written.
  void* p = mmap(nullptr, size_, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED) throw std::bad_alloc();
  data_ = static_cast<uint8_t*>(p);
#ifdef MADV_HUGEPAGE
  // Fewer, larger page faults and a fast unmap; only advice, so a refusal changes nothing.
  if (size_ >= (uint64_t{2} << 20)) madvise(p, size_, MADV_HUGEPAGE);
#endif
}

Memory::~Memory() {
  if (data_ != nullptr) munmap(data_, size_);
}

void Memory::load(uint64_t base, const uint8_t* src, uint64_t n) {
  if (n == 0) return;
  std::memcpy(data_ + base, src, n);
  dirty(base, base + n);
}

void Memory::clear() {
  if (dirty_lo_ < dirty_hi_) std::memset(data_ + dirty_lo_, 0, dirty_hi_ - dirty_lo_);
  dirty_lo_ = UINT64_MAX;
  dirty_hi_ = 0;
  bytes_read_ = bytes_written_ = 0;
}

void Memory::assign(const std::vector<uint8_t>& bytes) {
  if (bytes.size() != size_)
    throw std::invalid_argument("golden: memory of " + std::to_string(size_) +
                                " bytes restored from " + std::to_string(bytes.size()));
  load(0, bytes.data(), size_);
  bytes_read_ = bytes_written_ = 0;
}

void Memory::operation(tlm::tlm_generic_payload& p) {
  const uint64_t addr = p.get_address();
  const uint64_t len = p.get_data_length();
  if (p.get_byte_enable_ptr() != nullptr) {
    p.set_response_status(tlm::TLM_BYTE_ENABLE_ERROR_RESPONSE);
    return;
  }
  if (p.get_streaming_width() != len) {
    p.set_response_status(tlm::TLM_BURST_ERROR_RESPONSE);
    return;
  }
  if (!contains(addr, len)) {
    p.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
    return;
  }
  switch (p.get_command()) {
    case tlm::TLM_READ_COMMAND:
      std::memcpy(p.get_data_ptr(), data_ + addr, len);
      bytes_read_ += len;
      break;
    case tlm::TLM_WRITE_COMMAND:
      std::memcpy(data_ + addr, p.get_data_ptr(), len);
      if (len != 0) dirty(addr, addr + len);
      bytes_written_ += len;
      break;
    case tlm::TLM_IGNORE_COMMAND:
      p.set_response_status(tlm::TLM_COMMAND_ERROR_RESPONSE);
      return;
  }
  p.set_dmi_allowed(false);
  p.set_response_status(tlm::TLM_OK_RESPONSE);
}

MemoryTarget::MemoryTarget(sc_core::sc_module_name name, Memory& memory,
                           const std::vector<std::string>& port_names)
    : sc_module(name), memory_(memory) {
  for (const auto& n : port_names) {
    ports_.push_back(std::make_unique<Socket>(n.c_str()));
    ports_.back()->register_b_transport(this, &MemoryTarget::b_transport);
  }
}

MemoryTarget::Socket& MemoryTarget::port(const std::string& port_name) {
  for (auto& s : ports_) {
    if (port_name == s->basename()) return *s;
  }
  throw std::logic_error("golden: " + std::string(name()) + " has no port '" + port_name + "'");
}

void MemoryTarget::b_transport(tlm::tlm_generic_payload& p, sc_core::sc_time& /*delay*/) {
  memory_.operation(p);
}

}  // namespace moesim::golden
