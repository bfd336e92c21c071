// Programs and memory images: what both engines load (docs/architecture.md, Stages;
// Engines and co-simulation).
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace moesim::isa {

/// The token / expert pair an instruction works on, from the builder's `; @pair=T,S,E`
/// markers; shown in timelines, no effect on execution. -1 = none. The expert is known when the
/// program is built (`expert`) or read at run time from INT SRAM word `expert_at` (an element
/// address, e.g. the index V_TOPK wrote).
struct WorkTag {
  int32_t token = -1;
  int32_t slot = -1;  ///< routing slot j < k of the token, -1 if not per slot
  int32_t expert = -1;
  int64_t expert_at = -1;
  bool operator==(const WorkTag& o) const {
    return token == o.token && slot == o.slot && expert == o.expert && expert_at == o.expert_at;
  }
};

/// Text of a work tag as written after `@pair=`: "T,S,E" with `-` for an absent field and E
/// either a number or `int[A]` (expert read from INT SRAM word A); "-" for no tag at all.
std::string format_work_tag(const WorkTag& t);
/// Parses format_work_tag()'s text. Throws std::invalid_argument with a message naming the bad
/// part (values must fit int32, addresses int64; no signs, no blanks).
WorkTag parse_work_tag(const std::string& text);

/// An assembled program. words[i] is the instruction at pc i, stages[i] its stage code
/// (the side table the assembler emits; the loader places it beside each word), lines[i] the
/// 1-based source line (0 if unknown), source the file name for messages.
struct Program {
  std::vector<uint32_t> words;
  std::vector<uint8_t> stages;
  std::vector<uint32_t> lines;
  std::vector<WorkTag> work;  ///< per instruction; empty = no tags
  std::string source;
  size_t size() const { return words.size(); }
};

/// A run of initial bytes of one space, at byte offset `base` of that space's byte image.
struct MemorySegment {
  uint64_t base = 0;
  std::vector<uint8_t> bytes;
};

/// Initial contents per space. Offsets are in BYTES from the start of each space's byte image:
///   vram: row r element e at byte 2*(r*VLEN + e); mram: tile row g at byte g*(MLEN +
///   MLEN/MX_BLOCK) fp_sram: word w at byte 2*w; int_sram: word w at byte 4*w; hbm: byte address.
struct MemoryImage {
  std::vector<MemorySegment> vram, mram, fp_sram, int_sram, hbm;
};

/// Program files: `<name>.hex` holds one "0x%08X" word per line (PLENA's format); the side
/// table `<name>.stages` holds one stage name per line, same order, followed by ` @pair=TAG`
/// when the instruction has a work tag. Errors name file:line.
void write_program(const Program& p, const std::filesystem::path& hex_path);

/// The stage table beside a program file: `hex_path` with the extension .stages.
std::filesystem::path stages_path(const std::filesystem::path& hex_path);
Program read_program(
    const std::filesystem::path& hex_path);  ///< reads .stages beside it if present

}  // namespace moesim::isa
