// Functional coverage of random runs (random_program.hpp, docs/random.md, Coverage).
#include <algorithm>

#include "moesim/random/random_program.hpp"

namespace moesim::rnd {

namespace {

/// M_* instructions that read an MRAM tile: matrix unit, no immediate operand (the *_WO
/// write-backs carry one).
bool reads_tile(const isa::InstrSpec& I) {
  if (I.unit != "matrix") return false;
  return std::none_of(I.operands.begin(), I.operands.end(),
                      [](const isa::OperandSpec& o) { return o.kind == isa::OperandKind::Imm; });
}

}  // namespace

Coverage::Coverage(const isa::Spec& spec, const isa::MachinePreset& preset) : spec_(spec) {
  auto add = [&](const std::string& group, const std::string& name) {
    index_[name] = items_.size();
    items_.push_back({group, name, 0});
  };
  const unsigned LD = static_cast<unsigned>(preset.get("LOOP_DEPTH"));
  for (const isa::InstrSpec& I : spec.instructions()) add("opcode", I.mnemonic);
  for (const isa::InstrSpec& I : spec.instructions()) {
    if (I.mnemonic == "C_HADAMARD_TRANSFORM") continue;  // always illegal_instruction
    add("class", I.mnemonic + " legal");
    add("class", I.mnemonic + " boundary");
  }
  for (const isa::InstrSpec& I : spec.instructions())
    for (const std::string& t : I.traps) add("trap", I.mnemonic + " " + t);
  for (const isa::TrapSpec& t : spec.traps()) add("trap", "any " + t.name);
  for (const char* k : {"undefined_opcode", "reserved_field", "register_index"})
    add("trap", std::string("illegal_instruction ") + k);
  // V_TOPK policy x E x k (the register policy's E and k binned; k is an 8-bit field, so
  // k = E is out of reach when MAX_TOPK_EXPERTS exceeds it).
  for (const isa::TopkPolicySpec& p : spec.topk_policies()) {
    const std::string r = "rmask=" + std::to_string(p.rmask);
    if (p.hardwired()) {
      add("topk", r);
      continue;
    }
    const isa::CtrlFieldSpec* fk = spec.control_register(p.reg).field("k");
    const uint64_t kmax = fk ? (1ull << fk->width()) - 1 : 255;
    add("topk", r + " E=1 k=E");
    for (const char* e : {"lt_vlen", "vlen", "multi_row", "max"})
      for (const char* k : {"k=1", "mid", "k=E"}) {
        if (std::string(k) == "k=E" && std::string(e) == "max" &&
            static_cast<uint64_t>(preset.get("MAX_TOPK_EXPERTS")) > kmax)
          continue;
        add("topk", r + " E=" + e + " " + k);
      }
  }
  for (const isa::InstrSpec& I : spec.instructions())
    if (reads_tile(I))
      for (const char* c : {"zero", "normal", "nan", "extreme", "all_codes", "prefetched"})
        add("mx", I.mnemonic + " scales=" + c);
  for (const isa::InstrSpec& I : spec.instructions()) {
    if (I.mnemonic == "C_HADAMARD_TRANSFORM") continue;
    for (unsigned d = 0; d <= LD; ++d) {
      if (I.mnemonic == "C_LOOP_START" && d == LD) continue;  // would overflow
      if (I.mnemonic == "C_LOOP_END" && d == 0) continue;     // would underflow
      add("loop", I.mnemonic + " depth=" + std::to_string(d));
    }
  }
}

void Coverage::hit(const std::string& name) {
  auto it = index_.find(name);
  if (it != index_.end()) ++items_[it->second].hits;
}

void Coverage::add(const Rendered& r, const std::vector<Executed>& run) {
  for (const Executed& e : run) {
    if (e.pc >= r.tags.size()) continue;
    const Tag& t = r.tags[e.pc];
    if (e.trap) {
      const isa::TrapSpec* ts = spec_.trap_by_code(*e.trap);
      const std::string cause = ts ? ts->name : std::to_string(*e.trap);
      hit("any " + cause);
      if (!t.mnemonic.empty()) hit(t.mnemonic + " " + cause);
      if (cause == "illegal_instruction") {
        if (t.cls == "undefined_opcode" || t.cls == "reserved_field" || t.cls == "register_index")
          hit("illegal_instruction " + t.cls);
        // An instruction declared only to trap (isa.yaml traps: [illegal_instruction] and the
        // word is legal, e.g. C_HADAMARD_TRANSFORM) is covered by its trap.
        const isa::InstrSpec* I = spec_.by_mnemonic(t.mnemonic);
        if (I && t.cls == "legal" && I->traps == std::vector<std::string>{cause}) hit(t.mnemonic);
      }
      continue;
    }
    hit(t.mnemonic);
    hit(t.mnemonic + " depth=" + std::to_string(t.depth));
    if (t.tested && (t.cls == "legal" || t.cls == "boundary")) hit(t.mnemonic + " " + t.cls);
    if (!t.topk.empty()) hit(t.topk);
    if (!t.mx.empty()) hit(t.mnemonic + " scales=" + t.mx);
  }
}

std::vector<std::pair<std::string, std::pair<uint64_t, uint64_t>>> Coverage::summary() const {
  std::vector<std::pair<std::string, std::pair<uint64_t, uint64_t>>> out;
  for (const Item& i : items_) {
    auto it =
        std::find_if(out.begin(), out.end(), [&](const auto& g) { return g.first == i.group; });
    if (it == out.end()) {
      out.push_back({i.group, {0, 0}});
      it = out.end() - 1;
    }
    ++it->second.second;
    if (i.hits > 0) ++it->second.first;
  }
  return out;
}

}  // namespace moesim::rnd
