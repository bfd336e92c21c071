// The MoE program builder's assembly emitter and register plan (internal to sim/workload/src).
#pragma once

#include <cstdint>
#include <sstream>
#include <stdexcept>
#include <string>

#include "moesim/isa/program.hpp"

namespace moesim::workload::detail {

// Register plan: gp1..gp3 loop counters by nesting depth, gp4..gp14 temporaries of the current
// phase, gp15 scratch of li()/addi() for constants wider than imm18.
// gp4 is also the fourth loop counter of the pipelined projection (build_common.cpp).
constexpr unsigned kL1 = 1, kL2 = 2, kL3 = 3, kL4 = 4, kScratch = 15;
// f1 logit / gate accumulator, f2 limit, f3 -limit, f4 -alpha, f5 1.0, f6 route weight, f7 -1.
constexpr unsigned kFAcc = 1, kFLimit = 2, kFNegLimit = 3, kFNegAlpha = 4, kFOne = 5, kFRoute = 6,
                   kFNegOne = 7;
// a0 inputs/outputs, a1 expert weights.
constexpr unsigned kAIn = 0, kAOut = 0, kAExpert = 1;
constexpr uint64_t kImm18 = uint64_t{1} << 18;
constexpr uint64_t kHbmAlign = 64;

inline std::string gp(unsigned i) { return "gp" + std::to_string(i); }
inline std::string fr(unsigned i) { return "f" + std::to_string(i); }
inline std::string ar(unsigned i) { return "a" + std::to_string(i); }

inline uint64_t round_up(uint64_t v, uint64_t m) { return (v + m - 1) / m * m; }
inline uint64_t ceil_div(uint64_t v, uint64_t m) { return (v + m - 1) / m; }

/// Assembly text with sticky stage markers and helpers for wide constants.
class Emitter {
 public:
  void stage(const std::string& name) {
    if (name == stage_) return;
    out_ << "; @stage=" << name << '\n';
    stage_ = name;
  }
  /// The current `; @stage=` name.
  const std::string& current_stage() const { return stage_; }
  /// Sticky `; @pair=` marker: the token / expert pair the following instructions work on.
  void pair(const isa::WorkTag& tag) {
    if (tag == pair_) return;
    out_ << "; @pair=" << isa::format_work_tag(tag) << '\n';
    pair_ = tag;
  }
  /// The current `; @pair=` tag.
  const isa::WorkTag& work_tag() const { return pair_; }
  void comment(const std::string& text) { out_ << "; " << text << '\n'; }
  void blank() { out_ << '\n'; }
  void op(const std::string& text) { out_ << text << '\n'; }

  /// gp[rd] = value (u32), with S_LUI_INT when it does not fit imm18.
  void li(unsigned rd, uint64_t value) {
    if (value >= (uint64_t{1} << 32)) throw std::logic_error("li: value does not fit 32 bits");
    if (value < kImm18) {
      op("S_ADDI_INT " + gp(rd) + ", gp0, " + std::to_string(value));
      return;
    }
    op("S_LUI_INT " + gp(rd) + ", " + std::to_string(value >> 12));
    if ((value & 0xFFF) != 0)
      op("S_ADDI_INT " + gp(rd) + ", " + gp(rd) + ", " + std::to_string(value & 0xFFF));
  }
  /// gp[rd] = gp[rs] + value.
  void addi(unsigned rd, unsigned rs, uint64_t value) {
    if (value < kImm18) {
      op("S_ADDI_INT " + gp(rd) + ", " + gp(rs) + ", " + std::to_string(value));
      return;
    }
    li(kScratch, value);
    op("S_ADD_INT " + gp(rd) + ", " + gp(rs) + ", " + gp(kScratch));
  }
  void mov(unsigned rd, unsigned rs) { addi(rd, rs, 0); }
  void loop_start(unsigned counter, uint64_t count) {
    op("C_LOOP_START " + gp(counter) + ", " + std::to_string(count));
  }
  void loop_end(unsigned counter) { op("C_LOOP_END " + gp(counter)); }

  std::string text() const { return out_.str(); }

 private:
  std::ostringstream out_;
  std::string stage_ = "other";
  isa::WorkTag pair_;
};

}  // namespace moesim::workload::detail
