#include "unit.hpp"

#include <stdexcept>
#include <string>

namespace moesim::golden {

namespace {

/// Covers rows [first, first + count) of `space` once they are known to exist (the range is
/// only used when no trap was found).
void cover(TrapSet& t, isa::Space space, Addr first, uint64_t count, Access access) {
  t.cover(RowRange{space, static_cast<uint64_t>(first), count, access});
}

}  // namespace

void check_vram_rows(TrapSet& t, const Geometry& g, Addr elem, uint64_t rows, Access access) {
  t.add_if(elem % g.vlen != 0, isa::TrapCause::address_misaligned);
  check_vram_row_range(t, g, elem / g.vlen, rows, access);
}

void check_vram_row_range(TrapSet& t, const Geometry& g, Addr first, uint64_t count,
                          Access access) {
  check_range(t, first, count, g.vram_rows);
  cover(t, isa::Space::Vram, first, count, access);
}

void check_mram_rows(TrapSet& t, const Geometry& g, Addr first, uint64_t count, Access access) {
  check_range(t, first, count, g.mram_rows());
  cover(t, isa::Space::Mram, first, count, access);
}

void check_mram_tile(TrapSet& t, const Geometry& g, Addr tile, Access access) {
  check_range(t, tile, 1, g.mram_tiles);
  cover(t, isa::Space::Mram, tile * g.mlen, g.mlen, access);
}

void check_range(TrapSet& t, Addr first, uint64_t count, uint64_t size) {
  t.add_if(first + count > size, isa::TrapCause::address_out_of_range);
}

void MemPort::transport(tlm::tlm_command cmd, uint64_t addr, uint8_t* data, uint64_t n) {
  payload_.set_command(cmd);
  payload_.set_address(addr);
  payload_.set_data_ptr(data);
  payload_.set_data_length(static_cast<unsigned int>(n));
  payload_.set_streaming_width(static_cast<unsigned int>(n));
  payload_.set_byte_enable_ptr(nullptr);
  payload_.set_dmi_allowed(false);
  payload_.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
  sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
  socket->b_transport(payload_, delay);
  if (payload_.is_response_error()) {
    throw std::logic_error(std::string("golden: ") + socket.name() + ": " +
                           (cmd == tlm::TLM_READ_COMMAND ? "read" : "write") + " of " +
                           std::to_string(n) + " bytes at byte " + std::to_string(addr) + ": " +
                           payload_.get_response_string() +
                           " (an access the issue check should have trapped)");
  }
  (cmd == tlm::TLM_READ_COMMAND ? bytes_read_ : bytes_written_) += n;
}

void MemPort::read(uint64_t addr, uint8_t* dst, uint64_t n) {
  transport(tlm::TLM_READ_COMMAND, addr, dst, n);
}

void MemPort::write(uint64_t addr, const uint8_t* src, uint64_t n) {
  // The generic payload carries a non-const pointer; a write command never writes through it.
  transport(tlm::TLM_WRITE_COMMAND, addr, const_cast<uint8_t*>(src), n);
}

std::vector<uint16_t> MemPort::read_u16(uint64_t addr, uint64_t count) {
  std::vector<uint8_t> b(2 * count);
  read(addr, b.data(), b.size());
  std::vector<uint16_t> v(count);
  for (uint64_t i = 0; i < count; ++i) {
    v[i] = static_cast<uint16_t>(b[2 * i] | (b[2 * i + 1] << 8));
  }
  return v;
}

void MemPort::write_u16(uint64_t addr, const std::vector<uint16_t>& v) {
  std::vector<uint8_t> b(2 * v.size());
  for (size_t i = 0; i < v.size(); ++i) {
    b[2 * i] = static_cast<uint8_t>(v[i]);
    b[2 * i + 1] = static_cast<uint8_t>(v[i] >> 8);
  }
  write(addr, b.data(), b.size());
}

uint32_t MemPort::read_u32(uint64_t addr) {
  uint8_t b[4];
  read(addr, b, 4);
  return static_cast<uint32_t>(b[0]) | (static_cast<uint32_t>(b[1]) << 8) |
         (static_cast<uint32_t>(b[2]) << 16) | (static_cast<uint32_t>(b[3]) << 24);
}

void MemPort::write_u32(uint64_t addr, uint32_t v) {
  const uint8_t b[4] = {static_cast<uint8_t>(v), static_cast<uint8_t>(v >> 8),
                        static_cast<uint8_t>(v >> 16), static_cast<uint8_t>(v >> 24)};
  write(addr, b, 4);
}

}  // namespace moesim::golden
