#include "memory.hpp"

#include <algorithm>
#include <cstring>
#include <stdexcept>
#include <string>

namespace moesim::golden {

void Memory::clear() {
  std::fill(data_.begin(), data_.end(), uint8_t{0});
  bytes_read_ = bytes_written_ = 0;
}

void Memory::assign(const std::vector<uint8_t>& bytes) {
  if (bytes.size() != data_.size())
    throw std::invalid_argument("golden: memory of " + std::to_string(data_.size()) +
                                " bytes restored from " + std::to_string(bytes.size()));
  data_ = bytes;
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
      std::memcpy(p.get_data_ptr(), data_.data() + addr, len);
      bytes_read_ += len;
      break;
    case tlm::TLM_WRITE_COMMAND:
      std::memcpy(data_.data() + addr, p.get_data_ptr(), len);
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
