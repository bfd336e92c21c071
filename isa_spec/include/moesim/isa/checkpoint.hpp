// Checkpoints of architectural state (docs/checkpoints.md): everything that determines the
// future of a run at an instruction boundary, in a versioned file with a checksum and the
// identity of the YAML, preset and program it was made with. Both engines save and restore an
// ArchState through isa::Engine; this file holds the state, the identity and the file format, so
// that the golden model and the RTL wrapper share the format and nothing else.
#pragma once

#include <array>
#include <cstdint>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <vector>

#include "moesim/isa/program.hpp"
#include "moesim/isa/spec.hpp"
#include "moesim/isa/trace.hpp"

namespace moesim::isa {

/// Version of the checkpoint file format this build writes and reads (docs/checkpoints.md).
constexpr uint32_t kCheckpointVersion = 2;

/// One active loop of the loop stack (C_LOOP_START / C_LOOP_END / C_BREAK).
struct LoopEntry {
  uint32_t body = 0;    ///< pc of the first instruction of the loop body
  bool broken = false;  ///< C_BREAK marked the loop: its C_LOOP_END exits
  bool operator==(const LoopEntry& o) const { return body == o.body && broken == o.broken; }
};

/// The architectural state of a machine at an instruction boundary (after a retire, before the
/// next issue). Everything an instruction can read, plus the position of the run.
struct ArchState {
  uint32_t pc = 0;                  ///< next instruction (program size: halted)
  uint64_t retired = 0;             ///< instructions retired so far
  uint64_t cycle = 0;               ///< end cycle of the last retired instruction
  uint64_t instruction_budget = 0;  ///< INSTRUCTION_BUDGET of the run (machine.yaml `runtime`)
  ArchRegs regs;  ///< gp, fp, addr, SCALE, STRIDE, V_MASK, TOPK_POLICY and its valid bit
  std::vector<LoopEntry> loops;  ///< active loops, outermost first (at most LOOP_DEPTH)
  /// The matrix unit's accumulators as FP32 bit patterns (isa.yaml matrix unit state):
  /// acc[i][j] at i*BLEN + j (M_MM / M_TMM), vacc[j] (M_MV / M_TMV), hv[b][c] at b*MLEN + c
  /// (M_BMV / M_BTMV), hm[b*MLEN + m][c] at (b*MLEN + m)*MLEN + c (M_BMM / M_BTMM).
  std::vector<uint32_t> acc, vacc, hv, hm;
  /// Byte image of every memory space, indexed by isa::Space (trace.hpp layout).
  std::array<std::vector<uint8_t>, kAllSpaces.size()> mem;
};

/// Sizes an ArchState of `preset` has: accumulator words and bytes per space.
struct StateShape {
  size_t acc = 0, vacc = 0, hv = 0, hm = 0;
  std::array<uint64_t, kAllSpaces.size()> mem_bytes{};
  uint64_t loop_depth = 0;
};
StateShape state_shape(const MachinePreset& preset);

/// Throws std::invalid_argument naming the first element whose size does not fit `preset`.
void check_state_shape(const ArchState& s, const MachinePreset& preset);

/// Throws std::invalid_argument naming the first position field that no run of a program of
/// `program_words` instructions can reach: pc past the program, a loop body past it, budget 0,
/// more retires than the budget, fewer cycles than retires.
void check_state_position(const ArchState& s, size_t program_words);

/// Per space, the 4096-byte pages a checkpoint of `s` stores (those that differ from the run's
/// initial image) and the space's pages in all.
struct StoredPages {
  uint64_t stored = 0, total = 0;
};
std::array<StoredPages, kAllSpaces.size()> stored_pages(const ArchState& s,
                                                        const MemoryImage& initial);

/// Differences between two states, one readable line per differing element (pc, retired,
/// cycle, each register, the loop stack, each accumulator word, and per memory space the
/// number of differing bytes with the first one), at most `max_lines`.
std::vector<std::string> state_differences(const ArchState& a, const ArchState& b,
                                           size_t max_lines = 16);

/// What a checkpoint was made with; a reader holds a checkpoint to the identity it expects.
struct CheckpointId {
  std::string preset;         ///< machine.yaml preset name
  uint64_t isa_yaml = 0;      ///< FNV-1a 64 of isa.yaml's bytes
  uint64_t machine_yaml = 0;  ///< FNV-1a 64 of machine.yaml's bytes
  uint64_t program = 0;       ///< program_identity() of the program
  uint64_t image = 0;         ///< image_identity() of the initial memory image of the run
};

/// FNV-1a 64 of the program's words and stage codes (what the engines load).
uint64_t program_identity(const Program& p);
/// FNV-1a 64 of the initial image: each space's segments (base, length, bytes) in order.
uint64_t image_identity(const MemoryImage& image);
/// The identity of a run of `program` from `image` on `preset` with the YAML of `spec`.
CheckpointId checkpoint_id(const Spec& spec, const MachinePreset& preset, const Program& program,
                           const MemoryImage& image);

struct Checkpoint {
  CheckpointId id;
  ArchState state;
};

/// A checkpoint file that cannot be used: what() names the file and what is wrong or differs.
class CheckpointError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// The file's bytes (docs/checkpoints.md). `initial` is the run's initial memory image (the one
/// c.id.image names): each memory is stored as the pages that differ from it.
std::string encode_checkpoint(const Checkpoint& c, const MemoryImage& initial);
/// The largest memory space a checkpoint may hold when no machine preset bounds it (4 GiB; the
/// largest space of machine.yaml, `bench`'s HBM, is 1 GiB).
constexpr uint64_t kMaxCheckpointSpaceBytes = uint64_t{1} << 32;

/// Parses bytes of a checkpoint file named `name` in messages; its memories are `initial` with
/// the stored pages over it. Throws CheckpointError for bad magic, another version, a truncated
/// file, a checksum mismatch or a malformed section (bytes after a section's fields included);
/// with `expected`, also if the preset, isa.yaml, machine.yaml, program or image differ, naming
/// which (with both values), and `initial` must be the image expected->image names; without it,
/// if `initial` is not the image the file was made from. With `preset`, every size the file
/// states (accumulator words, space bytes, active loops) must be the preset's, checked before
/// anything of that size is allocated; without it, a space is at most kMaxCheckpointSpaceBytes.
Checkpoint decode_checkpoint(const std::string& bytes, const std::string& name,
                             const MemoryImage& initial, const CheckpointId* expected = nullptr,
                             const MachinePreset* preset = nullptr);

/// Writes `c` to `path` (write_file: a failed write throws std::runtime_error naming the path).
void write_checkpoint(const Checkpoint& c, const MemoryImage& initial,
                      const std::filesystem::path& path);
/// Reads and verifies the file (decode_checkpoint): a regular file no larger than a checkpoint
/// of `preset` can be (anything else throws CheckpointError "PATH: ..." before it is read); with
/// `preset`, also throws if the state's sizes do not fit it (check_state_shape); with `program`,
/// if the position cannot be one of its runs (check_state_position).
Checkpoint read_checkpoint(const std::filesystem::path& path, const MemoryImage& initial,
                           const CheckpointId* expected = nullptr,
                           const MachinePreset* preset = nullptr, const Program* program = nullptr);

}  // namespace moesim::isa
