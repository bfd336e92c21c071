// Test-only isa::Engine that replays a script of retire records, for comparator and report tests
// that need two engines to differ in one chosen way. Shared by
// testbenches/cosim/test_comparator.cpp and test_reports.cpp.
#pragma once

#include <algorithm>
#include <cstdint>
#include <map>
#include <stdexcept>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "moesim/isa/encoding.hpp"
#include "moesim/isa/engine.hpp"
#include "moesim/isa/spec.hpp"

namespace moesim::test {

/// Replays `script` one record per step. Every space is kUnits units of 2 bytes, all zero at the
/// start; a step applies its memory updates (space, unit, byte written to the unit's low byte)
/// before handing out its record. The record's unit (decoded from its word) is busy for the
/// record's whole latency: one UnitSpan per record, returned by take_unit_spans. retired()
/// counts the records that are not traps, as the real engines do.
class ScriptedEngine final : public isa::Engine {
 public:
  static constexpr uint64_t kUnits = 64;

  struct Step {
    isa::RetireRecord record;
    std::vector<std::tuple<isa::Space, uint64_t, uint8_t>> updates;
  };

  ScriptedEngine(std::string name, std::vector<Step> script)
      : name_(std::move(name)), script_(std::move(script)) {
    for (isa::Space s : isa::kAllSpaces) mem_[s].assign(2 * kUnits, 0);
  }
  /// Records only, no memory updates.
  ScriptedEngine(std::string name, const std::vector<isa::RetireRecord>& records)
      : ScriptedEngine(std::move(name), steps_of(records)) {}

  std::string name() const override { return name_; }
  void load(const isa::Program&, const isa::MemoryImage&) override {}
  void set_instruction_budget(uint64_t) override {}
  void set_dma_queue(uint64_t) override {}
  void set_hbm_jitter(uint64_t) override {}
  bool step(isa::RetireRecord& out) override {
    if (next_ >= script_.size()) return false;
    const Step& s = script_[next_++];
    for (const auto& [space, unit, value] : s.updates) {
      mem_[space][2 * unit] = value;
      if (space == isa::Space::Hbm) hbm_written_ += 1;
    }
    out = s.record;
    // The HBM bytes of the step: the counters' increase since the previous one.
    out.hbm_read = hbm_read_ - hbm_read_seen_;
    out.hbm_written = hbm_written_ - hbm_written_seen_;
    hbm_read_seen_ = hbm_read_;
    hbm_written_seen_ = hbm_written_;
    cycles_ = out.end_cycle;
    if (!out.trap) ++retired_;
    const isa::InstrSpec* ins = isa::decode(spec(), out.word).spec;
    if (ins != nullptr && out.end_cycle > out.start_cycle)
      pending_.push_back({unit_index(ins->unit), out.start_cycle, out.end_cycle});
    return true;
  }
  bool halted() const override { return next_ >= script_.size(); }
  uint64_t cycles() const override { return cycles_; }
  uint64_t retired() const override { return retired_; }
  uint64_t hbm_bytes_read() const override { return hbm_read_; }
  uint64_t hbm_bytes_written() const override { return hbm_written_; }
  isa::ArchRegs regs() const override { return regs_; }
  std::vector<uint8_t> read(isa::Space space, uint64_t begin, uint64_t count) const override {
    if (begin + count > kUnits) throw std::out_of_range("scripted read");
    const auto& m = mem_.at(space);
    return {m.begin() + static_cast<std::ptrdiff_t>(2 * begin),
            m.begin() + static_cast<std::ptrdiff_t>(2 * (begin + count))};
  }
  uint64_t size(isa::Space) const override { return kUnits; }
  std::vector<isa::UnitSpan> take_unit_spans() override { return std::exchange(pending_, {}); }
  /// Scripted engines have no machine state to checkpoint.
  isa::ArchState save() const override { throw std::logic_error("ScriptedEngine: no checkpoints"); }
  void restore(const isa::Program&, const isa::ArchState&) override {
    throw std::logic_error("ScriptedEngine: no checkpoints");
  }

  /// The index of `unit` in isa.yaml `units` (UnitSpan::unit).
  static uint8_t unit_index(const std::string& unit) {
    const auto& units = spec().units();
    return static_cast<uint8_t>(std::find(units.begin(), units.end(), unit) - units.begin());
  }

  isa::ArchRegs regs_;                              ///< what regs() reports (a test may set it)
  std::map<isa::Space, std::vector<uint8_t>> mem_;  ///< the memories (a test may poke them)
  uint64_t hbm_read_ = 0;                           ///< what hbm_bytes_read() reports

 private:
  static const isa::Spec& spec() { return isa::Spec::builtin(); }
  static std::vector<Step> steps_of(const std::vector<isa::RetireRecord>& records) {
    std::vector<Step> steps;
    for (const auto& r : records) steps.push_back({r, {}});
    return steps;
  }

  std::string name_;
  std::vector<Step> script_;
  std::vector<isa::UnitSpan> pending_;
  size_t next_ = 0;
  uint64_t cycles_ = 0;
  uint64_t retired_ = 0;
  uint64_t hbm_written_ = 0;                           ///< one byte per HBM update applied
  uint64_t hbm_read_seen_ = 0, hbm_written_seen_ = 0;  ///< the counters at the previous step
};

}  // namespace moesim::test
