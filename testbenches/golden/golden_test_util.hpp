// Helpers of the golden-model tests: a bench that assembles, loads and steps a program to its end,
// memory-image builders, exact BF16 constants, and the latency of an instruction from isa.yaml.
//
// Expected values in the tests are derived by hand from isa.yaml; BF16 constants are written as
// bit patterns or built with bf(), which only accepts values exactly representable in BF16 (no
// rounding happens in the tests).
#pragma once

#include <boost/test/unit_test.hpp>
#include <cstdint>
#include <cstring>
#include <map>
#include <ostream>
#include <stdexcept>
#include <string>
#include <vector>

#include "moesim/golden/model.hpp"
#include "moesim/isa/assembler.hpp"
#include "moesim/isa/encoding.hpp"
#include "moesim/isa/spec.hpp"

namespace moesim::isa {
inline std::ostream& operator<<(std::ostream& o, const RegWrite& w) {
  return o << regfile_name(w.file) << int(w.index) << "=0x" << std::hex << w.value << std::dec;
}
inline std::ostream& operator<<(std::ostream& o, const MemWrite& m) {
  return o << space_name(m.space) << "[" << m.begin << "," << m.end << ")";
}
}  // namespace moesim::isa

namespace gt {

using moesim::golden::GoldenModel;
namespace isa = moesim::isa;
using isa::MemWrite;
using isa::RegFile;
using isa::RegWrite;
using isa::Space;

inline const isa::Spec& spec() { return isa::Spec::builtin(); }
/// The tiny preset, run serially (DMA_QUEUE 0, docs/overlap.md): the golden tests' timelines are
/// isa.yaml's serial latencies (machine.yaml gives tiny a queue; test_golden_overlap sets its own).
inline isa::MachinePreset tiny() {
  isa::MachinePreset p = spec().preset("tiny");
  p.params.at("DMA_QUEUE") = 0;
  return p;
}

/// BF16 bits of a float that BF16 represents exactly (throws otherwise: tests never round).
inline uint16_t bf(float f) {
  uint32_t b;
  std::memcpy(&b, &f, 4);
  if ((b & 0xFFFFu) != 0) throw std::invalid_argument("bf(): value not exact in BF16");
  return static_cast<uint16_t>(b >> 16);
}

inline std::vector<uint8_t> le16(const std::vector<uint16_t>& v) {
  std::vector<uint8_t> b;
  for (uint16_t x : v) {
    b.push_back(static_cast<uint8_t>(x));
    b.push_back(static_cast<uint8_t>(x >> 8));
  }
  return b;
}

inline std::vector<uint8_t> le32(const std::vector<uint32_t>& v) {
  std::vector<uint8_t> b;
  for (uint32_t x : v) {
    for (int i = 0; i < 4; ++i) b.push_back(static_cast<uint8_t>(x >> (8 * i)));
  }
  return b;
}

inline std::vector<uint16_t> from_le16(const std::vector<uint8_t>& b) {
  std::vector<uint16_t> v(b.size() / 2);
  for (size_t i = 0; i < v.size(); ++i)
    v[i] = static_cast<uint16_t>(b[2 * i] | (b[2 * i + 1] << 8));
  return v;
}

/// A row of n copies of `x`.
inline std::vector<uint16_t> fill(size_t n, uint16_t x) { return std::vector<uint16_t>(n, x); }

/// Owns the process's GoldenModel (one per process: one simulating test case per ctest entry).
struct Bench {
  explicit Bench(isa::MachinePreset p = tiny()) : preset(std::move(p)), model(spec(), preset) {}

  isa::MachinePreset preset;
  GoldenModel model;
  isa::MemoryImage image;
  std::vector<isa::RetireRecord> recs;

  uint64_t vlen() const { return static_cast<uint64_t>(preset.vlen()); }

  /// Image builders (element/word/byte addresses of each space).
  void vram_row(uint64_t row, const std::vector<uint16_t>& v) {
    image.vram.push_back({row * 2 * vlen(), le16(v)});
  }
  void fp_words(uint64_t word, const std::vector<uint16_t>& v) {
    image.fp_sram.push_back({2 * word, le16(v)});
  }
  void int_words(uint64_t word, const std::vector<uint32_t>& v) {
    image.int_sram.push_back({4 * word, le32(v)});
  }
  void hbm_bytes(uint64_t addr, const std::vector<uint8_t>& v) { image.hbm.push_back({addr, v}); }

  /// Loads `program` with the image built so far and steps it to the end.
  void run(const isa::Program& program) {
    recs.clear();
    model.load(program, image);
    isa::RetireRecord r;
    while (model.step(r)) recs.push_back(r);
  }
  void run(const std::string& text) { run(isa::assemble(spec(), text, "test.asm")); }

  /// Reads back.
  std::vector<uint16_t> row(uint64_t r) const { return from_le16(model.read(Space::Vram, r, 1)); }
  std::vector<uint16_t> fp(uint64_t w, uint64_t n) const {
    return from_le16(model.read(Space::FpSram, w, n));
  }
  uint32_t int_word(uint64_t w) const {
    const std::vector<uint8_t> b = model.read(Space::IntSram, w, 1);
    return b[0] | (b[1] << 8) | (b[2] << 16) | (static_cast<uint32_t>(b[3]) << 24);
  }

  /// Latency of `mnemonic` from isa.yaml on this preset.
  int64_t lat(const std::string& mnemonic, const std::map<std::string, int64_t>& dyn = {}) const {
    return spec().latency(*spec().by_mnemonic(mnemonic), preset, dyn);
  }

  /// The records form one timeline starting at 0 and record i lasts lats[i] cycles (a trap 0).
  void check_timeline(const std::vector<int64_t>& lats) const {
    BOOST_TEST_REQUIRE(recs.size() == lats.size());
    uint64_t t = 0;
    for (size_t i = 0; i < recs.size(); ++i) {
      BOOST_TEST_CONTEXT("record " << i << " pc " << recs[i].pc) {
        BOOST_TEST(recs[i].index == i);
        BOOST_TEST(recs[i].start_cycle == t);
        BOOST_TEST(recs[i].end_cycle == t + static_cast<uint64_t>(lats[i]));
        t = recs[i].end_cycle;
      }
    }
  }

  /// The last record is a trap of `cause` at `pc` with no writes and end == start.
  void check_trap(uint8_t cause, uint32_t pc) const {
    BOOST_TEST_REQUIRE(!recs.empty());
    const isa::RetireRecord& r = recs.back();
    BOOST_TEST_REQUIRE(r.trap.has_value());
    BOOST_TEST(int(r.trap->cause) == int(cause));
    BOOST_TEST(r.trap->pc == pc);
    BOOST_TEST(r.pc == pc);
    BOOST_TEST(r.trap->word == r.word);
    BOOST_TEST(r.end_cycle == r.start_cycle);
    BOOST_TEST(r.regs.empty());
    BOOST_TEST(r.mems.empty());
    BOOST_TEST(model.halted());
  }
};

/// Trap codes by isa.yaml name.
inline uint8_t trap(const std::string& name) { return spec().trap(name).code; }

}  // namespace gt
