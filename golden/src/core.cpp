#include "core.hpp"

#include <algorithm>
#include <map>
#include <stdexcept>
#include <string>

#include "moesim/isa/encoding.hpp"
#include "moesim/isa/tables.hpp"

namespace moesim::golden {

using isa::Opcode;
using isa::RegFile;
using isa::TrapCause;

namespace {

bool control_implements(Opcode op) {
  switch (op) {
    case Opcode::C_SET_ADDR_REG:
    case Opcode::C_SET_SCALE_REG:
    case Opcode::C_SET_STRIDE_REG:
    case Opcode::C_SET_V_MASK_REG:
    case Opcode::C_LOOP_START:
    case Opcode::C_LOOP_END:
    case Opcode::C_SET_TOPK_REG:
    case Opcode::C_BREAK:
    case Opcode::C_HADAMARD_TRANSFORM:
      return true;
    default:
      return false;
  }
}

/// isa.yaml `hbm_jitter`: the extra cycles J(seed, n) in [0, max] of transfer number n.
uint64_t hbm_jitter(uint32_t seed, uint32_t n, uint32_t max) {
  if (seed == 0) return 0;
  uint32_t h = seed ^ (n * isa::kHbmJitter_GAMMA);
  h ^= h >> isa::kHbmJitter_SHIFT1;
  h *= isa::kHbmJitter_MUL1;
  h ^= h >> isa::kHbmJitter_SHIFT2;
  h *= isa::kHbmJitter_MUL2;
  h ^= h >> isa::kHbmJitter_SHIFT3;
  return (uint64_t{h} * (uint64_t{max} + 1)) >> 32;
}

}  // namespace

Core::Core(sc_core::sc_module_name name, const isa::Spec& spec, const isa::MachinePreset& preset,
           const Geometry& g, CycleClock& clock, RecordQueue& records)
    : sc_module(name),
      spec_(spec),
      preset_(preset),
      g_(g),
      clock_(clock),
      records_(records),
      queue_depth_(static_cast<uint64_t>(preset.get("DMA_QUEUE"))),
      jitter_seed_(static_cast<uint32_t>(preset.get("HBM_JITTER_SEED"))),
      jitter_max_(static_cast<uint32_t>(preset.get("HBM_JITTER_MAX"))) {
  const std::map<std::string, sc_core::sc_port<UnitIf>*> units{
      {isa::unit_name(isa::Unit::Scalar), &scalar}, {isa::unit_name(isa::Unit::Vector), &vector},
      {isa::unit_name(isa::Unit::Topk), &topk},     {isa::unit_name(isa::Unit::Matrix), &matrix},
      {isa::unit_name(isa::Unit::Dma), &dma},       {isa::unit_name(isa::Unit::Control), nullptr}};
  for (const isa::InstrSpec& ins : spec.instructions()) {
    auto u = units.find(ins.unit);
    if (u == units.end()) {
      throw std::logic_error("golden: isa.yaml instruction " + ins.mnemonic + " is in unit '" +
                             ins.unit + "', which the golden model does not have");
    }
    OpEntry& e = ops_.at(ins.opcode);
    e.spec = &ins;
    e.unit = u->second;
    e.unit_index = static_cast<uint8_t>(
        std::find(spec.units().begin(), spec.units().end(), ins.unit) - spec.units().begin());
    for (const std::string& t : ins.traps) e.trap_order.push_back(spec.trap(t).code);
    bool dynamic = false;
    for (const std::string& id : ins.latency.identifiers()) {
      dynamic = dynamic || spec.latency_vars().count(id) > 0;
    }
    if (!dynamic) {
      e.static_latency = spec.latency(ins, preset);
    } else if (e.unit == nullptr) {
      throw std::logic_error("golden: control instruction " + ins.mnemonic +
                             " has a latency that depends on latency_vars");
    }
  }
  if (spec.operand_kind(isa::OperandKind::Gp).count != regs_.gp.size() ||
      spec.operand_kind(isa::OperandKind::Fp).count != regs_.fp.size() ||
      spec.operand_kind(isa::OperandKind::Addr).count != regs_.addr.size()) {
    throw std::logic_error("golden: isa.yaml register counts differ from isa::ArchRegs");
  }
  SC_THREAD(run);
}

void Core::end_of_elaboration() {
  // Every instruction of isa.yaml must be executable: a spec entry without golden support fails
  // here, at construction, not in the middle of a program.
  for (const OpEntry& e : ops_) {
    if (e.spec == nullptr) continue;
    const auto op = static_cast<Opcode>(e.spec->opcode);
    const bool ok = e.unit == nullptr ? control_implements(op) : (*e.unit)->implements(op);
    if (!ok) {
      throw std::logic_error("golden: isa.yaml instruction " + e.spec->mnemonic + " (unit " +
                             e.spec->unit + ") is not implemented by the golden model");
    }
  }
}

void Core::load(const isa::Program& program, uint64_t instruction_budget) {
  budget_ = instruction_budget;
  program_.clear();
  program_.reserve(program.size());
  for (uint32_t w : program.words) program_.push_back(isa::decode(spec_, w));
  stages_ = program.stages;
  stages_.resize(program.size(), 0);  // a program without a stage table is all `other`
  regs_ = isa::ArchRegs{};
  loops_.clear();
  pc_ = 0;
  retired_ = 0;
  transfer_number_ = 0;
  cycles_ = 0;
  clock_.restart(0);
  trapped_ = false;
  records_.clear();
  transfers->clear();
  spans_.clear();
  stopped_ = done_ = program_.empty();
  // A thread parked in a wait of the previous program returns from it (generation_).
  ++generation_;
  cancel_.notify(sc_core::SC_ZERO_TIME);
  if (!done_ && idle_) start_.notify(sc_core::SC_ZERO_TIME);
}

void Core::restore(const isa::Program& program, const isa::ArchState& s) {
  load(program, s.instruction_budget);
  regs_ = s.regs;
  regs_.gp[0] = 0;
  regs_.fp[0] = 0;
  loops_.clear();
  for (const isa::LoopEntry& l : s.loops) loops_.push_back(Loop{l.body, l.broken});
  pc_ = s.pc;
  retired_ = s.retired;
  cycles_ = s.cycle;
  clock_.restart(s.cycle);
  const bool was_done = done_;
  stopped_ = done_ = pc_ >= program_.size();
  if (was_done && !done_ && idle_) start_.notify(sc_core::SC_ZERO_TIME);
}

void Core::save(isa::ArchState& s) const {
  if (trapped_) throw std::logic_error("golden: no checkpoint of a trapped machine");
  if (transfers->pending() != 0)
    throw std::logic_error("golden: no checkpoint while a transfer is pending (docs/overlap.md)");
  if (jitter_seed_ != 0)
    throw std::logic_error(
        "golden: no checkpoint under HBM jitter (it would hold no transfer number)");
  s.pc = pc_;
  s.retired = retired_;
  s.cycle = cycles();
  s.instruction_budget = budget_;
  s.regs = regs_;
  s.loops.clear();
  for (const Loop& l : loops_) s.loops.push_back(isa::LoopEntry{l.body, l.broken});
}

std::vector<isa::UnitSpan> Core::take_unit_spans() {
  std::vector<isa::UnitSpan> s;
  s.swap(spans_);
  return s;
}

void Core::run() {
  for (;;) {
    idle_ = true;
    wait(start_);
    idle_ = false;
    // Between two steps the thread is parked on the zero-time wait below (or, with a DMA queue,
    // on a wait that load() cancels); a load() in that state needs no other notification: the
    // loop continues with the new program.
    while (!done_) {
      if (!stopped_) {
        issue();
        wait(sc_core::SC_ZERO_TIME);
      } else if (transfers->pending() == 0) {
        done_ = true;
      } else {
        wait(transfers->completed() | cancel_);  // drain the queue (docs/overlap.md section 5)
      }
    }
  }
}

bool Core::legal(const isa::Decoded& d) const {
  if (d.spec == nullptr) return false;
  for (const isa::OperandSpec& o : d.spec->operands) {
    if (o.kind == isa::OperandKind::Fp || o.kind == isa::OperandKind::Addr) {
      if (isa::extract(d.word, spec_.field(o.field)) >= spec_.operand_kind(o.kind).count) {
        return false;
      }
    }
  }
  // Reserved operand values: isa.yaml `allowed:` lists (V_TOPK rmask: `topk_policies`).
  for (const isa::OperandSpec& o : d.spec->operands) {
    if (!o.permits(isa::extract(d.word, spec_.field(o.field)))) return false;
  }
  return true;
}

TrapSet Core::check_control(const Issue& is) const {
  TrapSet t;
  if (is.op == Opcode::C_LOOP_START) {
    t.add_if(is.d.imm22 == 0, TrapCause::loop_count_zero);
    t.add_if(loops_.size() >= g_.loop_depth, TrapCause::loop_depth_overflow);
  } else if (is.op == Opcode::C_LOOP_END) {
    t.add_if(loops_.empty(), TrapCause::loop_underflow);
  } else if (is.op == Opcode::C_HADAMARD_TRANSFORM) {
    t.add(TrapCause::illegal_instruction);  // declared, never implemented (isa.yaml)
  }
  return t;
}

uint32_t Core::execute_control(const Issue& is, Effects& fx) {
  const isa::Decoded& d = is.d;
  const uint32_t v = is.gp(d.rd);
  switch (is.op) {
    case Opcode::C_SET_ADDR_REG:
      fx.write_reg(RegFile::Addr, d.rd, (uint64_t{is.gp(d.rs1)} << 32) | is.gp(d.rs2));
      break;
    case Opcode::C_SET_SCALE_REG:
      fx.write_reg(RegFile::Ctrl, static_cast<uint8_t>(isa::CtrlReg::Scale), v);
      break;
    case Opcode::C_SET_STRIDE_REG:
      fx.write_reg(RegFile::Ctrl, static_cast<uint8_t>(isa::CtrlReg::Stride), v);
      break;
    case Opcode::C_SET_V_MASK_REG:
      fx.write_reg(RegFile::Ctrl, static_cast<uint8_t>(isa::CtrlReg::VMask), v);
      break;
    case Opcode::C_SET_TOPK_REG:
      fx.write_reg(RegFile::Ctrl, static_cast<uint8_t>(isa::CtrlReg::TopkPolicy), v);
      break;
    case Opcode::C_LOOP_START:
      fx.write_reg(RegFile::Gp, d.rd, d.imm22);
      loops_.push_back(Loop{pc_ + 1, false});
      break;
    case Opcode::C_LOOP_END:
      if (v > 1 && !loops_.back().broken) {
        fx.write_reg(RegFile::Gp, d.rd, v - 1);
        return loops_.back().body;
      }
      fx.write_reg(RegFile::Gp, d.rd, 0);
      loops_.pop_back();
      break;
    case Opcode::C_BREAK:
      if (loops_.empty()) return static_cast<uint32_t>(program_.size());  // halt
      loops_.back().broken = true;
      break;
    default:
      throw std::logic_error("golden: core cannot execute control opcode " +
                             std::to_string(d.opcode));
  }
  return pc_ + 1;
}

void Core::apply(const isa::RegWrite& w) {
  switch (w.file) {
    case RegFile::Gp:
      if (w.index != 0) regs_.gp.at(w.index) = static_cast<uint32_t>(w.value);
      break;
    case RegFile::Fp:
      if (w.index != 0) regs_.fp.at(w.index) = static_cast<uint16_t>(w.value);
      break;
    case RegFile::Addr:
      regs_.addr.at(w.index) = w.value;
      break;
    case RegFile::Ctrl:
      switch (static_cast<isa::CtrlReg>(w.index)) {
        case isa::CtrlReg::Scale:
          regs_.scale = static_cast<uint32_t>(w.value);
          break;
        case isa::CtrlReg::Stride:
          regs_.stride = static_cast<uint32_t>(w.value);
          break;
        case isa::CtrlReg::VMask:
          regs_.v_mask = static_cast<uint32_t>(w.value);
          break;
        case isa::CtrlReg::TopkPolicy:
          regs_.topk_policy = static_cast<uint32_t>(w.value);
          regs_.topk_valid = true;
          break;
      }
      break;
  }
}

bool Core::wait_for_issue(const TrapSet& found, bool dma_instruction, isa::RetireRecord& rec) {
  const uint64_t generation = generation_;
  // The conflict of the instruction with pending transfer i (docs/overlap.md section 3), none if
  // their rows do not meet or the instruction is a DMA instruction.
  auto conflict = [&](size_t i) {
    if (dma_instruction) return isa::StallCause::None;
    const RowRange& t = transfers->region(i);
    bool raw = false, waw = false, war = false;
    for (const RowRange& f : found) {
      if (!f.meets(t)) continue;
      raw = raw || (writes(t.access) && reads(f.access));
      waw = waw || (writes(t.access) && writes(f.access));
      war = war || (reads(t.access) && writes(f.access));
    }
    return raw   ? isa::StallCause::Raw
           : waw ? isa::StallCause::Waw
           : war ? isa::StallCause::War
                 : isa::StallCause::None;
  };
  auto hazard = [&] {
    if (dma_instruction) return transfers->pending() >= queue_depth_;
    for (size_t i = 0; i < transfers->pending(); ++i)
      if (conflict(i) != isa::StallCause::None) return true;
    return false;
  };
  // The cause, fixed in the ready cycle: queue_full, or the conflict with the youngest
  // conflicting transfer (the one whose completion ends the stall).
  isa::StallCause cause = dma_instruction ? isa::StallCause::QueueFull : isa::StallCause::None;
  for (size_t i = transfers->pending(); i-- > 0 && cause == isa::StallCause::None;)
    cause = conflict(i);
  while (hazard()) {
    wait(transfers->completed() | cancel_);
    if (generation != generation_) return false;
  }
  rec.start_cycle = rec.end_cycle = now();
  rec.stall_cycles = rec.start_cycle - rec.ready_cycle;
  rec.stall_cause = rec.stall_cycles == 0 ? isa::StallCause::None : cause;
  return true;
}

bool Core::occupy(uint64_t cycles) {
  const uint64_t generation = generation_;
  const sc_core::sc_time end =
      sc_core::sc_time_stamp() + static_cast<double>(cycles) * clock_period();
  // A load() that finds this thread in run()'s zero-time wait (the previous program ended with a
  // retire) notifies cancel_ for a wait the new program's first instruction has only just begun:
  // same generation, no time elapsed. Such a wake-up is not a cancel; wait out the rest.
  while (sc_core::sc_time_stamp() < end) {
    wait(end - sc_core::sc_time_stamp(), cancel_);
    if (generation != generation_) return false;
  }
  wait(sc_core::SC_ZERO_TIME);
  return generation == generation_;
}

void Core::issue() {
  const isa::Decoded& d = program_[pc_];
  isa::RetireRecord rec;
  rec.index = retired_;
  rec.pc = pc_;
  rec.word = d.word;
  rec.stage = stages_[pc_];
  rec.start_cycle = now();
  rec.ready_cycle = rec.start_cycle;
  rec.end_cycle = rec.start_cycle;

  // A trap stops issue in the ready cycle; pending transfers still complete (run() drains).
  auto trap = [&](uint8_t cause) {
    rec.trap = isa::Trap{cause, pc_, d.word};
    stopped_ = true;
    done_ = transfers->pending() == 0;
    trapped_ = true;
    records_.publish(std::move(rec));
  };
  if (retired_ >= budget_) {
    return trap(static_cast<uint8_t>(TrapCause::instruction_budget_exceeded));
  }
  if (!legal(d)) return trap(static_cast<uint8_t>(TrapCause::illegal_instruction));

  const OpEntry& e = ops_[d.opcode];
  const Issue is{d, static_cast<Opcode>(d.opcode), regs_};
  const TrapSet found = e.unit == nullptr ? check_control(is) : (*e.unit)->check(is);
  if (!found.empty()) {
    for (uint8_t code : e.trap_order) {
      if (found.has(code)) return trap(code);
    }
    throw std::logic_error("golden: " + e.spec->mnemonic + " at pc " + std::to_string(pc_) +
                           " found trap causes (bit mask " + std::to_string(found.bits()) +
                           ") that isa.yaml does not list for it");
  }

  int64_t latency = e.static_latency ? *e.static_latency
                                     : spec_.latency(*e.spec, preset_, (*e.unit)->latency_vars(is));
  const bool dma_instruction = e.unit == &dma;
  if (queue_depth_ > 0 && !wait_for_issue(found, dma_instruction, rec)) return;
  // The transfer's latency grows by its HBM jitter; the number counts issued DMA instructions.
  if (dma_instruction)
    latency += static_cast<int64_t>(hbm_jitter(jitter_seed_, transfer_number_++, jitter_max_));
  Effects fx;
  uint32_t next_pc = pc_ + 1;
  if (queue_depth_ > 0 && dma_instruction) {
    // Issue in one cycle; the engine runs the transfer with the operands of now.
    if (found.end() - found.begin() != 1)
      throw std::logic_error("golden: " + e.spec->mnemonic + " covers no single row range");
    transfers->push(Transfer{d, regs_, static_cast<uint64_t>(latency), rec, *found.begin()});
    if (!occupy(1)) return;
  } else {
    if (e.unit == nullptr) {
      next_pc = execute_control(is, fx);
    } else {
      (*e.unit)->execute(is, fx);
    }
    if (queue_depth_ == 0) {
      wait(static_cast<double>(latency) * clock_period());
    } else if (!occupy(static_cast<uint64_t>(latency))) {
      return;
    }
  }

  for (const isa::RegWrite& w : fx.regs) apply(w);
  rec.regs = std::move(fx.regs);
  rec.mems = std::move(fx.mems);
  rec.hbm_read = fx.hbm_read;
  rec.hbm_written = fx.hbm_written;
  isa::normalize(rec);
  rec.end_cycle = now();
  // A queued DMA instruction's issue cycle is no busy span: its transfer's is (the DMA engine's).
  if (rec.end_cycle > rec.start_cycle && !(queue_depth_ > 0 && dma_instruction))
    spans_.push_back(isa::UnitSpan{e.unit_index, rec.start_cycle, rec.end_cycle});
  cycles_ = rec.end_cycle;
  ++retired_;
  pc_ = next_pc;
  stopped_ = pc_ >= program_.size();
  done_ = stopped_ && transfers->pending() == 0;
  records_.publish(std::move(rec));
}

}  // namespace moesim::golden
