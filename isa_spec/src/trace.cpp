// Retire-record helpers (trace.hpp).
#include "moesim/isa/trace.hpp"

#include <algorithm>
#include <map>
#include <utility>

namespace moesim::isa {

const char* space_name(Space s) {
  switch (s) {
    case Space::Vram:
      return "vram";
    case Space::Mram:
      return "mram";
    case Space::FpSram:
      return "fp_sram";
    case Space::IntSram:
      return "int_sram";
    case Space::Hbm:
      return "hbm";
  }
  return "?";
}

const char* regfile_name(RegFile f) {
  switch (f) {
    case RegFile::Gp:
      return "gp";
    case RegFile::Fp:
      return "fp";
    case RegFile::Addr:
      return "addr";
    case RegFile::Ctrl:
      return "ctrl";
  }
  return "?";
}

const char* record_kind_name(RecordKind k) {
  switch (k) {
    case RecordKind::Retire:
      return "retire";
    case RecordKind::Transfer:
      return "transfer";
  }
  return "?";
}

const char* stall_cause_name(StallCause c) {
  if (c == StallCause::None) return "none";
  for (const StallCauseName& n : kStallCauseNames)
    if (n.cause == c) return n.name;
  return "?";
}

std::optional<StallCause> stall_cause_from_code(unsigned code) {
  if (code == 0) return StallCause::None;
  for (const StallCauseName& n : kStallCauseNames)
    if (static_cast<unsigned>(n.cause) == code) return n.cause;
  return std::nullopt;
}

void normalize(RetireRecord& r) {
  // Last value per register; gp0 and f0 writes are discarded (they never change state).
  std::map<std::pair<uint8_t, uint8_t>, uint64_t> last;
  for (const auto& w : r.regs) {
    if ((w.file == RegFile::Gp || w.file == RegFile::Fp) && w.index == 0) continue;
    last[{static_cast<uint8_t>(w.file), w.index}] = w.value;
  }
  r.regs.clear();
  for (const auto& [key, value] : last)
    r.regs.push_back(RegWrite{static_cast<RegFile>(key.first), key.second, value});

  // Sort and merge intervals per space; empty intervals are dropped. A merged interval's digest
  // is reset to 0 (the comparator fills digests after normalisation).
  std::vector<MemWrite> in;
  for (const auto& m : r.mems)
    if (m.end > m.begin) in.push_back(m);
  std::sort(in.begin(), in.end(), [](const MemWrite& a, const MemWrite& b) {
    if (a.space != b.space) return a.space < b.space;
    if (a.begin != b.begin) return a.begin < b.begin;
    return a.end < b.end;
  });
  r.mems.clear();
  for (const auto& m : in) {
    if (!r.mems.empty() && r.mems.back().space == m.space && m.begin <= r.mems.back().end) {
      MemWrite& prev = r.mems.back();
      prev.end = std::max(prev.end, m.end);
      prev.digest = 0;
    } else {
      r.mems.push_back(m);
    }
  }
}

uint64_t fnv1a64(const uint8_t* data, size_t n, uint64_t seed) {
  uint64_t h = seed;
  for (size_t i = 0; i < n; ++i) {
    h ^= data[i];
    h *= 0x100000001b3ull;
  }
  return h;
}

}  // namespace moesim::isa
