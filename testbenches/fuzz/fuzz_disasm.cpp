// libFuzzer harness: the disassembler with its oracle. The input is read as a program, 7 bytes
// per instruction: the word (4 bytes, little-endian), a stage byte (an index into stages.yaml's
// stages) and two work-tag bytes (0: keep the previous tag; else token / slot / expert or an
// INT SRAM address). disassemble() -> assemble() must give the same words, stages and tags.
#include <cstddef>
#include <cstdint>
#include <vector>

#include "fuzz_common.hpp"

using namespace moesim;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const isa::Spec& spec = isa::Spec::builtin();
  static const std::vector<uint8_t> codes = [&] {
    std::vector<uint8_t> c;
    for (unsigned code = 0; code < 256; ++code)
      if (spec.stage_by_code(static_cast<uint8_t>(code))) c.push_back(static_cast<uint8_t>(code));
    return c;
  }();
  isa::Program p;
  isa::WorkTag tag;
  bool tagged = false;
  for (size_t at = 0; at + 7 <= size; at += 7) {
    const uint8_t* d = data + at;
    p.words.push_back(uint32_t{d[0]} | uint32_t{d[1]} << 8 | uint32_t{d[2]} << 16 |
                      uint32_t{d[3]} << 24);
    p.stages.push_back(codes[d[4] % codes.size()]);
    if (d[5] != 0) {
      // Small fields, with 0x7F / 0xFF as "none" (-1), and bit 7 of d[5]: expert read from INT
      // SRAM word d[6] (an address up to 255) instead of a known expert.
      tag.token = (d[5] & 0x0F) == 0x0F ? -1 : d[5] & 0x0F;
      tag.slot = (d[5] & 0x70) == 0x70 ? -1 : (d[5] >> 4) & 0x07;
      tag.expert = -1;
      tag.expert_at = -1;
      if (d[5] & 0x80)
        tag.expert_at = d[6];
      else
        tag.expert = d[6] == 0xFF ? -1 : d[6];
      tagged = true;
    }
    p.work.push_back(tag);
    p.lines.push_back(0);
  }
  if (!tagged) p.work.clear();
  fuzz::check_round_trip(spec, p);
  return 0;
}
