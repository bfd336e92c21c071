// Architectural state and retire records shared by both engines and the comparator
// (docs/architecture.md, Engines and co-simulation). Neither model's internals appear here.
//
// A RetireRecord describes one retired instruction or, with a DMA queue (machine.yaml DMA_QUEUE
// > 0, docs/overlap.md section 6), one completed transfer of a DMA instruction:
//   kind         retire or transfer
//   index        0-based retire count (a transfer: the retire index of its DMA instruction)
//   pc           instruction index (not bytes)
//   word         the 32-bit instruction word
//   stage        stage code (stages.yaml) carried with the instruction
//   ready_cycle  the cycle the core offered the instruction (its predecessor's end_cycle); a
//                transfer: its start_cycle
//   stall_cycles start_cycle - ready_cycle (hazard stalls; 0 for a transfer and when
//                DMA_QUEUE is 0)
//   stall_cause  what the stall cycles waited for (none when stall_cycles is 0)
//   start_cycle  first cycle the instruction occupies the core (its issue cycle); a transfer:
//                the first cycle it is in progress
//   end_cycle    end of the occupancy (the next instruction's ready cycle); a transfer: its
//                completion cycle
//   regs         register writes, last value per register, sorted by (file, index);
//                writes to gp0 and f0 are discarded and never recorded
//   mems         memory written, as merged intervals in the space's unit, sorted; the digest
//                is filled in by the comparator from each engine's memory after retire
//   hbm_read     HBM bytes the record's work read, each engine counting its own traffic (golden:
//   hbm_written  the TLM transactions of the DMA unit's execute(); RTL: the HBM DPI-C accesses
//                made while the instruction, or with a DMA queue the transfer, was the DMA
//                engine's): a DMA instruction's with DMA_QUEUE 0, else its transfer record's;
//                0 for every other record. The co-simulation bills them to the record's stage.
//   trap         set when the instruction trapped instead of retiring normally (it then has no
//                writes and the program stops)
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "moesim/isa/tables.hpp"

namespace moesim::isa {

/// Register files visible in retire records. Ctrl indices: CtrlReg (generated in tables.hpp from
/// isa.yaml `control_registers`).
enum class RegFile : uint8_t { Gp = 0, Fp = 1, Addr = 2, Ctrl = 3 };

/// Memory spaces and their address unit:
///   Vram: rows of VLEN BF16 (2*VLEN bytes per row, little-endian elements)
///   Mram: tile rows (global row index = tile*MLEN + row); per row MLEN E4M3 code bytes then
///         MLEN/MX_BLOCK E8M0 scale bytes
///   FpSram: BF16 words (2 bytes LE); IntSram: u32 words (4 bytes LE); Hbm: bytes
enum class Space : uint8_t { Vram = 0, Mram = 1, FpSram = 2, IntSram = 3, Hbm = 4 };
constexpr std::array<Space, 5> kAllSpaces{Space::Vram, Space::Mram, Space::FpSram, Space::IntSram,
                                          Space::Hbm};
const char* space_name(Space s);
const char* regfile_name(RegFile f);

struct RegWrite {
  RegFile file = RegFile::Gp;
  uint8_t index = 0;
  uint64_t value = 0;  ///< gp: u32, fp: BF16 bits, addr: u64, ctrl: u32
  bool operator==(const RegWrite& o) const {
    return file == o.file && index == o.index && value == o.value;
  }
};

struct MemWrite {
  Space space = Space::Vram;
  uint64_t begin = 0;   ///< first unit written
  uint64_t end = 0;     ///< one past the last
  uint64_t digest = 0;  ///< FNV-1a 64 of the bytes of [begin, end) after retire (comparator)
  bool operator==(const MemWrite& o) const {
    return space == o.space && begin == o.begin && end == o.end && digest == o.digest;
  }
};

struct Trap {
  uint8_t cause = 0;  ///< trap code from isa.yaml
  uint32_t pc = 0;
  uint32_t word = 0;
  bool operator==(const Trap& o) const { return cause == o.cause && pc == o.pc && word == o.word; }
};

/// One busy interval of a functional unit: unit `unit` (index into Spec::units(), the `units`
/// list of isa.yaml) was busy in cycles [begin, end), end > begin. Reported by both engines
/// (isa::Engine::take_unit_spans); not part of the retire record comparison.
struct UnitSpan {
  uint8_t unit = 0;
  uint64_t begin = 0;
  uint64_t end = 0;
  bool operator==(const UnitSpan& o) const {
    return unit == o.unit && begin == o.begin && end == o.end;
  }
};

/// What a record describes (docs/overlap.md section 6).
enum class RecordKind : uint8_t { Retire = 0, Transfer = 1 };
/// "retire", "transfer".
const char* record_kind_name(RecordKind k);
/// Why an instruction stalled (isa.yaml `stall_causes`, generated as isa::StallCause): its
/// name there, "none" for StallCause::None.
const char* stall_cause_name(StallCause c);
/// The stall cause of `code` (0: none), std::nullopt for a code isa.yaml does not define.
std::optional<StallCause> stall_cause_from_code(unsigned code);

struct RetireRecord {
  RecordKind kind = RecordKind::Retire;
  uint64_t index = 0;
  uint32_t pc = 0;
  uint32_t word = 0;
  uint8_t stage = 0;
  uint64_t ready_cycle = 0;
  uint64_t stall_cycles = 0;
  StallCause stall_cause = StallCause::None;
  uint64_t start_cycle = 0;
  uint64_t end_cycle = 0;
  std::vector<RegWrite> regs;
  std::vector<MemWrite> mems;
  uint64_t hbm_read = 0;
  uint64_t hbm_written = 0;
  std::optional<Trap> trap;
};

/// Sorts regs by (file,index) keeping the last value per register, and sorts/merges mems
/// (adjacent or overlapping intervals of one space become one). Both engines call this.
void normalize(RetireRecord& r);

/// Final architectural registers; sizes and reset values from isa.yaml (tables.hpp).
struct ArchRegs {
  std::array<uint32_t, kNumGpRegs> gp{};
  std::array<uint16_t, kNumFpRegs> fp{};
  std::array<uint64_t, kNumAddrRegs> addr{};
  uint32_t scale = kCtrlScaleReset;
  uint32_t stride = kCtrlStrideReset;
  uint32_t v_mask = kCtrlVMaskReset;
  uint32_t topk_policy = kCtrlTopkPolicyReset;
  bool topk_valid = false;
};

/// FNV-1a 64-bit over bytes.
uint64_t fnv1a64(const uint8_t* data, size_t n, uint64_t seed = 0xcbf29ce484222325ull);

}  // namespace moesim::isa
